"""`match` written into a generated body (runtime/codegen.py `Generator.s_Match`) decides, binds
and resets exactly as the closure compiler's `patterns.Dispatcher`: the same arm, the same
bindings, guards that say no leave nothing behind, no arm matching does nothing, an arm's names
are gone once it ends (a later run of the arm starts unbound), errors in a computed pattern or a
guard at the same span. Each program runs generated and on the closures, with and without
--labels (tests/test_codegen_differential.py's harness); the edge cases also assert the answer.
"""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from synsema.runtime.interp import Runtime
from tests.test_codegen_differential import assert_same

# A classifier task whose arms cover every shape written inline; run on values that reach each.
CLASSIFY = """task classify(v, limit)
    let seen be "?"
    match v
        is 0
            set seen to "zero"
        is "a"
            set seen to "text a"
        is true
            set seen to "true"
        is nothing
            set seen to "nothing"
        is []
            set seen to "empty"
        is [1, x] when x > limit
            set seen to `one then big {x}`
        is [1, x]
            set seen to `one then {x}`
        is [first, ...rest, last]
            set seen to `list {first} {rest} {last}`
        is {kind: "point", x: px, y}
            set seen to `point {px} {y}`
        is {kind}
            set seen to `kind {kind}`
        is limit + 100
            set seen to "computed"
        is _
            set seen to `other {v}`
    give seen
"""

PROGRAMS = {
    "every shape": CLASSIFY + (
        "each v in [0, 0.0, false, \"a\", true, 1, 1.0, nothing, [], [1, 9], [1, 2], [1, 2, 3], [\"z\"],\n"
        "           {kind: \"point\", x: 1, y: 2}, {kind: \"point\", x: 1}, {kind: 3}, {}, 105, 105.0, \"b\"]\n"
        "    print(classify(v, 5))\n"),
    "no arm matches, no otherwise": ("task f(v)\n    let r be \"none\"\n    match v\n        is 1\n"
                                     "            set r to \"one\"\n    give r\nprint(f(2), f(1))\n"
                                     "task g(v)\n    match v\n        is 1\n            give \"one\"\nprint(g(2), g(1))\n"),
    "the match is the body's value": ("task f(v)\n    match v\n        is [a, b]\n            a + b\n"
                                      "        is _\n            nothing\nprint(f([1, 2]), f(3))\n"
                                      "let h be (v) => v\nprint(h(1))\n"),
    "otherwise": ("task f(v)\n    match v\n        is 1\n            give \"one\"\n        otherwise\n"
                  "            let w be v * 2\n            give w\nprint(f(1), f(4))\n"),
    "a guard that says no resets the binders": (
        "task f(v)\n    match v\n        is [x, y] when x > y\n            give \"down\"\n        is [x]\n"
        "            give x\n        is _\n            give \"other\"\nprint(f([1, 2]), f([3, 1]), f([7]))\n"),
    "names of an arm are gone after it": (   # a `while` body is the task's own frame
        "task f(xs)\n    let out be []\n    let i be 0\n    while i < length(xs)\n        match xs[i]\n            is [k]\n"
        "                when k > 0\n                    let note be k\n                set out to append(out, note)\n"
        "        set i to i + 1\n    give out\nprint(f([[1], [2]]))\nprint(f([[1], [0]]))\n"),
    "an arm name shadows an outer one only inside": (
        "task f(v)\n    let x be \"outer\"\n    match v\n        is [x]\n            print(x)\n    give x\n"
        "print(f([\"inner\"]), f(3))\n"),
    "nested matches and loops": (
        "task run(code)\n    let stack be []\n    let i be 0\n    while i < length(code)\n        match code[i]\n"
        "            is [\"push\", v]\n                set stack to append(stack, v)\n            is [op] when op == \"add\" or op == \"mul\"\n"
        "                let b be stack[-1]\n                let a be stack[-2]\n                set stack to slice(stack, 0, -2)\n"
        "                match op\n                    is \"add\"\n                        set stack to append(stack, a + b)\n"
        "                    is \"mul\"\n                        set stack to append(stack, a * b)\n"
        "            is [\"stop\"]\n                stop\n            is [\"give\", v]\n                give [v, stack]\n"
        "        set i to i + 1\n    give stack\n"
        "print(run([[\"push\", 2], [\"push\", 3], [\"add\"], [\"push\", 4], [\"mul\"]]))\n"
        "print(run([[\"push\", 2], [\"stop\"], [\"push\", 3]]))\nprint(run([[\"push\", 1], [\"give\", 9]]))\n"),
    "an error in a guard": ("task f(v)\n    match v\n        is [x] when x + \"a\" > 1\n            give x\n"
                            "print(f(\"b\"))\nprint(f([1]))\n"),
    "an error in a computed pattern": ("task f(v, d)\n    match v\n        is 10 // d\n            give \"ten\"\n"
                                       "        is _\n            give \"other\"\nprint(f(5, 2), f(5, 1))\nprint(f(1, 0))\n"),
    "an error in an arm's body": ("task f(v)\n    match v\n        is [x]\n            give x[5]\nprint(f([[1]]))\n"),
    "an unbound name read in an arm": ("task f(v, flag)\n    match v\n        is [x]\n            when flag\n"
                                       "                let y be x\n            give y\nprint(f([1], true))\nprint(f([2], false))\n"),
    "an enum pattern stays on the dispatcher": (
        "enum Shape\n    circle(r)\n    square(s)\ntask area(sh)\n    match sh\n        is Shape.circle(r)\n"
        "            give 3 * r * r\n        is Shape.square(s)\n            give s * s\nprint(area(Shape.circle(2)), area(Shape.square(3)))\n"),
    "an arm making a lambda stays on the dispatcher": (
        "task f(v)\n    match v\n        is [x]\n            let g be () => x\n            give g()\n        is _\n"
        "            give 0\nprint(f([4]), f(1))\n"),
    "a top-level match": "let v be [1, 2]\nmatch v\n    is [a, b]\n        print(a + b)\nprint(\"done\")\n",
    "match in a lambda": "let f be (v) => apply(v, (x) => x)\ntask g(v)\n    match v\n        is [a, ...r]\n            give r\nprint(apply([[1, 2, 3], [4]], g))\n",
    "a rebound slice is called, not cut in place": (
        "task pop(n)\n    let s be [n, 2, 3]\n    set s to slice(s, 0, -1)\n    give s\nprint(pop(1))\n"
        "let slice be (xs, a, b) => [\"mine\", a, b]\nprint(pop(1))\n"),
    "a recursive match": ("task total(t)\n    match t\n        is [l, r]\n            give total(l) + total(r)\n"
                          "        is {leaf: n}\n            give n\nprint(total([[{leaf: 1}, {leaf: 2}], {leaf: 3}]))\n"),
    "stack cut in place when unshared, copied when shared": (
        "task f(xs)\n    let s be xs\n    set s to slice(s, 0, -1)\n    let t be [1, 2, 3]\n    set t to slice(t, 1)\n"
        "    let u be [1, 2, 3]\n    let keep be u\n    set u to slice(u, 1, 2)\n    give [xs, s, t, u, keep]\n"
        "print(f([1, 2, 3]))\n"
        "task g(n)\n    let s be n\n    set s to slice(s, 0, 1)\n    give s\nprint(g(\"abc\"))\nprint(g(5))\n"),
    "a jump on the first item": (
        "task f(v)\n    match v\n        is [\"push\", x]\n            give `push {x}`\n"
        "        is [op] when op == \"add\" or op == \"mul\"\n            give `op {op}`\n"
        "        is [\"push\", x, y]\n            give `push2 {x} {y}`\n"
        "        is [first, second] when first == \"pop\"\n            give `open pop {second}`\n"
        "        is [\"pop\", n]\n            give `pop {n}`\n        is [\"pop\"]\n            give \"pop\"\n"
        "        is [\"add\"]\n            give \"never\"\n        is [\"cmd\", ...rest]\n            give `cmd {rest}`\n"
        "        is [\"lit\", 0]\n            give \"lit zero\"\n        is [\"lit\", n]\n            give `lit {n}`\n"
        "        is _\n            give `other {v}`\n"
        "each v in [[\"push\", 1], [\"push\", 1, 2], [\"push\"], [\"add\"], [\"mul\"], [\"sub\"], [\"pop\", 3], [\"pop\"],\n"
        "           [\"cmd\"], [\"cmd\", 1, 2], [\"lit\", 0], [\"lit\", 0.0], [\"lit\", false], [\"lit\", 5], [], \"push\",\n"
        "           nothing, [1, 2], [[1], 2], [{}, 1], [nothing], [\"PUSH\", 1], [1], {a: 1}, [\"pop\", 1, 2], [true, 1]]\n"
        "    print(f(v))\n"),
    "loop control and give in jumped arms": (
        "task run(code)\n    let out be []\n    each ins in code\n        match ins\n"
        "            is [\"emit\", x]\n                set out to append(out, x)\n            is [\"stop\"]\n                stop\n"
        "            is [\"give\", x]\n                give [x, out]\n            is [other]\n"
        "                set out to append(out, `? {other}`)\n    give out\n"
        "print(run([[\"emit\", 1], [\"noop\"], [\"emit\", 2], [\"stop\"], [\"emit\", 3]]))\n"
        "print(run([[\"emit\", 1], [\"give\", 9], [\"emit\", 3]]))\n"
        "task tail(v)\n    match v\n        is [\"a\", x]\n            x + 1\n        is [\"b\", x]\n            x * 2\n"
        "        otherwise\n            0\nprint(tail([\"a\", 1]), tail([\"b\", 5]), tail([\"c\", 1]), tail(7))\n"
        "task tail2(v)\n    match v\n        is [\"a\", x]\n            x + 1\n        is [\"b\", x]\n            x * 2\n"
        "print(tail2([\"a\", 1]), tail2([\"c\", 1]))\n"),
    "guards of a jump's arms run in source order": (
        "task noisy(tag, v)\n    print(`{tag} {v}`)\n    give false\n"
        "task f(v)\n    match v\n        is [\"x\", a] when noisy(\"x-guard\", a)\n            give \"x\"\n"
        "        is [a, b] when noisy(\"open-guard\", a)\n            give \"open\"\n        is [\"x\", a]\n            give \"x2\"\n"
        "        is [\"y\", a] when noisy(\"y-guard\", a)\n            give \"y\"\n"
        "print(f([\"x\", 1]), f([\"y\", 2]), f([\"z\", 3]))\n"),
    "a chain of arms after guards that say no": (
        "task said(tag, answer)\n    print(tag)\n    give answer\n"
        "task f(v)\n    match v\n        is [x] when said(`one {x}`, false)\n            give \"one\"\n"
        "        is [x, y] when said(`two {x}`, x == 1)\n            give \"two\"\n"
        "        is [x]\n            give `one again {x}`\n        is \"a\" when said(\"a?\", false)\n            give \"a\"\n"
        "        is {k: x} when said(`map {x}`, false)\n            give \"map\"\n        is \"a\"\n            give \"a again\"\n"
        "        is nothing\n            give \"nothing\"\n        is _ when said(\"any\", false)\n            give \"any\"\n"
        "        is [x, ...rest] when said(`rest {x}`, true)\n            give `rest {rest}`\n"
        "        is {k}\n            give `key {k}`\n        otherwise\n            give \"otherwise\"\n"
        "each v in [[1], [1, 2], [2, 3], \"a\", {k: 1}, nothing, [1, 2, 3], 5, [], {j: 1}]\n    print(f(v))\n"),
}

EXPECTED = {
    # 0 == 0.0 == false and 1 == 1.0 == true (equal's rule); [first, ...rest, last] needs two items
    "every shape": ("zero\nzero\nzero\ntext a\ntrue\ntrue\ntrue\nnothing\nempty\none then big 9\none then 2\n"
                    "list 1 [2] 3\nother [\"z\"]\npoint 1 2\nkind point\nkind 3\nother {}\ncomputed\ncomputed\nother b\n"),
    "no arm matches, no otherwise": "none one\nnothing one\n",
    "the match is the body's value": "3 nothing\n1\n",
    "otherwise": "one 8\n",
    "a guard that says no resets the binders": "other down 7\n",
    "an arm name shadows an outer one only inside": "inner\nouter outer\n",
    "nested matches and loops": "[20]\n[2]\n[9, [1]]\n",
    "an enum pattern stays on the dispatcher": "12 9\n",
    "an arm making a lambda stays on the dispatcher": "4 0\n",
    "a top-level match": "3\ndone\n",
    "match in a lambda": "[[2, 3], []]\n",
    "a recursive match": "6\n",
    "a rebound slice is called, not cut in place": "[1, 2]\n[\"mine\", 0, -1]\n",
    "a jump on the first item": (
        "push 1\npush2 1 2\nother [\"push\"]\nop add\nop mul\nother [\"sub\"]\nopen pop 3\npop\ncmd []\ncmd [1, 2]\n"
        "lit zero\nlit zero\nlit zero\nlit 5\nother []\nother push\nother nothing\nother [1, 2]\n"
        "other [[1], 2]\nother [{}, 1]\nother [nothing]\nother [\"PUSH\", 1]\nother [1]\nother {a: 1}\n"
        "other [\"pop\", 1, 2]\nother [true, 1]\n"),
    "loop control and give in jumped arms": "[1, \"? noop\", 2]\n[9, [1]]\n2 10 0 0\n2 nothing\n",
    "guards of a jump's arms run in source order": (
        "x-guard 1\nopen-guard x\nopen-guard y\ny-guard 2\nopen-guard z\nx2 nothing nothing\n"),
    "a chain of arms after guards that say no": (
        "one 1\none again 1\ntwo 1\ntwo\ntwo 2\nany\nrest 2\nrest [3]\na?\na again\nmap 1\nany\nkey 1\nnothing\n"
        "any\nrest 1\nrest [2, 3]\nany\notherwise\nany\notherwise\nany\notherwise\n"),
}


@pytest.mark.parametrize("labels", [False, True])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_match_matches_the_closures(tmp_path, name, labels):
    code, out, err, _ = assert_same(tmp_path, PROGRAMS[name], labels)
    if name in EXPECTED:
        assert (code, out) == (0, EXPECTED[name]), err
    if name == "names of an arm are gone after it":   # the second run of the arm has no `note`
        assert out == "[1, 2]\n" and code == 1 and "note" in err and "prog.syn:9:" in err
    if name == "an error in a guard":
        assert out == "nothing\n" and code == 1 and "prog.syn:3:21" in err
    if name == "an error in a computed pattern":
        assert out == "ten other\n" and code == 1 and "Division by zero" in err and "prog.syn:3:" in err
    if name == "an unbound name read in an arm":
        assert out == "1\n" and code == 1 and "y" in err and "prog.syn:6:18" in err
    if name == "stack cut in place when unshared, copied when shared":
        assert out.startswith("[[1, 2, 3], [1, 2], [2, 3], [2], [1, 2, 3]]\n") and code == 1


def test_match_bodies_are_direct():
    """The benchmark's match loop and a task with a `match` are direct bodies (a silent fall
    back to the Dispatcher would pass every differential test)."""
    rt = Runtime(out=io.StringIO().write, err=io.StringIO().write)
    rt.run_main(CLASSIFY + "task pop(xs)\n    let s be xs\n    set s to slice(s, 0, -1)\n    give s\n", "m.syn")
    for name in ("classify", "pop"):
        assert rt.globals[name].code.direct is not None, name


# Arms for generated `match` statements: list patterns starting with a text (what a jump on the
# first item groups), patterns that fit any first item, guards, rests, scalars; and subjects
# that reach each (a first item of every kind, lists of every length, non-lists).
ARMS = ['["a", x]', '["a"]', '["b", _, y]', '[x]', '[x, ...r]', '"a"', '_', '["a", 1]', '[1, x]',
        '["b", x] when x == 2', '[x, y] when x == "b"', '["a", ...r]', '{k: x}', 'nothing', '[]',
        '["c", ["a", x]]', '[x, "a"]', '["b", x]',
        # guards that print, saying no or yes: which run, and in what order, is part of the answer
        '[x] when said(x, false)', '["a", x] when said(x, x == 1)', '[x, y] when said(y, true)',
        '"a" when said("a", false)', '_ when said("any", false)', '{k: x} when said(x, false)',
        '[x, ...r] when said(r, false)', '["b", ...r] when said(r, true)']
SUBJECTS = ('[["a", 1], ["a"], ["b", 1, 2], ["b", 2], ["b", 5], [1, 2], ["c"], "a", [], nothing, [["a"], 1],\n'
            '           ["a", 1, 2], {k: 3}, 1, ["c", ["a", 4]], ["a", "a"], [true], [1.0, 2], ["b"]]')


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(arms=st.lists(st.sampled_from(ARMS), min_size=1, max_size=8), otherwise=st.booleans(), labels=st.booleans())
def test_generated_matches_decide_as_the_closures(tmp_path, arms, otherwise, labels):
    lines = ["task said(tag, answer)", "    print(tag)", "    give answer", "task f(v)", "    match v"]
    for i, arm in enumerate(arms):
        lines += [f"        is {arm}", f"            give {i}"]
    if otherwise:
        lines += ["        otherwise", "            give \"none\""]
    source = "\n".join(lines) + f"\neach v in {SUBJECTS}\n    print(`= {{f(v)}}`)\n"
    code, out, err, _ = assert_same(tmp_path, source, labels)
    assert code == 0 and sum(line.startswith("= ") for line in out.splitlines()) == 19, err


def test_equality_with_a_literal_keeps_the_labels(tmp_path):
    """`x == "a"` and `1 == x` (a guard's usual test) compare in Python only when the other side
    is a text / an int; a labelled value goes to the labelled operator, so its answer is private."""
    source = ("task same(x)\n    give x == \"a\"\ntask num(x)\n    give 1 == x\n"
              "print(label_of(same(private(\"a\", \"app\"))), label_of(same(\"a\")), label_of(num(private(1, \"bank\"))))\n"
              "print(same(\"b\"), num(1), num(1.0), num(true), same(private(\"a\", \"app\")) == true)\n")
    code, out, err, _ = assert_same(tmp_path, source, True)
    first, second = out.splitlines()
    assert code == 0 and first.startswith("private(app") and first.endswith("bank)") and " [] " in first, err
    assert second.startswith("false true true true private("), err
