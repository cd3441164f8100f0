"""A lambda handed to a builtin that calls it once per item (`where`, `apply`, `sort_by`,
`reduce`) runs as one generated Python function (runtime/codegen.py `Generator.callback_source`,
reached through calls.callback) doing what calls.callback's wrapper around the body did: the
depth limit, a step of `steps()`, one level of the call depth, REG.depth put back however the
call ends. Each program runs generated and on the closures, with and without --labels
(tests/test_codegen_differential.py's harness), and the answers are asserted too."""

from __future__ import annotations

import pytest

from synsema.runtime.calls import RECURSION_LIMIT
from tests.test_codegen_differential import assert_same

PROGRAMS = {
    "results, environments, two arguments": (
        "task scale(k)\n    give apply([1, 2, 3], (x) => x * k)\n"
        "task pick(xs, least)\n    give where(xs, (w) => length(w) >= least)\n"
        "print(scale(10), pick([\"a\", \"bb\", \"ccc\"], 2), reduce([1, 2, 3, 4], (a, b) => a * 10 + b, 0))\n"
        "let m be {\"b\": 2, \"a\": 2, \"c\": 5}\nprint(sort_by(keys(m), (k) => [0 - m[k], k]))\n",
        "[10, 20, 30] [\"bb\", \"ccc\"] 1234\n[\"c\", \"a\", \"b\"]\n"),
    "a step per call": (
        "let before be steps()\nlet kept be where(range(50), (x) => x % 3 == 0)\nlet after be steps()\n"
        "print(length(kept), after - before)\n",
        None),
    "an error in a callback leaves the depth as it was": (
        "task down(n)\n    when n == 0\n        give length(\"abc\")\n    give down(n - 1)\n"
        "let i be 0\nwhile i < 40\n    try\n        print(where([1, 2], (x) => length(x)))\n    recover e\n"
        "        set i to i + 1\n"
        f"print(i, down({RECURSION_LIMIT - 2}))\n",
        "40 3\n"),
}


@pytest.mark.parametrize("labels", [False, True])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_callbacks_match_the_closures(tmp_path, name, labels):
    source, expected = PROGRAMS[name]
    code, out, err, _ = assert_same(tmp_path, source, labels)
    assert code == 0, err
    if expected is not None:
        assert out == expected
    if name == "a step per call":
        kept, counted = map(int, out.split())
        assert kept == 17 and counted >= 50, out   # one step per callback at least
