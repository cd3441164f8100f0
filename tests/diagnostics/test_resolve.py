"""The one resolver (lang/resolve.py): what each name in a program refers to."""

from __future__ import annotations

from synsema.lang import ast
from synsema.lang.parser import parse
from synsema.lang.resolution import resolve_module

SOURCE = """\
let total be 0
task add(a, b = 1)
    let c be a + b
    give c + total
each x in [1, 2]
    set total to add(x)
match [1, 2, 3]
    is [first, ...rest]
        print(first, rest)
try
    raise "no"
recover problem
    print(problem, missing)
let f be (y) => y + outer_later
let outer_later be 2
"""


def _refs(resolution):
    return [(r.name, r.where, r.binding.kind if r.binding else None) for r in resolution.references]


def test_every_name_is_resolved_to_its_binding():
    resolution = resolve_module(parse(SOURCE, "prog.syn"), predeclared={"print"})
    refs = _refs(resolution)
    assert ("a", "local", "parameter") in refs
    assert ("c", "local", "let") in refs
    assert ("total", "global", "let") in refs
    assert ("x", "local", "each") in refs
    assert ("first", "local", "pattern") in refs and ("rest", "local", "pattern") in refs
    assert ("problem", "local", "error") in refs
    assert ("add", "global", "task") in refs
    assert ("print", "predeclared", None) in refs
    assert ("outer_later", "global", "let") in refs  # a later top-level let is a global
    assert [r.name for r in resolution.undefined()] == ["missing"]


def test_slots_match_the_frames_the_compiler_opens():
    resolution = resolve_module(parse(SOURCE, "prog.syn"))
    by_name = {r.name: r for r in resolution.references}
    assert by_name["a"].slots == [(0, 1)] and by_name["c"].slots == [(0, 3)]
    assert by_name["x"].slots == [(0, 1)]
    assert by_name["problem"].slots == [(0, 1)]


def test_set_marks_its_binding_assigned_and_an_unbound_set_is_undefined():
    module = parse("task f()\n    give 1\nset f to 2\nset ghost to 3\n", "p.syn")
    resolution = resolve_module(module)
    f_binding = next(b for b in resolution.bindings if b.name == "f")
    assert f_binding.assigned
    ghost = resolution.undefined()
    assert [(r.name, r.is_set, type(r.node) is ast.Set) for r in ghost] == [("ghost", True, True)]


def test_names_in_inner_frames_do_not_leak_out():
    module = parse("each i in [1]\n    let inside be i\nprint(inside)\n", "p.syn")
    resolution = resolve_module(module, predeclared={"print"})
    assert [r.name for r in resolution.undefined()] == ["inside"]


def test_candidates_for_did_you_mean_start_with_the_innermost_names():
    module = parse("let total be 1\ntask f(count)\n    give cont\n", "p.syn")
    resolution = resolve_module(module, predeclared={"length"})
    miss = resolution.undefined()[0]
    assert resolution.candidates(miss.scope)[:2] == ["count", "total"]
