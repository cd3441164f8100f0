"""synsema.lang.ast's walkers read only the fields that can hold nodes (`_PLAIN_FIELDS` names the
others). On every program in the repository and the parse benchmark's input: no plain field
holds a node, and `walk`, `children` and `walk_in_tasks` give exactly what the generic reading
of every field (`_fields`, looking through lists and tuples) gives, in the same order."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from synsema.lang import ast
from synsema.lang.errors import SynError
from synsema.lang.parser import parse

ROOT = Path(__file__).resolve().parent.parent


def generic_children(node):
    found = []
    for name in node._fields:
        _collect(getattr(node, name), found)
    return found


def _collect(value, found):
    if isinstance(value, ast.Node):
        found.append(value)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _collect(item, found)


def generic_walk(node, task=None, out=None):
    """(node, innermost task) in pre-order, children in field order."""
    out = [] if out is None else out
    out.append((node, task))
    inner = node if type(node) is ast.TaskDef else task
    for child in generic_children(node):
        generic_walk(child, inner, out)
    return out


def _modules():
    paths = sorted(p for folder in ("examples", "bench/programs", "tests")
                   for p in (ROOT / folder).rglob("*.syn"))
    for path in paths:
        try:
            yield str(path.relative_to(ROOT)), parse(path.read_text(encoding="utf-8"), str(path))
        except (SynError, UnicodeDecodeError):
            continue
    sys.path.insert(0, str(ROOT / "bench"))
    from gen_parse import generate
    yield "gen_parse", parse(generate(345)[0], "gen_parse.syn")


MODULES = list(_modules())


def test_every_node_class_has_a_reader_and_plain_fields_are_real_fields():
    assert set(ast._BELOW) == set(ast._CLASSES)
    for cls, fields in ast._PLAIN_FIELDS.items():
        assert set(fields.split()) <= set(cls._fields), cls


@pytest.mark.parametrize("name, module", MODULES[::7] + MODULES[-1:], ids=lambda v: v if type(v) is str else "")
def test_the_walkers_agree_with_the_generic_reading(name, module):
    expected = generic_walk(module)
    assert [(id(n), id(t)) for n, t in ast.walk_in_tasks(module)] == [(id(n), id(t)) for n, t in expected]
    assert [id(n) for n in ast.walk(module)] == [id(n) for n, _ in expected]
    for node, _ in expected:
        assert [id(c) for c in ast.children(node)] == [id(c) for c in generic_children(node)]
        for field in ast._PLAIN_FIELDS.get(type(node), "").split():
            assert generic_children_of(getattr(node, field)) == [], (type(node).__name__, field)


def test_all_programs_keep_plain_fields_plain():
    for name, module in MODULES:
        for node in ast.walk(module):
            for field in ast._PLAIN_FIELDS.get(type(node), "").split():
                assert generic_children_of(getattr(node, field)) == [], (name, type(node).__name__, field)


def generic_children_of(value):
    found = []
    _collect(value, found)
    return found
