"""Host resource limits on run, test and repl: flags, environment knobs, exit code 3, audit."""

from __future__ import annotations

import json

import pytest

from tests.bounds.conftest import assert_language_error, assert_no_leak, run_bounded
from tests.conftest import synsema_env

LOOP = "let n be 0\nwhile true\n    set n to n + 1\n"
# Keeps copies of a list until memory runs out, below the size limits: each copy of a
# 1,000,000-item list is 8 MB of pointers: 25 of them pass a 200M limit.
HOG = "let base be range(1000000)\nlet keep be []\nwhile true\n    set keep to keep + [base + [1]]\n"


@pytest.mark.parametrize("command", ["run", "test", "repl"])
def test_the_time_limit_ends_every_command_with_exit_3(program, command):
    if command == "test":
        path = program('test "spins"\n' + "".join("    " + line + "\n" for line in LOOP.splitlines()), "t.syn")
        args, stdin = ["test", "--time-limit", "1", path], ""
    elif command == "repl":
        args, stdin = ["repl", "--time-limit", "1"], "while true\n    nothing\n\n"
    else:
        args, stdin = ["run", "--time-limit", "1", program(LOOP)], ""
    result = run_bounded(*args, stdin=stdin, timeout=60)
    assert_language_error(result, "time limit of 1 s exceeded", code=3)


def test_the_time_limit_from_the_environment_and_the_flag_winning(program):
    path = program(LOOP)
    result = run_bounded("run", path, env=synsema_env(SYNSEMA_TIME_LIMIT="1"), timeout=60)
    assert_language_error(result, "time limit of 1 s exceeded", code=3)
    quick = program('print("done")\n', "quick.syn")
    result = run_bounded("run", "--time-limit", "off", quick, env=synsema_env(SYNSEMA_TIME_LIMIT="x"))
    assert result.returncode == 0 and result.stdout == "done\n", result.stderr


def test_the_memory_limit_is_a_catchable_error_then_exit_3(program, tmp_path):
    audit = tmp_path / "audit.jsonl"
    result = run_bounded("run", "--memory-limit", "200M", "--audit", audit, program(HOG), timeout=60)
    assert_language_error(result, "out of memory", "p.syn:4:", code=3)
    records = [json.loads(line) for line in audit.read_text().splitlines()]
    assert records[-2]["limit"] == "memory" and records[-2]["line"] == 4
    assert records[-1]["summary"]["exit"] == 3
    caught = HOG.replace("while true\n    set keep", "try\n    while true\n        set keep")
    caught += "recover e\n    set keep to []\n    print(\"recovered: \" + slice(e, 0, 13))\n"
    result = run_bounded("run", "--memory-limit", "200M", program(caught, "c.syn"), timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "recovered: out of memory\n"
    assert_no_leak(result)


# Each call leaves a cycle (its frame holds the lambda, which holds the frame) keeping a
# 20,000-number list alive: 1,500 of them are about 1 GB, which only the cyclic collector frees.
CYCLES = ("task make(n)\n    let big be range(n)\n    let keep be () => big\n    give keep\n"
          "let f be nothing\neach i in range(1500)\n    set f to make(20000)\nprint(\"done\")\n")


def test_cycles_the_program_drops_are_collected_within_the_memory_limit(program):
    """Loading holds the collector off and freezes what it built (Runtime.run_main); the
    program itself runs with the collector on."""
    result = run_bounded("run", "--memory-limit", "400M", program(CYCLES), timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "done\n"


def test_the_time_limit_is_audited(program, tmp_path):
    audit = tmp_path / "audit.jsonl"
    result = run_bounded("run", "--time-limit", "1", "--audit", audit, program(LOOP), timeout=60)
    assert result.returncode == 3, result.stderr
    records = [json.loads(line) for line in audit.read_text().splitlines()]
    assert records[-2]["limit"] == "time" and records[-2]["bound"] == 1
    assert records[-1]["summary"]["exit"] == 3


@pytest.mark.parametrize("flag, value", [("--time-limit", "-1"), ("--time-limit", "soon"),
                                         ("--memory-limit", "lots"), ("--memory-limit", "0.5X")])
def test_a_malformed_limit_is_a_usage_error(program, flag, value):
    result = run_bounded("run", flag, value, program('print("x")\n'))
    assert_language_error(result, flag, code=2)


def test_limits_are_in_the_help():
    result = run_bounded("run", "--help")
    assert "--time-limit" in result.stdout and "--memory-limit" in result.stdout
    assert "SYNSEMA_TIME_LIMIT" in result.stdout
