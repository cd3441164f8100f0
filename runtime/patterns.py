"""`match` patterns compiled to matcher functions `matcher(value, frame) -> bool`.

A matcher binds its names into the arm's own frame as it goes; a failed match may leave some
bound, which is harmless because the arm's frame is discarded. At the top of an arm a bare
name compares with its value; inside list, map and enum patterns a bare name binds.
"""

from __future__ import annotations

from lang import ast
from lang.errors import SynError
from runtime.values import Constructor, EnumValue, equal


def compile_pattern(pattern, scope, compiler):
    t = type(pattern)
    if t is ast.PWildcard:
        return lambda v, f: True
    if t is ast.PBind:
        slot = scope.declare(pattern.name)

        def bind(v, f):
            f[slot] = v
            return True
        return bind
    if t is ast.PValue and type(pattern.expr) in (ast.Str, ast.Num):
        constant = pattern.expr.value
        kind = type(constant)
        if kind is str or kind is int:  # a literal: compared without evaluating anything
            return lambda v, f: (v == constant) if v.__class__ is kind else equal(v, constant)
    if t is ast.PValue:
        expected = compiler.decider(pattern.expr, scope)
        span = pattern.span

        def same(v, f):
            try:
                return equal(v, expected(f))
            except SynError as e:
                raise e.at(span)
        return same
    if t is ast.PList:
        return _list(pattern, scope, compiler)
    if t is ast.PMap:
        return _map(pattern, scope, compiler)
    if t is ast.PEnum:
        return _enum(pattern, scope, compiler)
    raise SynError(f"unknown pattern {t.__name__}", pattern.span)


def quick_check(pattern):
    """A cheap test a value must pass for `pattern` to match, run before the arm's frame is
    built: the type and length of a list pattern and its literal elements. None when there is
    nothing cheap to test."""
    if type(pattern) is ast.PValue and type(pattern.expr) in (ast.Str, ast.Num):
        constant = pattern.expr.value
        kind = type(constant)
        if kind is str or kind is int:
            return lambda v: v == constant if v.__class__ is kind else equal(v, constant)
        return None
    if type(pattern) is not ast.PList:
        return None
    fixed = len(pattern.before) + len(pattern.after)
    exact = pattern.rest is None
    literals = [(i, p.expr.value) for i, p in enumerate(pattern.before)
                if type(p) is ast.PValue and type(p.expr) is ast.Str]

    def check(v):
        if v.__class__ is not list:
            return False
        if (len(v) != fixed) if exact else (len(v) < fixed):
            return False
        for i, text in literals:
            item = v[i]
            if item.__class__ is not str or item != text:
                return False
        return True
    return check


def _list(pattern, scope, compiler):
    before = [compile_pattern(p, scope, compiler) for p in pattern.before]
    rest = pattern.rest
    rest_slot = scope.declare(rest) if rest else None
    after = [compile_pattern(p, scope, compiler) for p in pattern.after]
    fixed = len(before) + len(after)
    n_before = len(before)

    def match(v, f):
        if type(v) is not list:
            return False
        if rest is None:
            if len(v) != fixed:
                return False
        elif len(v) < fixed:
            return False
        for i, m in enumerate(before):
            if not m(v[i], f):
                return False
        tail_start = len(v) - len(after)
        for i, m in enumerate(after):
            if not m(v[tail_start + i], f):
                return False
        if rest_slot is not None:
            f[rest_slot] = v[n_before:tail_start]
        return True
    return match


def _map(pattern, scope, compiler):
    entries = []
    for key, sub in pattern.entries:
        if sub is None:
            entries.append((key, compile_pattern(ast.PBind(key, span=pattern.span), scope, compiler)))
        else:
            entries.append((key, compile_pattern(sub, scope, compiler)))

    def match(v, f):
        if type(v) is not dict:
            return False
        for key, m in entries:
            if key not in v or not m(v[key], f):
                return False
        return True
    return match


def _enum(pattern, scope, compiler):
    variant = compiler.expr(pattern.variant, scope)
    subs = [compile_pattern(p, scope, compiler) for p in pattern.args]
    span = pattern.span

    def match(v, f):
        target = variant(f)
        if type(target) is Constructor:
            name = target.name
            if len(subs) != len(target.fields):
                raise SynError(f"pattern {name}(…) gives {len(subs)} binder(s) but the variant has "
                               f"{len(target.fields)} field(s): {', '.join(target.fields)}", span)
        elif type(target) is EnumValue:
            name = f"{target.enum}.{target.variant}"
            if subs:
                raise SynError(f"{name} has no fields to bind", span)
        else:
            raise SynError("a pattern with binders must name an enum variant, like Shape.circle(r)", span)
        if type(v) is not EnumValue or f"{v.enum}.{v.variant}" != name:
            return False
        for m, field in zip(subs, v.fields):
            if not m(field, f):
                return False
        return True
    return match
