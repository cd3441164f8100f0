"""Per-command help and flag checking, both from runtime.commands' one table of commands.

Every command of the table is walked: its `--help`, `-h` and `help CMD` print the same text, which
names every flag and argument the command accepts and an example; an unknown flag is a usage
error listing the flags that exist; and every flag the table lists is one the command's parser
takes. The walk runs `runtime.cli.main` for each command line inside one subprocess (one start-up
for ~150 command lines); a few command lines also run as separate `synsema` processes.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT, run_synsema, synsema_env
from synsema.runtime import subcommands
from synsema.runtime.commands import COMMANDS, HELP_FLAG, TABLE

PROBE = """
import contextlib, io, json, sys
from synsema.runtime.cli import main
results = []
for argv in json.loads(sys.argv[1]):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    results.append([code, out.getvalue(), err.getvalue()])
print(json.dumps(results))
"""

# A value for each kind of flag value, chosen so that the command fails fast afterwards
# (a missing FILE) without changing the probing process (no memory limit).
SAMPLE_VALUES = {"human|json": "json", "LIST": "stdout", "json|fd:N|PATH": "json", "FILE": "missing.json",
                 "SECONDS": "30", "SIZE": "off", "PATTERN": "x", "PORT": "8765", "DOMAINS|all": "no-such-domain",
                 "EXPR": "x or /y/", "N": "2", "PAGE": "out.html",
                 "DATA": "missing.jsonl", "NAME": "solve", "TASK": "score_x", "RESULTS": "out.jsonl", "K": "2",
                 "local|ray": "local", "ADDRESS": "127.0.0.1:1", "DIR": "memory"}


def main_results(tmp_path, command_lines: list[list[str]]) -> list[tuple[int, str, str]]:
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(command_lines)], capture_output=True,
                          text=True, cwd=tmp_path, env=synsema_env(), stdin=subprocess.DEVNULL, timeout=120)
    assert done.returncode == 0, done.stderr
    return [tuple(result) for result in json.loads(done.stdout)]


def test_the_table_and_the_handlers_name_the_same_commands():
    top = {command.name for command in TABLE if " " not in command.name}
    assert top - {"help"} == {"run", *subcommands.HANDLERS}
    for command in TABLE:
        assert command.summary and command.examples, command.name
        assert all(flag.help for flag in command.flags), command.name
        assert all(example.split("synsema ", 1)[1].startswith(command.name.split()[0])
                   for example in command.examples if command.name != "help"), command.name
        for sub in command.subcommands:
            assert f"{command.name} {sub}" in COMMANDS


def test_help_of_every_command_names_its_usage_arguments_flags_and_an_example(tmp_path):
    lines = []
    for command in TABLE:
        words = command.name.split()
        lines += [[*words, "--help"], [*words, "-h"], ["help", *words]]
    results = main_results(tmp_path, lines)
    for index, command in enumerate(TABLE):
        long, short, spelled = results[3 * index: 3 * index + 3]
        assert long == short == spelled, command.name
        code, out, err = long
        assert code == 0 and err == "", (command.name, err)
        assert out.startswith(f"usage: {command.usage}\n"), out
        for flag in command.flags + (HELP_FLAG,) * (not command.subcommands):
            assert f"  {flag.shown} " in out, (command.name, flag.names)
        for argument, _ in command.arguments:
            assert f"  {argument} " in out, (command.name, argument)
        for sub in command.subcommands:
            assert f"  {sub} " in out, (command.name, sub)
        assert ("\nexample:\n" in out) or ("\nexamples:\n" in out)
        assert all(f"  {example}\n" in out for example in command.examples)


def test_an_unknown_flag_is_a_usage_error_that_lists_the_flags(tmp_path):
    plain = [command for command in TABLE if not command.subcommands and command.name != "help"]
    results = main_results(tmp_path, [[*c.name.split(), "--no-such-flag", "x"] for c in plain])
    for command, (code, out, err) in zip(plain, results):
        assert code == 2 and out == "", command.name
        first, second = err.splitlines()
        assert first.startswith(f"synsema: unknown flag for {command.name}: --no-such-flag ("), err
        for flag in command.flags:
            assert all(name in first for name in flag.names), (command.name, flag.names)
        if not command.flags:
            assert "(it takes no flags)" in first
        assert second == f"(see: synsema {command.name} --help)"


@pytest.mark.parametrize("argv, message", [
    (["run", "--lables", "p.syn"], "unknown flag for run: --lables — did you mean --labels?"),
    (["code", "outline", "--jsno", "p.syn"], "unknown flag for code outline: --jsno — did you mean --json?"),
    (["test", "--sandbx", "t.syn"], "unknown flag for test: --sandbx — did you mean --sandbox?"),
    (["code", "outlin", "p.syn"], "code has no command 'outlin' — did you mean outline? (its commands: "
                                  "outline, check, caps)"),
    (["llm"], "llm needs a command: status"),
    (["tets", "x.syn"], "unknown command: tets — did you mean test?"),
])
def test_mistakes_in_the_command_line_suggest_the_nearest_name(argv, message):
    done = run_synsema(*argv)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines()[0].startswith(f"synsema: {message}")


def test_every_flag_in_the_table_is_one_its_command_parses(tmp_path):
    """The other direction of drift: a flag listed (and described) but refused by the parser."""
    lines = []
    for command in TABLE:
        positional = ["missing.syn"] if command.arguments else []
        for flag in command.flags:
            for name in flag.names:
                lines.append([*command.name.split(), name, *([SAMPLE_VALUES[flag.value]] if flag.value else []),
                              *positional])
    for argv, (code, out, err) in zip(lines, main_results(tmp_path, lines)):
        assert "unknown flag" not in err and "unknown argument" not in err and "bad arguments" not in err, (argv, err)
        assert "Traceback" not in err and "Internal error" not in err, (argv, err)


def test_help_is_a_separate_process_s_answer_too():
    shown = run_synsema("mcp", "serve", "--help")
    assert shown.returncode == 0 and shown.stdout.startswith("usage: synsema mcp serve ")
    assert "--http PORT" in shown.stdout and "--math" in shown.stdout and shown.stderr == ""
    overview = run_synsema("--help")
    assert overview.returncode == 0
    assert all(f"\n  {c.usage.removeprefix('synsema ')}\n" in overview.stdout for c in TABLE if " " not in c.name)
    assert run_synsema().returncode == 2


def test_the_program_s_own_flags_come_after_its_file_or_after_dashes(tmp_path):
    program = tmp_path / "p.syn"
    program.write_text("print(args())\n", encoding="utf-8")
    assert run_synsema("run", program, "--", "--help").stdout == '["--help"]\n'
    assert run_synsema("run", program, "first", "--help", "-x").stdout == '["first", "--help", "-x"]\n'
    assert run_synsema("run", program, "--help").stdout.startswith("usage: synsema run ")
    assert run_synsema("run", "--format=json", program, "--", "a").returncode == 0
    assert run_synsema("run", "-", "--", "-k", cwd=ROOT, stdin="print(args())\n").stdout == '["-k"]\n'
