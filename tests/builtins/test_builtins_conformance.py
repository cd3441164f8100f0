"""Builtins conformance: the .syn programs beside this file, run through the real CLI.

Each `*.syn` file holds `test` blocks for one stdlib module; `synsema test` must pass all of
them. The builtins that act on the process itself (print, eprint, read_line, args, exit,
the deprecation warnings) cannot observe themselves from inside a program, so they are
checked here by running small programs with `synsema run` and reading stdout, stderr and
the exit status.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).parent
ROOT = HERE.parent.parent
PROGRAMS = sorted(HERE.glob("*.syn"))


def synsema(*args: str, stdin: str = "", cwd=ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "synsema", *args], cwd=cwd, input=stdin,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_conformance_program(program):
    result = synsema("test", str(program))
    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
    assert result.returncode == 0, result.stdout + result.stderr
    assert " 0 failed" in summary, result.stdout


def test_every_module_has_a_program():
    assert {p.stem for p in PROGRAMS} >= {"core", "text", "collections", "numbers", "formats",
                                          "time_random", "unsupported"}


def run(tmp_path, source: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    path = tmp_path / "prog.syn"
    path.write_text(source, encoding="utf-8")
    return synsema("run", str(path), *args, stdin=stdin)


def test_print_joins_display_forms_with_one_space(tmp_path):
    result = run(tmp_path, 'print("a", 1, [1, "b"], nothing, 2.0, {"k": "v"})\nprint()\nprint(1.50d)\n')
    assert result.returncode == 0, result.stderr
    assert result.stdout == 'a 1 [1, "b"] nothing 2.0 {k: "v"}\n\n1.50\n'


def test_eprint_writes_to_stderr(tmp_path):
    result = run(tmp_path, 'eprint("warn", [1])\nprint("out")\n')
    assert result.returncode == 0
    assert result.stdout == "out\n"
    assert result.stderr == "warn [1]\n"


def test_args_are_the_words_after_the_double_dash(tmp_path):
    result = run(tmp_path, "print(args())\n", "--", "x", "y z")
    assert result.stdout == '["x", "y z"]\n'


def test_read_line_reads_stdin_until_its_end(tmp_path):
    result = run(tmp_path, 'print(read_line("? "))\nprint(read_line())\n', stdin="first\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "? first\nnothing\n"


def test_exit_ends_the_program_with_its_code(tmp_path):
    source = ('task leave\n    exit(3)\n'
              'try\n    leave()\nrecover err\n    print("caught")\n'
              'print("never")\n')
    result = run(tmp_path, source)
    assert result.returncode == 3
    assert result.stdout == ""


def test_exit_without_a_code_is_success(tmp_path):
    result = run(tmp_path, 'print("before")\nexit()\nprint("after")\n')
    assert result.returncode == 0
    assert result.stdout == "before\n"


def test_deprecated_names_warn_once_on_stderr(tmp_path):
    source = 'each i in range(3)\n    print(find_all("a1b2", "[0-9]"))\n'
    result = run(tmp_path, source)
    assert result.returncode == 0
    assert result.stdout == '["1", "2"]\n' * 3
    assert result.stderr == "warning: 'find_all' is deprecated; use 'regex_find_all'\n"


def test_random_needs_require_random(tmp_path):
    result = run(tmp_path, "print(random())\n")
    assert result.returncode == 1
    assert "Capability not granted: random" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_uncaught_builtin_error_has_a_location(tmp_path):
    result = run(tmp_path, 'let x be 1\nprint(int("abc"))\n')
    assert result.returncode == 1
    assert result.stderr.startswith("Runtime error: ")
    assert ":2:" in result.stderr
    assert 'Cannot convert "abc" to an integer' in result.stderr
