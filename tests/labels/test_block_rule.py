"""The label compiler's one rule: whatever leaves a block carries the pc the block had when it
left (README "Information-flow labels"), and `recover` never runs below the pc the error had.

Each program reads its secret from `args()` and runs twice, with 42 and with 17; what a run shows
(exit code, stdout, stderr) must be the same for both, and neither secret may appear. Where the
error comes after a private branch, neither secret takes the branch, so both runs reach the error:
catching it would print the same for both here, but is exactly what tells the branch apart. The secure
programs next to them show that the rule refuses nothing the branch did not decide.
"""

from __future__ import annotations

import re

import pytest

from conftest import run_synsema

HEAD = 'let s be private(int(args()[0]), "bank")\n'

# Issue 24's items 1 and 2, and the routes the rule covers beyond them.
LEAKY = {
    "implicit result of a final when": """
task bit(x, k)
    when (x // (2 ** k)) % 2 == 1
        1
    otherwise
        0
let v be 0
each k in range(8)
    set v to v + bit(s, k) * 2 ** k
print("secret is", v)
""",
    "implicit result of a final match": """
task big(x)
    match x > 20
        is true
            1
        otherwise
            0
print(declassify(0, "zero") + big(s))
""",
    "through call() and a callback": """
task big(x)
    when x > 20
        "yes"
    otherwise
        "no"
print(call(big, {"x": s}))
print(apply([1, 2], (k) => big(s)))
print(reduce([1], (acc, k) => big(s), ""))
""",
    "last statement after a private give": """
task f(x)
    when x > 20
        give 1
    let y be 2
print(f(s))
""",
    "recover after a private stop": """
print("start")
each i in range(6)
    try
        when s < i * 8
            stop
        let z be 1 / 0
    recover e
        print("caught", i)
""",
    "recover after a private give in the try": """
task f(x)
    try
        when x > 100
            give 1
        let z be 1 / 0
    recover e
        print("caught")
    give 0
print("start")
f(s)
print("end")
""",
    "give from an each over a list the secret filtered": """
task first(xs)
    try
        each x in where(xs, (y) => y > s + 100)
            give x
        let z be [][1]
    recover e
        print("none above")
    give 0
print("start")
first([10, 20, 30])
print("end")
""",
    "recover in the caller after the callee's private give": """
task f(x)
    when x > 100
        give 1
    let z be 1 / 0
print("start")
try
    f(s)
recover e
    print("caught")
print("end")
""",
}


# Where a secret error must end the run: recovering would reveal the branch for other secrets.
ENDS_SECRET = {"recover after a private stop", "recover after a private give in the try",
               "give from an each over a list the secret filtered",
               "recover in the caller after the callee's private give"}


def _runs(tmp_path, source: str):
    (tmp_path / "p.syn").write_text(HEAD + source, encoding="utf-8")
    return [run_synsema("run", "--labels", "p.syn", "--", secret, cwd=tmp_path)
            for secret in ("42", "17")]


@pytest.mark.parametrize("name", sorted(LEAKY))
def test_both_secrets_look_the_same(tmp_path, name):
    first, second = _runs(tmp_path, LEAKY[name])
    assert (first.returncode, first.stdout, first.stderr) == \
        (second.returncode, second.stdout, second.stderr), name
    for proc in (first, second):
        assert "42" not in proc.stdout + proc.stderr and "17" not in proc.stdout + proc.stderr
    if name in ENDS_SECRET:   # a secret error: the line public control flow last reached, nothing else
        assert (first.returncode, first.stdout) == (1, "start\n"), name
        assert re.fullmatch(r"Runtime error: p\.syn:\d+: private\(bank\): a runtime error whose message "
                            r"depends on private data\n", first.stderr), name


SECURE = {
    # Item 7: a stop that can only leave a loop inside the private branch does not keep the pc up.
    "stop of a loop nested in a private branch": ("""
when s > 20
    let n be 0
    each i in range(5)
        when i == 2
            stop
        set n to n + 1
print("after")
""", "after\n"),
    # A public branch's implicit result stays public; a call made from public control flow that
    # branched on nothing private gives a public value.
    "public branch, public result": ("""
task sign(x)
    when x < 0
        "negative"
    otherwise
        "not negative"
print(sign(-3), sign(5))
each k in range(2)
    try
        let z be 1 / 0
    recover e
        print("caught", k)
""", "negative not negative\ncaught 0\ncaught 1\n"),
    # A private branch inside a task that does not exit early: what follows it is public.
    "public value after a private branch that closed": ("""
task f(x)
    when x > 20
        let note be "big"
    give 7
print(f(s))
""", "7\n"),
}


@pytest.mark.parametrize("name", sorted(SECURE))
def test_secure_twins_are_accepted(tmp_path, name):
    source, expected = SECURE[name]
    for proc in _runs(tmp_path, source):
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, expected, ""), name
