"""`synsema repl` with stdin from a pipe: the real command, plain lines, the same semantics."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

from .conftest import repl_env

PROBE = """
import json, sys
from synsema.runtime.cli import main
code = main(["repl"])
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("prompt_toolkit", "pygments") or m == "synsema.lang.highlight")
print(json.dumps({"code": code, "heavy": heavy, "highlight": "synsema.lang.highlight" in sys.modules}))
"""


def test_a_piped_line_is_run_and_its_output_shown(piped_repl):
    result = piped_repl("print(1 + 1)\n")
    assert (result.code, result.out, result.err) == (0, "2\n", ""), result


def test_a_piped_session_keeps_definitions_and_reads_blocks_to_a_blank_line(piped_repl):
    result = piped_repl(
        "let greeting be \"hi\"\n"
        "task shout(t)\n"
        "    give upper(t) + \"!\"\n"
        "\n"
        "shout(greeting)\n"
        "let xs be [1,\n"
        "    2, 3]\n"
        "xs |> length\n"
        "each x in xs\n"
        "    print(x * 10)\n")  # a block still open at end of input runs too
    assert (result.code, result.out, result.err) == (0, '"HI!"\n3\n10\n20\n30\n', ""), result


def test_errors_are_reported_the_session_goes_on_and_it_exits_1(piped_repl):
    """Like `python < file`, a piped session that had an error exits 1; unlike it, it goes on,
    so every entry's output and every error are shown."""
    result = piped_repl("let x be 1 +\nprint(nope)\nlet x be 2\nx\n")
    assert result.code == 1 and result.out == "2\n", result
    reports = [line for line in result.err.splitlines() if not line.startswith("  ")]  # not the carets
    assert reports[0].startswith("Parse error: <repl>:1:")
    assert reports[1] == "Runtime error: <repl>:1:7: Undefined variable: 'nope'"
    assert "Traceback" not in result.err


def test_windows_line_ends_are_accepted(piped_repl):
    result = piped_repl("task f()\r\n    give 5\r\n\r\nf()\r\n")
    assert (result.code, result.out, result.err) == (0, "5\n", ""), result


def test_bytes_that_are_not_utf8_are_replaced_not_a_crash(tmp_path):
    env = {**repl_env(tmp_path / "data"), "PYTHONIOENCODING": "utf-8:strict"}
    proc = subprocess.run([sys.executable, "-m", "synsema", "repl"], input=b'let x be 1 \xff\nprint(2)\n',
                          capture_output=True, timeout=60, cwd=tmp_path, env=env)
    assert (proc.returncode, proc.stdout) == (1, b"2\n")
    assert proc.stderr.decode() == ("Lexer error: <repl>:1:12: Unexpected character: '\ufffd'\n"
                                    "  1 | let x be 1 \ufffd\n"
                                    "    |            ^\n")


def test_exit_ends_the_session_with_its_status(piped_repl):
    result = piped_repl('print("before")\nexit(3)\nprint("after")\n')
    assert (result.code, result.out) == (3, "before\n"), result


def test_quit_command_ends_the_session(piped_repl):
    result = piped_repl(':quit\nprint("after")\n')
    assert (result.code, result.out, result.err) == (0, "", ""), result


def test_the_exit_status_of_a_piped_session(piped_repl):
    """0 when no entry failed, 1 after any error (at end of input or :quit), exit(n)'s n always;
    an error caught by recover is no failure."""
    assert piped_repl('try\n    1 / 0\nrecover e\n    print("caught")\n\nprint(1)\n').code == 0
    assert piped_repl("1 / 0\n:quit\nprint(2)\n").code == 1
    assert piped_repl("print(nope)\nexit(0)\n").code == 0
    assert piped_repl(':load "missing.syn"\nprint(3)\n').code == 1
    assert piped_repl(":frobnicate\n").code == 1


def test_piped_input_imports_no_prompt_toolkit_writes_no_history_and_warns_nothing(tmp_path):
    env = repl_env(tmp_path / "data")
    proc = subprocess.run([sys.executable, "-W", "error", "-c", PROBE], input="1 + 1\n", capture_output=True,
                          text=True, timeout=60, cwd=tmp_path, env=env)
    lines = proc.stdout.splitlines()
    assert lines[0] == "2" and proc.stderr == "", proc
    report = json.loads(lines[-1])
    assert report == {"code": 0, "heavy": [], "highlight": False}
    assert not (tmp_path / "data" / "synsema").exists()


def test_host_flags_apply_to_the_session(piped_repl, tmp_path):
    assert piped_repl(":caps\n", "--sandbox").out == "stdout, time\n"
    capped = piped_repl('require file.read("/tmp/x")\nrequire net\n:caps\n', "--cap-set", "stdout,file.read=/tmp/*")
    assert capped.out == 'stdout, file.read("/tmp/x")\n', capped  # net is above the ceiling
    labelled = piped_repl('let s be private("s3cret", "app")\ns\nprint(s)\n', "--labels")
    assert (labelled.code, labelled.out) == (0, "private(app)\nprivate(app)\n"), labelled
    denied = piped_repl('read_file("/etc/hostname")\nprint("on")\n', "--sandbox")
    assert denied.err.startswith("Runtime error: <repl>:1:1: Capability") and denied.out == "on\n"
    audited = piped_repl("exit(2)\n", "--audit", str(tmp_path / "audit.jsonl"))
    assert audited.code == 2
    summary = json.loads((tmp_path / "audit.jsonl").read_text().splitlines()[-1])
    assert summary["summary"]["exit"] == 2


def test_bad_flags_are_usage_errors(piped_repl):
    assert piped_repl("", "--bogus").code == 2
    assert piped_repl("", "--sandbox", "--cap-set", "stdout").code == 2


def test_ctrl_c_interrupts_the_running_entry_not_the_session(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "synsema", "repl"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                            env=repl_env(tmp_path / "data"))
    proc.stdin.write("let n be 0\nwhile true\n    set n to n + 1\n\n")
    proc.stdin.flush()
    time.sleep(2)  # the loop is running
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate('print(n > 0)\nprint("still here")\n', timeout=30)
    assert (proc.returncode, out, err) == (0, "true\nstill here\n", "Interrupted\n")


def test_load_under_a_ceiling_reads_only_what_it_allows(piped_repl, tmp_path):
    """Hostile input: `:load` of a file that is not a program shows its first lines in the
    parse error's excerpt, so under --sandbox/--cap-set it reads only what file.read allows."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "notes.txt").write_text("password = hunter2\n", encoding="utf-8")
    (tmp_path / "lib.syn").write_text('print("loaded")\n', encoding="utf-8")
    for flags in (("--sandbox",), ("--cap-set", f"stdout,file.read={tmp_path}/lib.syn")):
        refused = piped_repl(f":load {outside}/notes.txt\n", *flags)
        assert refused.code == 1 and "hunter2" not in refused.out + refused.err, refused
        assert "the host ceiling (--sandbox/--cap-set) does not allow file.read" in refused.err
    allowed = piped_repl(":load lib.syn\n", "--cap-set", f"stdout,file.read={tmp_path}/lib.syn")
    assert (allowed.code, allowed.out) == (0, "loaded\n"), allowed
    # without a ceiling the person at the prompt owns the machine: :load reads their files
    assert piped_repl(":load lib.syn\n").out == "loaded\n"
