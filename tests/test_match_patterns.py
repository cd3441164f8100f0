"""`match` compiled to direct tests decides and binds exactly as LANGUAGE.md §2 says.

Random patterns meet random values; the arm taken and every binding are compared with a small
reference matcher written here from the language description (its literals compare with the
runtime's own `equal`, which defines `==`). Each match runs twice: in an arm folded into its
task's frame (the fast path) and in an arm that keeps a frame of its own (a lambda in the arm
forces one). The fixed programs below pin what folding must not change: an arm starts as a
fresh frame every time it runs, its names shadow outer ones only inside it, and a closure made
in an arm keeps that run's bindings.
"""

from __future__ import annotations

import io
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from synsema.runtime.interp import Runtime
from synsema.runtime.values import equal

KEYS = ["a", "b", "c"]

scalars = st.one_of(st.integers(-2, 2), st.sampled_from([0.5, 1.0, -1.0]), st.booleans(), st.none(),
                    st.sampled_from(["a", "b", "", "push"]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.sampled_from(KEYS), inner, max_size=3)), max_leaves=8)

# A pattern as data: ("_",), ("bind",), ("lit", value), ("list", before, rest, after) with rest
# None / "" (anonymous) / "bind", ("map", [(key, sub or None)]). Binder names are given later.
literals = st.one_of(st.integers(-2, 2), st.sampled_from([1.0, 0.5]), st.booleans(), st.none(),
                     st.sampled_from(["a", "b", "", "push"])).map(lambda v: ("lit", v))
patterns = st.recursive(
    st.one_of(st.just(("_",)), st.just(("bind",)), literals),
    lambda inner: st.one_of(
        st.tuples(st.just("list"), st.lists(inner, max_size=3), st.sampled_from([None, "", "bind"]),
                  st.lists(inner, max_size=2)).map(lambda t: t if t[2] is not None else (*t[:3], [])),
        st.tuples(st.just("map"), st.lists(st.tuples(st.sampled_from(KEYS), st.one_of(st.none(), inner)),
                                           max_size=3, unique_by=lambda e: e[0]))),
    max_leaves=6)


def _name(pattern, names: list):
    """The pattern with every binder named uniquely (a map shorthand binds its key's name)."""
    kind = pattern[0]
    if kind == "bind":
        names.append(f"n{len(names)}")
        return ("bind", names[-1])
    if kind == "list":
        before = [_name(p, names) for p in pattern[1]]
        rest = pattern[2]
        if rest == "bind":
            names.append(f"n{len(names)}")
            rest = names[-1]
        return ("list", before, rest, [_name(p, names) for p in pattern[3]])
    if kind == "map":
        entries = []
        for key, sub in pattern[1]:
            if sub is None and key not in names:
                names.append(key)
                entries.append((key, None))
            else:
                entries.append((key, _name(sub or ("bind",), names)))
        return ("map", entries)
    return pattern


def _source(value) -> str:
    if value is None:
        return "nothing"
    if type(value) is bool:
        return "true" if value else "false"
    if type(value) in (int, float):
        return repr(value)
    if type(value) is str:
        return json.dumps(value)
    if type(value) is list:
        return "[" + ", ".join(map(_source, value)) + "]"
    return "{" + ", ".join(f"{json.dumps(k)}: {_source(v)}" for k, v in value.items()) + "}"


def _pattern_source(pattern) -> str:
    kind = pattern[0]
    if kind == "_":
        return "_"
    if kind == "bind":
        return pattern[1]
    if kind == "lit":
        return _source(pattern[1])
    if kind == "list":
        parts = [_pattern_source(p) for p in pattern[1]]
        if pattern[2] is not None:
            parts.append("..." + pattern[2])
        return "[" + ", ".join(parts + [_pattern_source(p) for p in pattern[3]]) + "]"
    return "{" + ", ".join(k if sub is None else f"{k}: {_pattern_source(sub)}" for k, sub in pattern[1]) + "}"


def reference(pattern, value, binds: dict) -> bool:
    """LANGUAGE.md §2 `match`, directly."""
    kind = pattern[0]
    if kind == "_":
        return True
    if kind == "bind":
        binds[pattern[1]] = value
        return True
    if kind == "lit":
        return equal(value, pattern[1])
    if kind == "list":
        _, before, rest, after = pattern
        if type(value) is not list:
            return False
        fixed = len(before) + len(after)
        if (len(value) != fixed) if rest is None else (len(value) < fixed):
            return False
        tail = value[len(value) - len(after):]
        if not all(reference(p, x, binds) for p, x in zip(before, value)):
            return False
        if not all(reference(p, x, binds) for p, x in zip(after, tail)):
            return False
        if rest:
            binds[rest] = value[len(before):len(value) - len(after)]
        return True
    if type(value) is not dict:
        return False
    for key, sub in pattern[1]:
        if key not in value:
            return False
        if sub is None:
            binds[key] = value[key]
        elif not reference(sub, value[key], binds):
            return False
    return True


def _tagged(value):
    """A value with its type spelled out, so 1, 1.0 and true are told apart."""
    if type(value) is list:
        return ["list", [_tagged(x) for x in value]]
    if type(value) is dict:
        return ["map", sorted((k, _tagged(v)) for k, v in value.items())]
    return [type(value).__name__, value]


def run(source: str) -> str:
    output = io.StringIO()
    Runtime(out=output.write, err=output.write).run_main(source, "match.syn")
    return output.getvalue()


arms = st.lists(st.tuples(patterns, st.sampled_from([None, "true", "false"])), min_size=1, max_size=3)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(arms, st.booleans(), st.lists(values, min_size=1, max_size=6))
def test_random_patterns_match_like_the_reference(raw_arms, has_otherwise, subjects):
    named = []
    for pattern, guard in raw_arms:
        names: list[str] = []
        if pattern == ("bind",):  # a bare name at the top of an arm compares instead
            pattern = ("_",)
        named.append((_name(pattern, names), guard, names))
    expected = []
    for v in subjects:
        outcome = [-2, {}]
        for i, (pattern, guard, _) in enumerate(named):
            binds: dict = {}
            if reference(pattern, v, binds) and guard != "false":
                outcome = [i, binds]
                break
        else:
            if has_otherwise:
                outcome = [-1, {}]
        expected.append(outcome)

    lines = []
    for task, wrap in (("folded", "{}"), ("framed", "((r) => r)({})")):
        lines.append(f"task {task}(v)")
        lines.append("    match v")
        for i, (pattern, guard, names) in enumerate(named):
            lines.append(f"        is {_pattern_source(pattern)}" + (f" when {guard}" if guard else ""))
            bound = "{" + ", ".join(f'"{n}": {n}' for n in names) + "}"
            lines.append("            give " + wrap.format(f"[{i}, {bound}]"))
        if has_otherwise:
            lines.append("        otherwise")
            lines.append("            give [-1, {}]")
        lines.append("    give [-2, {}]")
    lines.append(f"let subjects be [{', '.join(map(_source, subjects))}]")
    lines.append("print(json_encode(apply(subjects, folded)))")
    lines.append("print(json_encode(apply(subjects, framed)))")
    folded, framed = run("\n".join(lines) + "\n").splitlines()
    assert _tagged(json.loads(folded)) == _tagged(expected)
    assert _tagged(json.loads(framed)) == _tagged(expected)


def test_an_arm_starts_fresh_each_time_it_runs():
    """A `let` in an arm is unbound until it runs, on every run, even after an error left it."""
    source = """task t()
    let y be "outer"
    let out be []
    let i be 0
    while i < 2
        try
            match i
                is _
                    set out to append(out, y)
                    let y be "arm"
                    set out to append(out, y)
                    when i == 0
                        raise "boom"
        recover
            set out to append(out, "caught")
        set i to i + 1
    give out
print(t())
"""
    assert run(source) == '["outer", "arm", "caught", "outer", "arm"]\n'


def test_binders_shadow_only_inside_their_arm():
    source = """task t(x)
    let seen be []
    match [5, [6, 7]]
        is [x, [y, ...rest]] when x > 4 and y == 6
            set seen to append(seen, [x, y, rest])
            match rest
                is [x]
                    set seen to append(seen, x)
            set seen to append(seen, x)
    give [x, seen]
print(t(1))
"""
    assert run(source) == "[1, [[5, 6, [7]], 7, 5]]\n"


def test_a_failed_guard_falls_through_to_the_next_arm():
    source = """task t(v)
    match v
        is [a, b] when a > b
            give "down"
        is [a, b]
            give `up {a} {b}`
        is {k: [_, ...more]}
            give more
    give "none"
print(apply([[2, 1], [1, 2], {k: [1, 2, 3]}, {k: []}, 3], t))
"""
    assert run(source) == '["down", "up 1 2", [2, 3], "none", "none"]\n'


def test_a_closure_made_in_an_arm_keeps_that_runs_bindings():
    source = """task t()
    let fs be []
    let i be 0
    while i < 3
        match [i]
            is [k]
                set fs to append(fs, () => k)
        set i to i + 1
    give apply(fs, (g) => g())
print(t())
"""
    assert run(source) == "[0, 1, 2]\n"


def test_literal_patterns_use_language_equality():
    """1 == 1.0 == true (numbers compare by value), text only equals text."""
    source = """task kind(v)
    match v
        is 1
            give "one"
        is "1"
            give "text one"
        is nothing
            give "nothing"
        is false
            give "false"
    give "other"
print(apply([1, 1.0, true, "1", nothing, 0, false, [1]], kind))
"""
    assert run(source) == '["one", "one", "one", "text one", "nothing", "false", "false", "other"]\n'


def test_a_literal_head_after_a_shaped_list_arm_is_tested():
    """Arms [0] then [nothing, 1.0]: the second arm reads the subject's shape once and tests its
    literal head with the pattern writer itself (codegen_match.pattern), whose parameter once
    shadowed the function: an Internal error (found by the random test above in CI)."""
    source = ("task f(v)\n    match v\n        is [0]\n            give 0\n"
              "        is [nothing, 1.0]\n            give 1\n    give -2\n"
              "print(f([]), f([0]), f([nothing, 1.0]), f([nothing, 2]), f([1, 1.0]))\n")
    assert run(source) == "-2 0 1 -2 -2\n"
