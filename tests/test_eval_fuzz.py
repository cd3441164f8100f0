"""Random small programs must only ever end in a language error, never a Python exception."""

from __future__ import annotations

import io

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from synsema.lang.errors import SynError
from synsema.runtime.interp import Runtime

NAMES = ["x", "y", "z"]
BUILTINS = ["length", "text", "append", "sort", "keys", "values", "upper", "split", "join", "get",
            "sum", "max", "min", "reverse", "contains", "int", "number", "round", "abs", "type_of",
            "unique", "flatten", "range", "slice", "json_encode", "json_decode", "replace", "trim"]

atoms = st.one_of(
    st.integers(-1000, 1000).map(str),
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(lambda f: repr(abs(f))),
    st.sampled_from(['"a"', '"hello world"', '""', "nothing", "true", "false", "1.5d", "0", "-1"]),
    st.sampled_from(NAMES),
)


def _extend(inner):
    return st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "//", "%", "**", "==", "!=", "<", ">=",
                                          "and", "or", "in"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.tuples(inner, inner).map(lambda t: '{"k": ' + t[0] + ', "j": ' + t[1] + "}"),
        st.tuples(st.sampled_from(BUILTINS), st.lists(inner, max_size=3)).map(
            lambda t: f"{t[0]}(" + ", ".join(t[1]) + ")"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
        inner.map(lambda e: f"(not {e})"),
        inner.map(lambda e: f"(-{e})"),
        st.tuples(inner, inner, inner).map(lambda t: f"(when {t[0]} then {t[1]} otherwise {t[2]})"),
        inner.map(lambda e: f"`t {{{e}}}`"),
    )


exprs = st.recursive(atoms, _extend, max_leaves=8)


def _statement(e1, e2, name):
    return st.sampled_from([
        f"let {name} be {e1}",
        f"set {name} to {e1}",
        f"print({e1})",
        f"when {e1}\n    print({e2})\notherwise\n    let {name} be {e2}",
        f"each item in [{e1}, {e2}]\n    print(item)",
        f"try\n    print({e1})\nrecover err\n    print(err)",
        f"set {name}[0] to {e1}",
        f"match {e1}\n    is [a, ...rest]\n        print(rest)\n    is {{k}}\n        print(k)\n    otherwise\n        print({e2})",
        f"task f(a, b = {e2})\n    give a + b\nprint(f({e1}))",
    ])


statements = st.tuples(exprs, exprs, st.sampled_from(NAMES)).flatmap(lambda t: _statement(*t))
programs = st.lists(statements, min_size=1, max_size=6).map(
    lambda body: "let x be 1\nlet y be [1, 2]\nlet z be {\"k\": \"v\"}\n" + "\n".join(body) + "\n")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs)
def test_random_programs_end_in_language_errors_only(source):
    output = io.StringIO()
    rt = Runtime(out=output.write, err=output.write)
    try:
        rt.run_main(source, "fuzz.syn")
    except SynError as error:
        assert error.message
        assert "Traceback" not in error.message
