"""A lambda handed to a builtin under --labels runs as one generated function (its `entry`,
runtime/codegen_labels.callback_entry, which label_compiler.labelled_callback returns) and
computes exactly what Runtime.call computes for it.

Each program runs under `--labels` twice through the command line's own entry (generated, then
`SYNSEMA_CLOSURES`' reference: every body on the closures, every callback through Runtime.call),
comparing exit code, stdout, stderr and written files, and its stdout is the one the rule
requires, written out here: each rule fails if the check of the entry that keeps it is dropped
(the step counted, the depth limit and the depth put back, a call that starts once something is
private handed to the full steps, the answer of a body that made the first private value stripped
and labelled, the body without labels giving way to the labelled one at a callee rebound since).
"""

from __future__ import annotations

import io

import pytest

from test_codegen_labels import assert_rule

# name -> (program, required stdout, text required in stderr or None for a clean exit)
ENTRY_RULES = {
    "each call of a callback is one step": (
        'let xs be apply([1, 2, 3], (x) => x + 1)\nlet ys be reduce([1, 2], (a, b) => a + b, 0)\n'
        'print(xs, ys, steps())\n', "[2, 3, 4] 3 5\n", None),
    "a callback is one level of the call depth": (
        'task f(n)\n    when n == 0\n        give apply([1], (x) => x + 1)\n    give f(n - 1)\n'
        'each n in [2997, 2998]\n    try\n        print(n, f(n))\n    recover e\n        print(n, "caught", e)\n',
        "2997 [2]\n2998 caught maximum recursion depth exceeded\n", None),
    "a callback's body runs one level deeper": (
        'task f(n)\n    when n == 0\n        give apply([1], (x) => length([x]))\n    give f(n - 1)\n'
        'each n in [2996, 2997]\n    try\n        print(n, f(n))\n    recover e\n        print(n, "caught", e)\n',
        "2996 [1]\n2997 caught maximum recursion depth exceeded\n", None),
    "the depth is put back after every call": (
        'print(length(where(range(0, 5000), (x) => x > 2)), reduce(range(0, 4000), (a, b) => a + 1, 0))\n',
        "4997 4000\n", None),
    "the depth is put back after a failing call": (
        'let n be 0\neach i in range(0, 3500)\n    try\n        apply([0], (x) => 1 // x)\n    recover e\n'
        '        set n to n + 1\nprint(n, apply([1], (x) => x))\n', "3500 [1]\n", None),
    "a call once something is private runs under the builtin's argument labels": (
        'print(apply(private([1], "app"), (x) => print(x)))\n', "", "label_violation"),
    "a call once something is private is labelled by them": (
        'let xs be apply(private([1, 2], "app"), (x) => x + 1)\nprint(xs, declassify(xs, "t"))\n',
        "private(app) [2, 3]\n", None),
    "a callback that makes the first private value labels the builtin's result": (
        'let big be where([1, 2, 3], (x) => private(x > 1, "app"))\nprint(big, declassify(big, "t"))\n',
        "private(app) [2, 3]\n", None),
    "a two-argument callback that makes the first private value labels the result": (
        'let s be reduce([1, 2, 3], (a, b) => a + private(b, "app"), 0)\nprint(s, declassify(s, "t"))\n',
        "private(app) 6\n", None),
    "the answer of a callback that made the first private value is stripped": (
        'let xs be sort_by([3, 1, 2], (x) => [private(x, "app")])\nprint(xs, declassify(xs, "t"))\n',
        "private(app) [1, 2, 3]\n", None),
    # the body without labels (PlainCallback) for a call that starts while nothing is private
    "a callee rebound after the body was written runs the labelled body, one step per call": (
        'let check be (w) => length(w) > 2\nprint(where(["a", "abc"], check), steps())\n'
        'set length to (w) => 3\nprint(where(["a", "abc"], check), steps())\n'
        'set length to (w) => private(5, "app")\nlet r be where(["a", "abc"], check)\nprint(r, declassify(r, "t"))\n',
        '["abc"] 2\n["a", "abc"] 6\nprivate(app) ["a", "abc"]\n', None),
    "a callback's body without labels fails and answers as the labelled one": (
        'try\n    print(apply(["ab", 5], (x) => length(x) + 1))\nrecover e\n    print("caught", e, steps())\n'
        'print(apply(["ab", "abc"], (x) => [length(x) * 2, lower(x)]), steps())\n',
        'caught length expects text, a list or a map, got number 2\n[[4, "ab"], [6, "abc"]] 4\n', None),
    # frame-mode labelled code: get/length as their Python expressions while nothing is private
    "get and length written inline in a labelled loop, before and after the first private value": (
        'let counts be {}\neach w in ["a", "b", "a"]\n    set counts[w] to get(counts, w, 0) + length(w)\n'
        'print(counts, get(counts, "z"), get(counts, 1, 5))\nlet p be private("a", "app")\n'
        'each w in [p, "c"]\n    set counts[w] to get(counts, w, 0) + length(w)\nprint(counts, declassify(counts, "t"))\n',
        '{a: 2, b: 1} nothing 5\nprivate(app) {a: 3, b: 1, c: 1}\n', None),
    "a labelled call once something is private is never the inline one": (
        'let counts be {"a": 2}\nlet p be private("a", "app")\neach w in [p, "c"]\n'
        '    let n be get(counts, w, 0) + length(w)\n    print(declassify(n, "t"), n)\n',
        '3 private(app)\n1 1\n', None),
    "an error of a callback while nothing is private is catchable": (
        'try\n    print(apply([1, 0], (x) => 1 // x))\nrecover e\n    print("caught", e)\n',
        "caught Division by zero\n", None),
}


@pytest.mark.parametrize("name", sorted(ENTRY_RULES))
def test_generated_callbacks_keep_runtime_calls_rules(tmp_path, name):
    assert_rule(tmp_path, *ENTRY_RULES[name])


def test_labelled_lambdas_handed_to_builtins_are_one_generated_function():
    """The callback labelled_callback gives for a lambda written with its labels in locals is the
    generated entry itself (a silent fall back to the wrapper would pass every test above)."""
    from synsema.runtime.interp import Runtime
    output = io.StringIO()
    rt = Runtime(out=output.write, err=output.write, labels=True)
    rt.run_main("let one be (w) => length(w) > 2\nlet two be (a, b) => a + b\n", "lambdas.syn")
    for name, arity in (("one", 1), ("two", 2)):
        call = rt.callback(rt.globals[name], arity)
        assert call.__code__.co_filename == "<synsema generated>", name
        assert call.__name__ == "callback", name
        assert "LabelledCall" in call.__code__.co_names, name   # with its body without labels first


def test_the_builtins_a_plain_callback_body_calls_are_pure():
    """codegen_labels._PURE_BUILTINS: each builtin there passes labels on as any computation does,
    behind no capability, with no effect the labels track, and takes no function to call (a
    callback could make the run's first private value while the body runs without labels)."""
    import inspect
    from synsema.runtime.codegen_labels import _PURE_BUILTINS
    from synsema.stdlib.registry import load_all
    specs = load_all()
    for name in sorted(_PURE_BUILTINS):
        spec = specs[name]
        assert (spec.flow, spec.cap, spec.changes, spec.reads) == ("propagate", None, (), ()), name
        source = inspect.getsource(spec.implementation())
        assert "rt.call" not in source and "rt.run_task" not in source, name
