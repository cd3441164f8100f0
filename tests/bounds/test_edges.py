"""Clean edges of the CLI: the call depth, flat chains, output paths, broken and closed stdio."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.bounds.conftest import assert_language_error, assert_no_leak, run_bounded
from tests.conftest import ROOT, synsema_env


# ------------------------------------------------------------------ the call-depth counter
@pytest.mark.parametrize("loop_body", [
    # a stop that leaves through two task frames
    "each i in [1]\n        outer()",
    # assert_error in a loop
    "assert_error(() => 1 / 0)",
    # an error caught by recover after it left a task
    "try\n        bad()\n    recover e\n        nothing",
    # a callback that fails inside a builtin
    "try\n        apply([1], (x) => x / 0)\n    recover e\n        nothing",
    # a give from inside a loop
    "giver()",
])
def test_the_call_depth_is_exact_on_every_exit(program, loop_body):
    source = f"""task inner()
    stop
task outer()
    inner()
task bad()
    give 1 / 0
task giver()
    each i in [1, 2]
        give i
let n be 0
while n < 4000
    {loop_body}
    set n to n + 1
task deep(k)
    when k == 0
        give 0
    give deep(k - 1) + 1
print(deep(2990))
"""
    result = run_bounded("run", program(source), timeout=30)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "2990\n"


def test_recursion_still_ends_at_the_documented_depth(program):
    source = "task f(n)\n    give f(n + 1)\nf(0)\n"
    result = run_bounded("run", program(source), timeout=30)
    assert_language_error(result, "maximum recursion depth exceeded")


# ------------------------------------------------------------------ flat chains, deep nesting
@pytest.mark.parametrize("setup, chain, expected", [
    ("let x be 1", " + ".join(["x"] * 10_000), "10000"),
    ("let x be true", " and ".join(["x"] * 10_000), "true"),
    ("let x be false", " or ".join(["x"] * 10_000), "false"),
    ("task inc(v)\n    give v + 1\nlet x be 0", "x" + " |> inc" * 10_000, "10000"),
])
def test_a_flat_chain_of_ten_thousand_terms_parses_and_runs(program, setup, chain, expected):
    path = program(f"{setup}\nprint({chain})\n")
    result = run_bounded("run", path, timeout=30)
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected + "\n"
    for command in (["check"], ["code", "outline"], ["code", "check"], ["code", "caps"]):
        checked = run_bounded(*command, path, timeout=30)
        assert checked.returncode == 0, (command, checked.stderr)
        assert_no_leak(checked)


@pytest.mark.parametrize("expression", ["not " * 2000 + "true", "2 ** " * 2000 + "1",
                                        "- " * 2000 + "1"])
def test_deep_nesting_is_still_a_clean_parse_error(program, expression):
    result = run_bounded("run", program(f"print({expression})\n"))
    assert_language_error(result, "Parse error", "nested too deeply", "p.syn:1:")


# ------------------------------------------------------------------ output paths, usage errors
def test_an_audit_path_that_is_the_program_is_a_usage_error(program):
    path = program('print("kept")\n')
    for spelling in (str(path), os.path.join(os.path.dirname(path), ".", "p.syn")):
        result = run_bounded("run", "--audit", spelling, path)
        assert_language_error(result, "is one of the input files", code=2)
    os.link(path, path.parent / "alias.syn")
    result = run_bounded("run", "--audit", path.parent / "alias.syn", path)
    assert_language_error(result, "is one of the input files", code=2)
    assert path.read_text() == 'print("kept")\n'


def test_a_junit_or_audit_path_that_is_a_test_file_is_a_usage_error(program):
    path = program('test "a"\n    assert_eq(1, 1)\n', "t.syn")
    for flag in ("--junit", "--audit"):
        result = run_bounded("test", flag, path, path)
        assert_language_error(result, "is one of the input files", code=2)
        result = run_bounded("test", flag, path, path.parent)  # found through the directory
        assert_language_error(result, "is one of the input files", code=2)
    assert path.read_text() == 'test "a"\n    assert_eq(1, 1)\n'


def test_audit_to_a_descriptor(program, tmp_path):
    path = program('print("hi")\n')
    target = tmp_path / "audit.jsonl"
    with open(target, "w") as sink:
        fd = sink.fileno()
        result = subprocess.run([sys.executable, "-m", "synsema", "run", "--audit", f"fd:{fd}",
                                 str(path)], capture_output=True, text=True, env=synsema_env(),
                                cwd=tmp_path, pass_fds=(fd,), timeout=30)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "hi\n"
    assert '"summary"' in target.read_text()
    assert not (tmp_path / f"fd:{fd}").exists()


def test_audit_to_a_descriptor_that_is_not_open_is_a_usage_error(program):
    result = run_bounded("run", "--audit", "fd:9", program('print("hi")\n'))
    assert_language_error(result, "--audit", "fd:9", code=2)
    assert result.stdout == ""


def test_check_on_a_missing_file_exits_2(tmp_path):
    result = run_bounded("check", tmp_path / "missing.syn")
    assert_language_error(result, "missing.syn", code=2)


def test_non_utf8_files_are_usage_errors_everywhere(tmp_path):
    path = tmp_path / "latin.syn"
    path.write_bytes(b'print("caf\xe9")\n')
    for command in (["run"], ["check"], ["code", "outline"], ["code", "check"], ["code", "caps"]):
        result = run_bounded(*command, path)
        assert_language_error(result, "not UTF-8", code=2)


def test_use_of_a_non_utf8_module_is_a_language_error(program, tmp_path):
    (tmp_path / "m.syn").write_bytes(b'let x be "caf\xe9"\n')
    source = 'try\n    use "./m.syn" as m\nrecover e\n    print("caught: " + e)\n'
    result = run_bounded("run", program(source))
    assert result.returncode == 0, result.stderr
    assert "caught: use: cannot read './m.syn'" in result.stdout
    assert "UTF-8" in result.stdout


# ------------------------------------------------------------------ broken and closed stdio
def _piped_into_closed_reader(args, stdin_text="", env=None):
    """Run synsema with stdout a pipe whose reader is already gone; (exit code, stderr)."""
    reader, writer = os.pipe()
    os.close(reader)
    process = subprocess.Popen([sys.executable, "-m", "synsema", *map(str, args)], stdin=subprocess.PIPE,
                               stdout=writer, stderr=subprocess.PIPE, env=env or synsema_env(), text=True)
    os.close(writer)
    _, err = process.communicate(stdin_text, timeout=60)
    return process.returncode, err


@pytest.mark.parametrize("args", [
    ["test", "-v", "{t}"], ["check", "{t}"], ["code", "outline", "{t}"], ["math", "list"],
    ["math", "list", "--json"], ["math", "describe", "comb.binomial"], ["llm", "status", "--json"],
    ["run", "{t}"], ["repl"], ["version"],
])
def test_a_broken_stdout_ends_every_subcommand_quietly(program, args):
    path = program('task f()\n    give 1\nprint("x")\ntest "a"\n    assert_eq(1, 1)\n', "t.syn")
    args = [a.replace("{t}", str(path)) for a in args]
    code, err = _piped_into_closed_reader(args, 'print("hello")\n' * 50)
    assert code == 141, err
    assert err == ""


def test_closed_standard_streams_are_not_a_crash(program):
    path = program('print("x")\neprint("y")\ntest "a"\n    assert_eq(1, 1)\n', "t.syn")
    for args in (["run", path], ["test", path], ["check", path], ["repl"], ["run", "-"]):
        process = subprocess.run(
            [sys.executable, "-m", "synsema", *map(str, args)], env=synsema_env(), timeout=60,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            preexec_fn=lambda: os.close(1))
        assert process.returncode == 0, (args, process.stderr)
        assert process.stderr in (b"", b"y\n"), (args, process.stderr)
        closed_all = subprocess.run(
            [sys.executable, "-m", "synsema", *map(str, args)], env=synsema_env(), timeout=60,
            preexec_fn=lambda: [os.close(fd) for fd in (0, 1, 2)])
        assert closed_all.returncode == 0, args


# ------------------------------------------------------------------ interrupts, killed writes
@pytest.mark.parametrize("source", [
    "let n be 0\nwhile true\n    set n to (n * 3 + 1) % 1000003\n",
    # a deep recursion of generated direct calls (tests/test_call_path.py)
    "task fib(n)\n    when n < 2\n        give n\n    give fib(n - 1) + fib(n - 2)\nprint(fib(60))\n",
], ids=["hot loop", "deep recursion"])
def test_ctrl_c_interrupts_a_running_program(program, source):
    import signal
    import time
    process = subprocess.Popen([sys.executable, "-m", "synsema", "run", program(source)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=synsema_env())
    time.sleep(2)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert "Interrupted" in err and "Traceback" not in err


def test_a_killed_write_file_leaves_no_temporary_file(program, tmp_path):
    import signal
    import time
    target = tmp_path / "out"
    target.mkdir()
    source = (f'require file.write("{target}/**")\n'
              'let chunk be join(apply(range(100000), (i) => "0123456789"), "")\n'
              'let big be join(apply(range(30), (i) => chunk), "")\n'
              'while true\n'
              f'    write_file("{target}/data.txt", big)\n')
    process = subprocess.Popen([sys.executable, "-m", "synsema", "run", program(source)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=synsema_env())
    deadline = time.monotonic() + 60
    while not (target / "data.txt").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)  # now some write is under way
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    left = sorted(p.name for p in target.iterdir())
    assert left == ["data.txt"], left
    assert (target / "data.txt").stat().st_size == 30_000_000
