"""Every builtin, called with odd values, and random programs end only in language errors.

In-process and seeded, so a failure names its case and replays exactly. SYNSEMA_FUZZ_CASES sets
how many builtin calls run (2,000 by default, a few seconds; 10,000 was run once for issue 12).
The host is protected by the ceiling (`stdout` only: no files, network, models, sleeping) and
by the value-size limits under test.
"""

from __future__ import annotations

import io
import math
import os
import random
from decimal import Decimal

import pytest

from synsema.lang.errors import SynError
from synsema.runtime.calls import call_builtin
from synsema.runtime.capabilities import Ceiling
from synsema.runtime.control import ExitProgram, SkipTest, StopLoop
from synsema.runtime.interp import Runtime
from synsema.stdlib.registry import load_all

CASES = int(os.environ.get("SYNSEMA_FUZZ_CASES", "2000"))
# What a builtin may end in: anything else is a Python exception reaching the user.
ALLOWED = (SynError, ExitProgram, StopLoop, SkipTest)  # errors, and the signals of exit, stop, skip


def _odd_values(rt) -> list:
    rt.run_main('let f be (x) => x\nlet g be (a, b) => a / b\ntask stopper()\n    stop\n', "<fuzz>")
    deep = []
    for _ in range(200):
        deep = [deep]
    shared = [1]
    for _ in range(30):
        shared = [shared, shared]
    return [
        None, True, False, 0, 1, -1, 2, 7, 2 ** 70, -(2 ** 200), 10 ** 4000, 0.5, -0.0, 1e308,
        math.nan, math.inf, -math.inf, Decimal("1.50"), Decimal("1e20000"), Decimal("-1e-20000"),
        Decimal("NaN"), Decimal("Infinity"), "", "a", "hello world", " 12 ", "0x1f", "1e999",
        "\x00", "\ud800", "a\x00b", "é€😀", "{", "[", "(", "(a|aa)+", "\\", "%s", "{x}", '{"a": [1, 2]}',
        "[" * 300, "x" * 10_000, [], [1, 2, 3], [1, "a", None], [[1, 2], [3]], [3, 1.5, 2],
        ["b", "a"], [{"a": 1}, {"a": 2}], deep, shared, {}, {"a": 1, "b": [2]}, {"index": 0},
        rt.globals["f"], rt.globals["g"], rt.globals["stopper"], rt.globals["length"], b"\x00\xff",
    ]


@pytest.fixture(scope="module")
def runtime():
    return Runtime(mode="test", ceiling=Ceiling.parse("stdout"), out=lambda text: None,
                   err=lambda text: None, stdin=io.StringIO(""))


def _builtins() -> list:
    return sorted((spec for name, spec in load_all().items() if "." not in name), key=lambda s: s.name)


def test_every_builtin_with_odd_values_raises_only_language_errors(runtime):
    values = _odd_values(runtime)
    specs = _builtins()
    rng = random.Random(12)
    failures = []
    for case in range(CASES):
        spec = specs[case % len(specs)]  # every builtin, round after round
        high = spec.max_args if spec.max_args is not None else spec.min_args + 2
        count = rng.randint(max(0, spec.min_args - 1), min(high + 1, 4))
        args = [rng.choice(values) for _ in range(count)]
        named = None
        if spec.named and rng.random() < 0.3:
            named = [(rng.choice(spec.named), rng.choice(values))]
        try:
            call_builtin(runtime, spec, args, named)
        except ALLOWED:
            pass
        except BaseException as problem:  # the bug this test exists to find
            failures.append(f"case {case}: {spec.name}({', '.join(_short(a) for a in args)}"
                            f"{', ' + named[0][0] + '=' + _short(named[0][1]) if named else ''})"
                            f" -> {type(problem).__name__}: {problem}")
    assert not failures, "\n".join(failures[:20]) + f"\n({len(failures)} failures in {CASES} cases)"


def _short(value) -> str:
    text = repr(value)
    return text if len(text) < 40 else text[:37] + "..."


# ------------------------------------------------------------------ random programs
_EXPRESSIONS = ["x", "y", "1", "0", "-1", "2 ** 64", "1.5", "1e20000d", '"a"', '""', "nothing",
                "true", "[1, 2]", "[]", '{"k": 1}', "(v) => v", "f"]
_OPERATORS = ["+", "-", "*", "/", "//", "%", "**", "==", "<", "and", "or", "in"]


def _expression(rng: random.Random, names: list[str], depth: int = 0) -> str:
    roll = rng.random()
    if depth > 3 or roll < 0.3:
        return rng.choice(_EXPRESSIONS)
    if roll < 0.6:
        return f"({_expression(rng, names, depth + 1)} {rng.choice(_OPERATORS)} {_expression(rng, names, depth + 1)})"
    if roll < 0.8:
        args = ", ".join(_expression(rng, names, depth + 1) for _ in range(rng.randint(0, 3)))
        return f"{rng.choice(names)}({args})"
    return f"{_expression(rng, names, depth + 1)}[{_expression(rng, names, depth + 1)}]"


def _program(rng: random.Random, names: list[str]) -> str:
    lines = ["let x be 3", "let y be [1]", "task f(a)\n    give a"]
    for _ in range(rng.randint(1, 5)):
        e = _expression(rng, names)
        lines.append(rng.choice([f"set x to {e}", f"print({e})", f"try\n    print({e})\nrecover err\n    print(err)",
                                 f"each v in [{e}]\n    set y to [y, y]", f"when {e}\n    stop"]))
    return "\n".join(lines) + "\n"


def test_random_programs_end_only_in_language_errors():
    names = [spec.name for spec in _builtins() if spec.cap is None or spec.cap == "stdout"]
    rng = random.Random(7)
    failures = []
    for case in range(CASES // 4):
        source = _program(rng, names)
        rt = Runtime(mode="test", ceiling=Ceiling.parse("stdout"), out=lambda text: None,
                     err=lambda text: None, stdin=io.StringIO(""))
        try:
            rt.run_main(source, "<fuzz>")
        except ALLOWED:
            pass
        except BaseException as problem:
            failures.append(f"case {case}: {type(problem).__name__}: {problem}\n{source}")
    assert not failures, "\n".join(failures[:5]) + f"\n({len(failures)} failures)"
