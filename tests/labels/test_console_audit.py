"""The console cannot be used against the host.

Decision (README, "The console"): the console is one output behind one capability, `stdout`.
`print`, `eprint`, the `log` statement, `show` and the prompt of `read_line` all need it, so a
ceiling without `stdout` silences stderr as well as stdout; a refusal is a capability error
naming the line. Under `--labels` every one of them is a sink like `print`.

Each case runs the real CLI with the console write on line 3, behind an ordinary branch, so the
error must name the write's own line.
"""

from __future__ import annotations

import pytest

from conftest import run_synsema

# builtin → (the statement, where its text appears: "stdout" or "stderr", the text written,
# the column a refusal names)
WRITES = {
    "print": ('print("hi")', "stdout", "hi\n", 5),
    "eprint": ('eprint("hi")', "stderr", "hi\n", 5),
    "log": ('log "hi"', "stderr", "[LOG] hi\n", 5),
    "show": ('show "hi"', "stdout", "hi\n", 5),
    "read_line prompt": ('let answer be read_line("hi? ")', "stdout", "hi? ", 19),
}

ALLOWED = "allowed"
# condition → (extra command line, first line of the program, outcome, capability refused)
CONDITIONS = {
    "ceiling with stdout": (["--cap-set", "stdout,stdin"], "", ALLOWED, None),
    "cap-set none": (["--cap-set", "none"], "", "denied", "stdout"),
    "ceiling without stdout": (["--cap-set", "stdin,time"], "", "denied", "stdout"),
    "require stdout above a ceiling without it": (["--cap-set", "stdin"], "require stdout", "denied", "stdout"),
    "require missing, no ceiling": ([], "", ALLOWED, None),   # stdout is auto-granted in run mode
    "--sandbox": (["--sandbox"], "", ALLOWED, None),
}
# read_line asks for stdin before its prompt: under `none` stdin is what is refused first.
REFUSED_FIRST = {("read_line prompt", "cap-set none"): "stdin"}


def _program(tmp_path, first: str, statement: str) -> str:
    (tmp_path / "prog.syn").write_text(f"{first}\nlet n be length(\"ab\")\nwhen n == 2\n    {statement}\n",
                                       encoding="utf-8")
    return "prog.syn"


@pytest.mark.parametrize("condition", sorted(CONDITIONS))
@pytest.mark.parametrize("write", sorted(WRITES))
def test_every_console_write_needs_stdout(write, condition, tmp_path):
    statement, stream, text, column = WRITES[write]
    flags, first, outcome, refused = CONDITIONS[condition]
    if write == "read_line prompt" and condition == "--sandbox":
        pytest.skip("--sandbox withholds stdin, so read_line is refused before its prompt")
    proc = run_synsema("run", *flags, _program(tmp_path, first, statement), cwd=tmp_path, stdin="ana\n")
    shown = f"exit {proc.returncode}\n--- stdout\n{proc.stdout}--- stderr\n{proc.stderr}"
    if outcome == ALLOWED:
        assert proc.returncode == 0, shown
        assert (proc.stdout, proc.stderr) == ((text, "") if stream == "stdout" else ("", text)), shown
        return
    refused = REFUSED_FIRST.get((write, condition), refused)
    assert proc.returncode == 1, shown
    assert proc.stdout == "" and text.rstrip() not in proc.stderr.splitlines(), shown
    assert proc.stderr.startswith(f"Runtime error: prog.syn:4:{column}: Capability not granted: {refused} — "), shown


def test_sandbox_refuses_read_line_for_stdin_at_its_line(tmp_path):
    proc = run_synsema("run", "--sandbox", _program(tmp_path, "", 'let a be read_line("hi? ")'), cwd=tmp_path)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.startswith("Runtime error: prog.syn:4:14: Capability not granted: stdin — ")


def test_refused_console_writes_are_audited(tmp_path):
    proc = run_synsema("run", "--cap-set", "time", "--audit", "audit.jsonl",
                       _program(tmp_path, "", 'eprint("hi")'), cwd=tmp_path)
    assert proc.returncode == 1
    import json
    records = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    check = records[0]
    assert (check["capability"], check["granted"], check["line"]) == ("stdout", False, 4)


def test_a_prompt_without_stdout_is_refused_but_a_bare_read_line_is_not(tmp_path):
    (tmp_path / "prog.syn").write_text('print(read_line())\n', encoding="utf-8")
    proc = run_synsema("run", "--cap-set", "stdin", "prog.syn", cwd=tmp_path, stdin="ana\n")
    assert proc.returncode == 1 and proc.stdout == ""   # print itself needs stdout
    (tmp_path / "prog.syn").write_text('let a be read_line()\nexit(length(a))\n', encoding="utf-8")
    proc = run_synsema("run", "--cap-set", "stdin", "prog.syn", cwd=tmp_path, stdin="ana\n")
    assert (proc.returncode, proc.stdout, proc.stderr) == (3, "", "")


def test_a_deprecation_warning_is_dropped_when_the_console_is_closed(tmp_path):
    """The host's own note is not the program's write: it never fails a run, and a ceiling
    without stdout keeps it off the console too."""
    (tmp_path / "prog.syn").write_text('exit(length(replace_text("ab", "a", "c")))\n', encoding="utf-8")
    closed = run_synsema("run", "--cap-set", "none", "prog.syn", cwd=tmp_path)
    assert (closed.returncode, closed.stdout, closed.stderr) == (2, "", "")
    open_ = run_synsema("run", "prog.syn", cwd=tmp_path)
    assert (open_.returncode, open_.stderr) == (2, "warning: 'replace_text' is deprecated; use 'replace'\n")


# ---------------------------------------------------------------- under --labels: sinks like print
LABELLED = {
    # builtin → (statement on a private value s, exit, stdout, stderr) when the value is private
    "print": ("print(s)", 0, "private(bank)\n", ""),
    "eprint": ("eprint(s)", 0, "", "private(bank)\n"),
    "log": ("log s", 0, "", "[LOG] private(bank)\n"),
    "show": ("show s", 0, "private(bank)\n", ""),
    "read_line prompt": ("let a be read_line(s)", 1, "", "an argument of read_line() is private to bank"),
}
UNDER_PC = {
    "print": ("print(1)", "print called under private control flow"),
    "eprint": ("eprint(1)", "eprint called under private control flow"),
    "log": ('log "x"', "log called under private control flow"),
    "show": ("show 1", "show called under private control flow"),
    "read_line prompt": ('let a be read_line("x")', "read_line() called under private control flow"),
    "deprecation warning": ('let a be replace_text("a", "a", "b")', "replace_text called under private control flow"),
}


@pytest.mark.parametrize("write", sorted(LABELLED))
def test_a_private_value_reaches_the_console_redacted_or_refused(write, tmp_path):
    statement, code, out, err = LABELLED[write]
    (tmp_path / "prog.syn").write_text(f'let s be private("4711", "bank")\n{statement}\n', encoding="utf-8")
    proc = run_synsema("run", "--labels", "prog.syn", cwd=tmp_path, stdin="ana\n")
    assert (proc.returncode, proc.stdout) == (code, out), proc.stderr
    assert proc.stderr == err if code == 0 else ("label_violation" in proc.stderr and err in proc.stderr)
    assert "4711" not in proc.stdout + proc.stderr


@pytest.mark.parametrize("write", sorted(UNDER_PC))
def test_no_console_write_under_private_control_flow(write, tmp_path):
    statement, message = UNDER_PC[write]
    (tmp_path / "prog.syn").write_text(f'let s be private("4711", "bank")\nwhen s == "4711"\n    {statement}\n',
                                       encoding="utf-8")
    proc = run_synsema("run", "--labels", "prog.syn", cwd=tmp_path, stdin="ana\n")
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.startswith("Runtime error: prog.syn:3:") and "label_violation" in proc.stderr
    assert message in proc.stderr and "warning" not in proc.stderr
