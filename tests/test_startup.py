"""Start-up stays light: running a hello-world program must not import the heavy backends."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT, run_synsema, synsema_env

HEAVY = ("sympy", "z3", "pysat", "prompt_toolkit", "pydantic", "httpx", "synsema.stdlib.math.tool",
         "mcp", "anyio", "synsema.runtime.mcp", "lark")

PROBE = """
import json, sys
from synsema.runtime.cli import main
code = main(["run", sys.argv[1]])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


# Modules a plain run without --labels never uses: the label compiler, what explains a failed
# assertion, help rendering, the LLM layer, the test runner and REPL, the standard modules
# only some builtins need, and the builtin modules of builtins the program does not call. Each costs start-up time (and more without a .pyc cache, issue 19).
ON_FIRST_USE = ("synsema.runtime.label_compiler", "synsema.runtime.diffs", "difflib", "synsema.lang.unparse", "synsema.runtime.llm",
                "synsema.runtime.testrunner", "synsema.runtime.testsession", "synsema.runtime.repl", "secrets", "csv", "datetime",
                "fractions", "hashlib",
                # builtins are known from stdlib/builtins.json: a module loads at its first call
                *(f"synsema.stdlib.{name}" for name in ("convert", "text", "numbers", "formats", "bytes", "secrets",
                                                        "time_random", "files_env", "net", "tools", "llm",
                                                        "script_math", "labels", "mcp", "concurrency",
                                                        "memory", "unsupported")),
                "synsema.runtime.memory",
                # the generator of task, lambda and loop bodies: this program has none
                "synsema.runtime.codegen",
                # every command's handler and help but `run`'s, the audit log, what explains a
                # program's errors, source that does not parse, and `match`
                "synsema.runtime.subcommands", "synsema.runtime.command_table", "synsema.runtime.audit",
                "synsema.lang.diagnostics", "synsema.lang.parse_errors", "synsema.runtime.patterns",
                "synsema.runtime.concurrency",
                # the project file's settings and reader: there is no synsema.toml above the program
                "synsema.runtime.project",
                # reduce functions written for the grammar rules a long parse uses most
                "synsema.lang.reduce_code",
                # the static tools' whole-module name resolution, and the run's trace (no --trace,
                # no OTLP endpoint variable)
                "synsema.lang.resolution", "synsema.runtime.trace",
                # the closure compiler's seldom used constructs (try, require, enum, sandbox, log, …)
                "synsema.runtime.compiler_more")


# What the start-up benchmark's program (bench/programs/hello.syn: one `print`) must not load
# either (issue 31, start-up without .pyc): the operators and their inline paths (its first
# operator, index or local store), the assertion recorder (its first `assert…` call), and what
# words an error (its first error), and templates and escapes (its first template or escaped string).
PRINT_ONLY_NEVER = ("synsema.runtime.operators", "synsema.runtime.fastpaths", "synsema.runtime.assertions",
                    "synsema.lang.hints", "synsema.lang.suggest", "synsema.lang.toolschema", "synsema.lang.templates")


def loaded_modules(program, expected: list[str]) -> list[str]:
    """The modules loaded once `main(["run", program])` returns, in a fresh interpreter."""
    result = subprocess.run([sys.executable, "-c", PROBE, str(program)], capture_output=True, text=True,
                            env=synsema_env(), cwd=ROOT, timeout=60)
    lines = result.stdout.splitlines()
    assert lines[:-1] == expected, result.stderr
    report = json.loads(lines[-1])
    assert report["code"] == 0
    return report["modules"]


def hello_world_modules(tmp_path) -> list[str]:
    program = tmp_path / "hello.syn"
    program.write_text('print("hello")\nlet xs be sort([3, 1, 2])\nassert_eq(xs, [1, 2, 3])\nprint(xs, math)\n',
                       encoding="utf-8")
    return loaded_modules(program, ["hello", "[1, 2, 3] module math"])


def test_hello_world_imports_no_heavy_backend(tmp_path):
    loaded = [m for m in hello_world_modules(tmp_path)
              if m.split(".")[0] in HEAVY or m in HEAVY or m.startswith("synsema.runtime.mcp.")]
    assert loaded == []


def test_hello_world_imports_nothing_only_some_programs_need(tmp_path):
    loaded = [m for m in hello_world_modules(tmp_path)
              if m in ON_FIRST_USE or m.startswith(tuple(name + "." for name in ON_FIRST_USE))]
    assert loaded == []


def test_the_benchmarks_hello_world_loads_no_operator_assertion_or_error_wording():
    loaded = loaded_modules(ROOT / "bench" / "programs" / "hello.syn", ["Hello, world!"])
    assert [m for m in loaded if m in ON_FIRST_USE or m in PRINT_ONLY_NEVER] == []


# Each error worded by a module imported at its first use, raised first thing in a fresh process:
# the module loads there, and the error is still the language's, with its hint.
LAZY_ERRORS = [
    ("print(lenght([1]))", "Undefined variable: 'lenght'", "hint: did you mean 'length'?"),
    ("task f(a)\n  give a\nprint(f(1, 2))", "task 'f' takes 1 argument, got 2", "hint: call it as f(a)"),
    ("task f(a, b)\n  give a\nprint(f(1))", "task 'f' is missing argument 'b'", "hint: call it as f(a, b)"),
    ("task f(a)\n  give a\nprint(f(b = 1))", "task 'f' has no parameter 'b'", "did you mean 'a'?"),
    ("print(length())", "length() takes 1 argument, got 0", "hint: call it as length(value)"),
    ("print(length([1], x = 2))", "length() does not accept named arguments", "hint: call it as length(value)"),
    ('let m be {"ab": 1}\nprint(m.ac)', "Map has no key 'ac'", "hint: did you mean 'ab'?"),
    ("print(true.size)", "Cannot access property 'size' of bool", "1:7"),
    ("give 1", "give can only be used inside a task", "hint: to end the program early call exit()"),
    ("let xs be [1]\nxs.append(2)", "Synsema has no methods: set xs to append(xs, item)", "2:1"),
    ("task f(a: nummer)\n  give a\nprint(f(1))", "unknown parameter type 'nummer'", "number, text, bool, list, map"),
    ('print(-"a")', "Cannot negate text", "1:7"),
    ("// hi", "Unexpected '//' at the start of a statement", "1:1"),
    ("break", "`break` is not Synsema", "1:1"),
    # patterns compiled at their first use, and lang.templates
    ("print(`x {1 +} y`)", "unexpected end of input; expected an expression", "1:13"),
    ('print("a\\', "Unterminated string", "1:7"),
    ("let x be 1_", "Invalid number '1_': `_` is allowed only between two digits", "1:10"),
    ("print(12abc)", "Invalid number '12abc': a number cannot run into letters", "1:7"),
    ('require net("a b")', "net scope 'a b' is not a host name", "1:9"),
    ('require memory("a/b")', "memory name 'a/b' is not allowed", "1:9"),
]


@pytest.mark.parametrize("source, message, detail", LAZY_ERRORS, ids=[e[1][:30] for e in LAZY_ERRORS])
def test_errors_worded_by_a_module_loaded_at_first_use(tmp_path, source, message, detail):
    (tmp_path / "p.syn").write_text(source + "\n", encoding="utf-8")
    result = run_synsema("run", "p.syn", cwd=tmp_path)
    assert result.returncode == 1
    assert message in result.stderr and detail in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and "Internal error" not in result.stderr


def test_what_loads_at_first_use_reads_as_before(tmp_path):
    """Escapes, numbers past the main loop's plain integers, and templates, first thing in a process."""
    (tmp_path / "p.syn").write_text('print("a\\tb|", 1.5, 1_000, 0xff, 2.5d, `t {1 + 1}`, \'it\\\'s\')\n',
                                    encoding="utf-8")
    result = run_synsema("run", "p.syn", cwd=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (0, "a\tb| 1.5 1000 255 2.5 t 2 it's\n", "")


MORE_CONSTRUCTS = """intent: "check the constructs compiled by runtime.compiler_more"
require time
enum Shape
    circle(r)
    point
invariant "positive": 1 > 0
print(Shape.circle(3), Shape.point)
try
    raise "boom"
recover e
    print("caught", e)
sandbox
    print("in sandbox")
print(sandbox length([1, 2]))
log "logged"
measure "timed"
    print("inside measure")
test "t"
    assert_eq(1, 1)
"""


@pytest.mark.parametrize("flags", [[], ["--labels"]])
def test_constructs_compiled_by_the_module_loaded_at_first_use(tmp_path, flags):
    (tmp_path / "p.syn").write_text(MORE_CONSTRUCTS, encoding="utf-8")
    result = run_synsema("run", *flags, "p.syn", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, "[LOG] logged\n"), result.stderr
    assert result.stdout == "Shape.circle(3) Shape.point\ncaught boom\nin sandbox\n2\ninside measure\n"
    tested = run_synsema("test", "p.syn", cwd=tmp_path)
    assert tested.returncode == 0 and "1 passed, 0 failed" in tested.stdout + tested.stderr
