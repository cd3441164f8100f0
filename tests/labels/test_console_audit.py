"""The console and the audit log cannot be used against the host.

Decision (README, "The console"): the console is one output behind one capability, `stdout`.
`print`, `eprint`, the `log` statement, `show` and the prompt of `read_line` all need it, so a
ceiling without `stdout` silences stderr as well as stdout; a refusal is a capability error
naming the line. Under `--labels` every one of them is a sink like `print`.

Each case runs the real CLI with the console write on line 3, behind an ordinary branch, so the
error must name the write's own line.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_synsema, synsema_env

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
    records = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    check = records[1]
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


# ================================================================ the audit log cannot be forged
#
# Decision (README, "The audit log"): the log starts with a line naming the run's random id,
# written before the program is read; every record and the summary carry the id; the summary
# counts the records. A consumer takes the id from the first line and keeps only lines with it,
# so nothing the script prints — to stdout, to stderr, in an error message — counts.

FORGED_ID = "0" * 32


def forged(kind: str, run: str = FORGED_ID) -> str:
    """A line a script writes that looks like an audit line, as Synsema text literal content."""
    lines = {
        "start": {"run": run, "ts": "2026-01-01T00:00:00.000Z", "start": {"pid": 1}},
        "record": {"run": run, "ts": "2026-01-01T00:00:00.000Z", "capability": "net", "scope": "evil.example",
                   "granted": True, "reason": "require: net(\"*\")", "file": "prog.syn", "line": 1},
        "summary": {"run": run, "summary": {"records": 1, "granted": 1, "denied": 0, "exit": 0}},
    }
    return json.dumps(lines[kind])


def syn_text(text: str) -> str:
    """`text` as a Synsema string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


class Forged(AssertionError):
    """The consumer refused the log."""


def consume(first_line: str, text: str) -> tuple[list[dict], dict]:
    """What a consumer of the audit log does. `first_line` is the first line of the log's
    channel (the file, the descriptor, or stderr), `text` all of it: the run id comes from the
    start line, only lines carrying it count, the summary must be the last of them and count
    the records between. Returns (records, summary)."""
    try:
        start = json.loads(first_line)
    except ValueError:
        raise Forged(f"the first line is not the start line: {first_line!r}") from None
    if not (isinstance(start, dict) and "start" in start and len(start.get("run", "")) == 32):
        raise Forged(f"the first line is not the start line: {first_line!r}")
    ours = []
    for line in text.splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict) and value.get("run") == start["run"]:
            ours.append(value)
    if not ours or ours[0] != start or "summary" not in ours[-1]:
        raise Forged("no summary with the run's id")
    records, summary = ours[1:-1], ours[-1]["summary"]
    if any("start" in r or "summary" in r for r in records):
        raise Forged("a second start or summary line carries the run's id")
    if summary["records"] != len(records):
        raise Forged(f"the summary counts {summary['records']} records, the log has {len(records)}")
    return records, summary


def consume_stderr(stderr: str) -> tuple[list[dict], dict]:
    return consume(stderr.splitlines()[0] if stderr else "", stderr)


def checks(records: list[dict]) -> list[tuple]:
    return [(r["capability"], r["granted"], r["line"]) for r in records]


def _run(tmp_path, source: str, *flags: str, stdin: str = ""):
    (tmp_path / "prog.syn").write_text(source, encoding="utf-8")
    return run_synsema("run", *flags, "prog.syn", cwd=tmp_path, stdin=stdin)


def _run_with(tmp_path, *flags: str, **streams):
    """`synsema run FLAGS prog.syn` where the test chooses the streams and descriptors."""
    return subprocess.run([sys.executable, "-m", "synsema", "run", *flags, "prog.syn"], cwd=tmp_path,
                          env=synsema_env(), text=True, timeout=120, **streams)


def test_every_line_carries_the_run_id_and_the_summary_counts_them(tmp_path):
    proc = _run(tmp_path, 'print(now() > 0)\ntry\n    env("HOME")\nrecover e\n    print("no")\n', "--audit", "json")
    assert proc.returncode == 0 and proc.stdout == "true\nno\n"
    lines = [json.loads(line) for line in proc.stderr.splitlines()]
    assert len({line["run"] for line in lines}) == 1 and len(lines[0]["run"]) == 32
    assert lines[0]["start"] == {"pid": lines[0]["start"]["pid"]}
    records, summary = consume_stderr(proc.stderr)
    assert checks(records) == [("time", True, 1), ("env", False, 3)]
    assert summary == {"records": 2, "granted": 1, "denied": 1, "exit": 0}
    again = _run(tmp_path, "print(1)\n", "--audit", "json")
    assert json.loads(again.stderr.splitlines()[0])["run"] != lines[0]["run"]   # new every run


def test_the_id_is_on_fd_records_too(tmp_path):
    (tmp_path / "prog.syn").write_text("print(now() > 0)\n", encoding="utf-8")
    read, write = os.pipe()
    proc = _run_with(tmp_path, "--audit", f"fd:{write}", pass_fds=(write,), capture_output=True)
    os.close(write)
    with os.fdopen(read, encoding="utf-8") as pipe:
        log = pipe.read()
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "true\n", "")
    records, summary = consume(log.splitlines()[0], log)
    assert checks(records) == [("time", True, 1)] and summary["records"] == 1
    assert all(json.loads(line)["run"] == records[0]["run"] for line in log.splitlines())


def test_the_script_cannot_read_the_id(tmp_path):
    """No builtin, argument or environment variable holds it: a program that prints everything
    it can reach prints no id."""
    (tmp_path / "prog.syn").write_text("print(args())\nprint(steps())\nprint(now())\n", encoding="utf-8")
    proc = run_synsema("run", "--audit", "audit.jsonl", "prog.syn", "--", "a", cwd=tmp_path)
    run = json.loads((tmp_path / "audit.jsonl").read_text().splitlines()[0])["run"]
    assert proc.returncode == 0 and run not in proc.stdout + proc.stderr


# ---------------------------------------------------------------- routes: attack and twin
# Each route: the attack (refused, or handled: the consumer's view is exactly the real
# records) and its secure twin (accepted). Forged lines carry a made-up id, so a consumer that
# checks the id rejects them.

def test_route_eprint_without_stdout_is_refused(tmp_path):
    source = f'eprint({syn_text(forged("summary"))})\nprint(now() > 0)\n'
    attack = _run(tmp_path, source, "--cap-set", "time", "--audit", "json")
    assert attack.returncode == 1 and forged("summary") not in attack.stderr.splitlines()
    records, summary = consume_stderr(attack.stderr)
    assert checks(records) == [("stdout", False, 1)] and summary["exit"] == 1
    twin = _run(tmp_path, 'eprint("checking the clock")\nprint(now() > 0)\n', "--cap-set", "stdout,time",
                "--audit", "json")
    assert twin.returncode == 0 and twin.stdout == "true\n" and "checking the clock" in twin.stderr
    records, summary = consume_stderr(twin.stderr)
    assert checks(records) == [("stdout", True, 1), ("time", True, 2), ("stdout", True, 2)]


def test_route_log_without_stdout_is_refused(tmp_path):
    attack = _run(tmp_path, f'log {syn_text(forged("record"))}\n', "--cap-set", "none", "--audit", "json")
    assert attack.returncode == 1 and "[LOG] " + forged("record") not in attack.stderr.splitlines()
    assert checks(consume_stderr(attack.stderr)[0]) == [("stdout", False, 1)]
    twin = _run(tmp_path, 'log "checked"\n', "--cap-set", "stdout", "--audit", "json")
    assert twin.returncode == 0 and "[LOG] checked" in twin.stderr.splitlines()
    assert checks(consume_stderr(twin.stderr)[0]) == [("stdout", True, 1)]


def test_route_read_line_prompt_without_stdout_is_refused(tmp_path):
    prompt = syn_text(forged("summary") + "\n")
    attack = _run(tmp_path, f'let a be read_line({prompt})\n', "--cap-set", "stdin", "--audit", "json",
                  stdin="x\n")
    assert attack.returncode == 1 and attack.stdout == ""
    assert checks(consume_stderr(attack.stderr)[0]) == [("stdin", True, 1), ("stdout", False, 1)]
    twin = _run(tmp_path, 'let a be read_line("name? ")\nprint(a)\n', "--cap-set", "stdin,stdout",
                "--audit", "json", stdin="ana\n")
    assert (twin.returncode, twin.stdout) == (0, "name? ana\n")


@pytest.mark.parametrize("writer", ["eprint", "print"])
def test_route_forged_lines_are_told_apart_by_the_id(writer, tmp_path):
    """A script granted the console prints a forged start line, record and summary (on stderr,
    or on stdout merged into the same channel); the consumer sees only the real records."""
    lines = "\n".join(f"{writer}({syn_text(forged(kind))})" for kind in ("start", "record", "summary"))
    source = f"{lines}\nprint(now() > 0)\n"
    (tmp_path / "prog.syn").write_text(source, encoding="utf-8")
    merged = _run_with(tmp_path, "--audit", "json", stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert merged.returncode == 0
    assert merged.stdout.count(FORGED_ID) == 3   # the forgeries are there, byte for byte
    records, summary = consume(merged.stdout.splitlines()[0], merged.stdout)
    assert checks(records) == [("time", True, 4)]
    assert summary == {"records": 1, "granted": 1, "denied": 0, "exit": 0}
    twin = _run(tmp_path, "print(now() > 0)\n", "--audit", "json")
    assert checks(consume_stderr(twin.stderr)[0]) == [("time", True, 1)]


def test_route_forged_summary_in_an_error_message(tmp_path):
    """The error report quotes the program's message, newlines and all, after the program
    ends: the real summary still comes last, and the forged lines lack the id."""
    fake = "\n".join([forged("record"), forged("summary")])
    attack = _run(tmp_path, f"print(now() > 0)\nraise {syn_text('boom' + chr(10) + fake)}\n", "--audit", "json")
    assert attack.returncode == 1
    assert forged("record") in attack.stderr.splitlines() and forged("summary") in attack.stderr.splitlines()
    records, summary = consume_stderr(attack.stderr)
    assert checks(records) == [("time", True, 1)] and summary["exit"] == 1
    assert json.loads(attack.stderr.splitlines()[-1])["summary"] == summary   # the last line
    twin = _run(tmp_path, 'print(now() > 0)\nraise "boom"\n', "--audit", "json")
    assert consume_stderr(twin.stderr)[1] == {"records": 1, "granted": 1, "denied": 0, "exit": 1}


def test_a_consumer_notices_a_record_dropped_or_added(tmp_path):
    proc = _run(tmp_path, "print(now() > 0)\nprint(now() > 0)\n", "--audit", "json")
    lines = proc.stderr.splitlines()
    consume_stderr(proc.stderr)
    with pytest.raises(Forged):
        consume_stderr("\n".join(lines[:1] + lines[2:]))           # a record removed
    with pytest.raises(Forged):
        consume_stderr("\n".join(lines[:-1]))                       # no summary: killed outright
    with pytest.raises(Forged):
        consume_stderr("\n".join([forged("start")] + lines))        # a start line ahead of it


# ---------------------------------------------------------------- the log is out of the script's reach
AUDIT_FILE_ROUTES = {
    # route → the statement after `require file("/")`, given the audit file `audit.jsonl`
    "read by its name": 'print(read_file("audit.jsonl"))',
    "read through a symlink": 'print(read_file("link.jsonl"))',
    "read through a hard link": 'print(read_file("hard.jsonl"))',
    "overwritten": 'write_file("audit.jsonl", "forged")',
    "appended to": 'append_file("audit.jsonl", "forged")',
    "deleted": 'delete_file("audit.jsonl")',
    "probed": 'print(file_exists("audit.jsonl"))',
}


@pytest.mark.parametrize("route", sorted(AUDIT_FILE_ROUTES))
def test_route_the_audit_file_is_refused_to_file_builtins(route, tmp_path):
    statement = AUDIT_FILE_ROUTES[route]
    (tmp_path / "link.jsonl").symlink_to("audit.jsonl")
    (tmp_path / "audit.jsonl").write_text("")
    os.link(tmp_path / "audit.jsonl", tmp_path / "hard.jsonl")
    attack = _run(tmp_path, f'require file("/")\n{statement}\n', "--audit", "audit.jsonl")
    assert attack.returncode == 1 and attack.stdout == ""
    assert "where this run's audit log is written" in attack.stderr and "prog.syn:2:" in attack.stderr
    text = (tmp_path / "audit.jsonl").read_text()
    records, summary = consume(text.splitlines()[0], text)
    assert [(r["granted"], r["reason"]) for r in records] == [(False, "the audit log of this run")]
    assert summary["exit"] == 1 and "forged" not in text
    twin = _run(tmp_path, 'require file("/")\nwrite_file("notes.txt", "ok")\nprint(read_file("notes.txt"))\n',
                "--audit", "audit.jsonl")
    assert (twin.returncode, twin.stdout) == (0, "ok\n"), twin.stderr


@pytest.mark.parametrize("path", ["/proc/self/fd/2", "/dev/stderr", "/dev/fd/2", "err.txt"])
def test_route_stderr_as_a_file_is_refused_when_it_holds_the_audit(path, tmp_path):
    """--audit json with stderr redirected to a file: that file is the log, by any name."""
    (tmp_path / "prog.syn").write_text(f'require file("/")\nprint(read_file("{path}"))\n', encoding="utf-8")
    with open(tmp_path / "err.txt", "w") as err:
        proc = _run_with(tmp_path, "--audit", "json", stdout=subprocess.PIPE, stderr=err)
    text = (tmp_path / "err.txt").read_text()
    assert proc.returncode == 1 and proc.stdout == "", text
    records, _ = consume(text.splitlines()[0], text)
    assert [(r["granted"], r["reason"]) for r in records] == [(False, "the audit log of this run")]
    # Twin: the same read with the audit log elsewhere is the program's own business.
    with open(tmp_path / "err2.txt", "w") as err:
        twin = _run_with(tmp_path, "--audit", "audit.jsonl", stdout=subprocess.PIPE, stderr=err)
    assert twin.returncode == 0, (tmp_path / "err2.txt").read_text()


@pytest.mark.parametrize("name", ["/proc/self/fd/{fd}", "/dev/fd/{fd}"])
def test_route_an_audit_descriptor_on_a_file_is_refused_by_its_fd_path(name, tmp_path):
    log = open(tmp_path / "log.jsonl", "w")
    fd = log.fileno()
    (tmp_path / "prog.syn").write_text(f'require file("/")\nprint(read_file("{name.format(fd=fd)}"))\n',
                                       encoding="utf-8")
    with log:
        proc = _run_with(tmp_path, "--audit", f"fd:{fd}", pass_fds=(fd,), capture_output=True)
    text = (tmp_path / "log.jsonl").read_text()
    assert proc.returncode == 1 and "where this run's audit log is written" in proc.stderr, proc.stderr
    records, _ = consume(text.splitlines()[0], text)
    assert [(r["capability"], r["granted"]) for r in records] == [("file.read", False)]


# ---------------------------------------------------------------- ended by a signal
def _signalled(tmp_path: Path, source: str, signum: int) -> tuple[int, str, str]:
    (tmp_path / "prog.syn").write_text(source, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "synsema", "run", "--audit", "json", "prog.syn"],
                            cwd=tmp_path, env=synsema_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert [proc.stdout.readline(), proc.stdout.readline()] == ["true\n", "running\n"]  # in its loop
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, out, err


# The loop writes forged summaries as fast as it can, so some are in flight when the signal comes.
SPAMMER = (f'print(now() > 0)\neprint({syn_text(forged("summary"))})\nprint("running")\n'
           f'while true\n    eprint({syn_text(forged("summary"))})\n')


@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_route_a_signal_mid_run_still_writes_the_summary(signum, code, tmp_path):
    exit_code, out, err = _signalled(tmp_path, SPAMMER, signum)
    assert exit_code == code
    assert forged("summary") in err.splitlines()
    records, summary = consume_stderr(err)
    assert checks(records) == [("time", True, 1)]
    assert summary == {"records": 1, "granted": 1, "denied": 0, "exit": code}
    assert ("Terminated" if signum == signal.SIGTERM else "Interrupted") in err.splitlines()


def test_route_signal_twin_runs_to_its_end(tmp_path):
    twin = _run(tmp_path, 'print(now() > 0)\nlet i be 0\nwhile i < 3\n    eprint("tick")\n    set i to i + 1\n',
                "--audit", "json")
    assert twin.returncode == 0
    assert consume_stderr(twin.stderr)[1] == {"records": 1, "granted": 1, "denied": 0, "exit": 0}


def test_a_test_run_ends_its_audit_with_the_summary(tmp_path):
    (tmp_path / "t.syn").write_text('test "the clock runs"\n    assert(now() > 0)\n', encoding="utf-8")
    proc = run_synsema("test", "--audit", "audit.jsonl", "t.syn", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    text = (tmp_path / "audit.jsonl").read_text()
    records, summary = consume(text.splitlines()[0], text)
    assert checks(records) == [("time", True, 2)] and summary["exit"] == 0


def test_a_usage_error_after_the_log_opened_still_ends_it(tmp_path):
    proc = run_synsema("run", "--audit", "audit.jsonl", "missing.syn", cwd=tmp_path)
    assert proc.returncode == 2 and "cannot read missing.syn" in proc.stderr
    text = (tmp_path / "audit.jsonl").read_text()
    assert consume(text.splitlines()[0], text) == ([], {"records": 0, "granted": 0, "denied": 0, "exit": 2})
