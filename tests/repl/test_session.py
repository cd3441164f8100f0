"""One session, many entries: definitions persist, values echo, errors never end it, commands."""

from __future__ import annotations

import io

import pytest

from synsema.runtime.capabilities import Ceiling
from synsema.runtime.repl import QUIT, run_piped
from synsema.stdlib.registry import BUILTINS

from .conftest import CapturedRepl


def test_definitions_persist_between_entries(repl, tmp_path, monkeypatch):
    (tmp_path / "geo.syn").write_text("export task double(n)\n    give n * 2\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    repl = CapturedRepl()
    assert repl.enter("let base be 20").out == ""
    assert repl.enter("task add(a, b)\n    give a + b\n").out == ""
    assert repl.enter("type Point\n    x: number\n    y: number\n").out == ""
    assert repl.enter("enum Light\n    red\n    green\n").out == ""
    assert repl.enter('use "./geo.syn" as geo').out == ""
    shown = repl.enter("add(base, geo.double(1)) + Point(1, 2).y")
    assert (shown.out, shown.err) == ("24\n", "")
    assert repl.enter("Light.green").out == "Light.green\n"
    assert repl.enter("set base to base + 1").out == ""
    assert repl.enter("base").out == "21\n"


@pytest.mark.parametrize("entry, out", [
    ('"hi"', '"hi"\n'),                   # an expression's text value is quoted
    ('print("hi")', "hi\n"),              # print shows text bare and gives nothing: no echo
    ("nothing", ""),                      # nothing is never echoed
    ("let x be 5", ""),                   # a statement is not an expression: no echo
    ("show 5", "5\n"),                    # show prints once, not again as an echo
    ("let y be 2\ny * 3", "6\n"),         # several statements: the last one's value
    ("1 + 1\nlet z be 9", ""),            # …only when the last one is an expression
    ("(a) => a", "task lambda(a)\n"),
    ("[1, 2] |> length", "2\n"),
])
def test_what_an_entry_echoes(repl, entry, out):
    shown = repl.enter(entry)
    assert (shown.out, shown.err, shown.code) == (out, "", None)


def test_an_error_is_reported_and_the_next_entry_works(repl):
    shown = repl.enter("let total be 1 +")
    assert shown.err.startswith("Parse error: <repl>:1:") and shown.code is None
    shown = repl.enter("undefined_name + 1")
    assert shown.err == ("Runtime error: <repl>:1:1: Undefined variable: 'undefined_name'\n"
                         "  1 | undefined_name + 1\n"
                         "    | ^^^^^^^^^^^^^^\n")
    assert repl.enter("let total be 1 + 2").err == ""
    assert repl.enter("total").out == "3\n"


def test_an_error_half_way_keeps_what_ran_before_it(repl):
    shown = repl.enter("let a be 1\nlet b be 1 / 0\nlet c be 3")
    assert "<repl>:2:" in shown.err
    assert repl.enter("a").out == "1\n"
    assert "Undefined variable: 'c'" in repl.enter("c").err


def test_stop_and_give_at_top_level_are_errors_not_crashes(repl):
    assert repl.enter("give 1").err == \
        "Runtime error: <repl>:1:1: give can only be used inside a task (or a test block)\n  1 | give 1\n    | ^^^^\n" \
        "  hint: to end the program early call exit(); to hand back a value, put the code in a task\n"
    assert repl.enter("stop").err == "Runtime error: <repl>:1:1: stop used outside a loop\n  1 | stop\n    | ^^^^\n"
    repl.enter("task leave()\n    stop\n")
    assert repl.enter("leave()").err == "Runtime error: <repl>:2:5: stop used outside a loop\n"
    assert repl.enter("each i in [1, 2, 3]\n    when i == 2\n        leave()\n    print(i)\n").out == "1\n"


def test_deep_recursion_is_the_language_error(repl):
    repl.enter("task down(n)\n    give down(n + 1)\n")
    shown = repl.enter("down(0)")
    assert "maximum recursion depth exceeded" in shown.err and shown.code is None
    assert repl.enter("1").out == "1\n"


def test_exit_ends_the_session_with_its_code(repl):
    assert repl.enter("exit(3)").code == 3
    assert repl.enter('print("still")\nexit(0)').code == 0


def test_a_python_exception_is_an_internal_error_line_and_the_session_goes_on(repl, monkeypatch):
    def broken(rt, value):
        raise LookupError("boom")  # a bug of ours: host failures (ValueError…) are language errors
    monkeypatch.setattr(BUILTINS["length"], "fn", broken)  # stands in for a bug in a builtin
    shown = repl.enter("length([1])")
    assert shown.err.startswith("Internal error: LookupError: boom") and "Traceback" not in shown.err
    assert shown.code is None
    assert repl.enter("2 * 21").out == "42\n"


def test_a_test_block_is_not_run_and_says_so(repl):
    shown = repl.enter('test "adds"\n    assert_eq(1, 2)\n')
    assert shown.err == 'note: test "adds" is not run in the REPL; run its file with synsema test\n'


# ------------------------------------------------------------------ commands
def test_quit_and_its_abbreviation(repl):
    assert repl.enter(":quit").code == QUIT
    assert repl.enter(":q").code == QUIT


def test_help_lists_every_command(repl):
    shown = repl.enter(":help")
    for command in (":help", ":quit", ":load", ":reset", ":caps", ":type"):
        assert f"  {command} " in shown.out
    assert shown.code is None


@pytest.mark.parametrize("entry, message", [
    (":frobnicate", "Usage error: unknown command ':frobnicate' — commands: :help, :quit,"),
    (":", "Usage error: unknown command ':'"),
    (":load", "Usage error: write :load FILE"),
    (":type", "Usage error: write :type EXPR"),
    (":quit now", "Usage error: write :quit alone"),
    (":type let x be 1", "Usage error: :type takes one expression"),
    (":load missing.syn", "Usage error: :load cannot read missing.syn: No such file or directory"),
])
def test_command_mistakes_are_reported(repl, entry, message):
    shown = repl.enter(entry)
    assert shown.err.startswith(message) and shown.code is None, shown


def test_type_answers_like_type_of(repl):
    repl.enter("task f()\n    give 1\n")
    assert [repl.enter(f":type {e}").out for e in ('"x"', "[1]", "f", "1.5d", "nothing", "{a: 1}")] == \
        ["text\n", "list\n", "task\n", "decimal\n", "nothing\n", "map\n"]
    assert repl.enter(":t 1 + 1").out == "number\n"
    assert "Undefined variable: 'nope'" in repl.enter(":type nope").err


def test_load_runs_a_file_into_the_session(tmp_path, monkeypatch):
    (tmp_path / "lib.syn").write_text('let greeting be "hello"\ntask shout(t)\n    give upper(t)\n'
                                      'print("loaded")\n', encoding="utf-8")
    (tmp_path / "bad.syn").write_text("let ok be 1\nlet x be 1 +\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    repl = CapturedRepl()
    assert repl.enter(":load lib.syn").out == "loaded\n"
    assert repl.enter("shout(greeting)").out == '"HELLO"\n'
    assert repl.enter(':l "lib.syn"').out == "loaded\n"
    assert repl.enter(":load bad.syn").err.startswith("Parse error: bad.syn:2:")


def test_reset_forgets_definitions_and_grants(repl):
    repl.enter("let kept be 1")
    repl.enter('require net("api.example.com")')
    assert 'net("api.example.com")' in repl.enter(":caps").out
    assert repl.enter(":reset").out.startswith("fresh session")
    assert "Undefined variable: 'kept'" in repl.enter("kept").err
    assert "net" not in repl.enter(":caps").out
    assert repl.enter("length([1, 2])").out == "2\n"


def test_caps_shows_the_effective_set_under_the_host_flags():
    assert CapturedRepl().enter(":caps").out == "stdout, stdin, time, llm\n"
    sandboxed = CapturedRepl({"ceiling": Ceiling.sandbox(), "audit": None})
    assert sandboxed.enter(":caps").out == "stdout, time\n"
    sandboxed.enter('require net("api.example.com")')  # above the ceiling: granted nothing
    assert sandboxed.enter(":caps").out == "stdout, time\n"
    assert "Capability" in sandboxed.enter('read_file("/etc/hostname")').err
    assert CapturedRepl({"ceiling": Ceiling.parse("none")}).enter(":caps").out == "none\n"


def test_labels_apply_to_the_echo():
    repl = CapturedRepl({"labels": True})
    repl.enter('let secret be private("s3cret", "app")')
    shown = [repl.enter(e).out for e in ("secret", "[secret, 1]", ":type secret", "length(secret) > 0")]
    assert all("s3cret" not in out for out in shown)
    assert shown[:3] == ["private(app)\n", "[private(app), 1]\n", "private(app)\n"]


# ------------------------------------------------------------------ completion
def names(repl, before: str) -> dict:
    word, found = repl.session.completions(before)
    return dict(found)


def test_completion_offers_defined_names_builtins_and_keywords(repl):
    repl.enter("let velocity be 3")
    repl.enter("task verify_all(x)\n    give x\n")
    assert names(repl, "print(velo") == {"velocity": "number"}
    assert names(repl, "veri") == {"verify_all": "task", "verify_hmac": "builtin"}  # verify_hmac (issue 32)
    assert names(repl, "let s be upp") == {"upper": "builtin"}
    assert names(repl, "whi") == {"while": "keyword"}
    assert {"export", "enum", "each"} <= set(names(repl, "e"))
    assert repl.session.completions("xs |> len") == ("len", [("length", "builtin")])


def test_completion_after_a_dot_offers_members(repl):
    repl.enter('let config be {host: "h", port: 80, "not a name": 1}')
    repl.enter("enum Light\n    red\n    green\n")
    assert names(repl, "config.") == {"host": "text", "port": "number"}
    assert names(repl, "Light.g") == {"green": "enum"}
    assert "find" in names(repl, "math.")
    assert names(repl, "a.b.") == {} and names(repl, "3.") == {}


def test_completion_leaves_out_tier_c_refusals(repl):
    assert "aes_gcm_encrypt" in repl.session.rt.globals
    assert names(repl, "aes") == {}


def test_completion_of_commands(repl):
    assert repl.session.completions(":re") == (":re", [(":reset", "command")])
    assert names(repl, "") == {}


# ------------------------------------------------------------------ the plain line loop
def test_the_line_loop_prompts_only_when_asked(repl):
    """With a person typing but no terminal for output, prompts go to stderr (as `prompt_to`)."""
    prompts = []
    code = run_piped(repl.session, io.StringIO("task f()\n    give 7\n\nf()\n"), prompts.append)
    assert code == 0 and "".join(repl.out) == "7\n"
    assert prompts == ["syn> ", "...  ", "...  ", "syn> ", "syn> "]
    assert run_piped(repl.session, io.StringIO("\n\n   \nf() + 1\n")) == 0
    assert "".join(repl.out) == "7\n8\n"
