"""The closure compiler's statements and expressions that a short program seldom uses.

`Compiler._method` looks a node's `s_…`/`e_…` up on the compiler's class first and then here:
each function below is written as a method of runtime.compiler.Compiler (its `self`), and a
subclass that defines the method (runtime.label_compiler) replaces it as it would any other.
They live apart so that a program without them (hello world) never compiles their source when
there is no bytecode cache (issue 31): error handling (`try`/`recover`, `raise`), declarations
(`require`, `intent`, `invariant`, `type`, `enum`), `sandbox` blocks and expressions, test
blocks, `log`, markers and checkpoints, and the model forms (`reason`, `decide`, …).
"""

from __future__ import annotations

from synsema.lang.errors import SynError
from synsema.lang.resolve import test_scope
from synsema.runtime.calls import host_failure
from synsema.runtime.compiler import _scope_text
from synsema.runtime.scope import UNBOUND
from synsema.runtime.values import Constructor, EnumValue, display


def s_Try(self, node, scope, tail):
    body = self.block(node.body, scope, tail)
    recover, template = self.frame_block(node.recover, scope, tail, preset=[node.err_name or "error"])

    def run(f):
        try:
            return body(f)
        except SynError as e:
            return recover([f, e.message, *template])
        except RecursionError:
            return recover([f, "maximum recursion depth exceeded", *template])
        except MemoryError:
            return recover([f, host_failure("this block", MemoryError()).message, *template])
    return run


def s_Raise(self, node, scope, tail):
    value = self.expr(node.value, scope)
    span = node.span

    def run(f):
        raise SynError(display(value(f)), span)
    return run


def s_Intent(self, node, scope, tail):
    rt = self.rt
    text = node.text
    span = node.span

    def run(f):
        rt.declare_intent(text, span)
        return None
    return run


def s_Invariant(self, node, scope, tail):
    cond = self.expr(node.cond, scope)
    label = node.label
    span = node.span

    def run(f):
        if not cond(f):
            raise SynError(f"Invariant violation: {label}" if label else "Invariant violation", span)
        return None
    return run


def s_Require(self, node, scope, tail):
    for cap in node.caps:
        self.rt.validate_cap(cap.name, cap.scope is not None, cap.span or node.span)
    if self.is_module and scope.is_global:
        raise SynError(f"module '{node.span.file if node.span else 'this module'}' must not have a top-level "
                       "'require': capabilities are granted "
                       "by the main program", node.span)
    if not scope.is_global or self.in_sandbox:
        return None  # a nested require never grants anything
    caps = [(c.name, self.expr(c.scope, scope) if c.scope is not None else None, c.span or node.span)
            for c in node.caps]
    rt = self.rt

    def run(f):
        for name, s, span in caps:
            rt.grant_cap(name, _scope_text(s(f)) if s is not None else None, span)
        return None
    return run


def _under(self, under, scope):
    if under is None:
        return None
    for cap in under:
        self.rt.validate_cap(cap.name, cap.scope is not None, cap.span)
    caps = [(c.name, self.expr(c.scope, scope) if c.scope is not None else None) for c in under]
    return lambda f: [(n, _scope_text(s(f)) if s is not None else None) for n, s in caps]


def s_Sandbox(self, node, scope, tail):
    under = _under(self, node.under, scope)
    self.in_sandbox += 1
    body, template = self.frame_block(node.body, scope, tail)
    self.in_sandbox -= 1
    rt = self.rt

    def run(f):
        token = rt.enter_sandbox(under(f) if under is not None else None)
        try:
            return body([f, *template])
        finally:
            rt.leave_caps(token)
    return run


def s_TypeDef(self, node, scope, tail):
    name = node.name
    fields = tuple(field for field, _ in node.fields)
    store = self.binder(name, scope, node.span)

    def build(args):
        if len(args) != len(fields):
            raise SynError(f"{name} takes {len(fields)} field{'s' if len(fields) != 1 else ''} "
                           f"({', '.join(fields)}), got {len(args)}")
        return dict(zip(fields, args))
    ctor = Constructor(name, fields, build)

    def run(f):
        store(f, ctor)
        return None
    return run


def s_EnumDef(self, node, scope, tail):
    name = node.name
    variants = {}
    for variant, fields in node.variants:
        if fields:
            variants[variant] = _variant_constructor(name, variant, tuple(fields))
        else:
            variants[variant] = EnumValue(name, variant)
    store = self.binder(name, scope, node.span)

    def run(f):
        store(f, dict(variants))
        return None
    return run


def s_TestBlock(self, node, scope, tail):
    if self.tests is None:
        return None
    if not scope.is_global:
        raise SynError("test blocks belong at the top level of a file", node.span)
    inner = test_scope(scope, node.body)
    saved_loops, self.loops = self.loops, 0
    body = self.block(node.body, inner, True)
    self.loops = saved_loops
    template = [UNBOUND] * (inner.size - 1)
    self.tests.append((node.name, body, template, node.span))
    return None


def s_Log(self, node, scope, tail):
    value = self.expr(node.value, scope)
    rt = self.rt
    span = node.span

    def run(f):
        text = "[LOG] " + display(value(f)) + "\n"
        rt.site = span  # the console capability check names this line
        rt.stderr(text, "log")
        return None
    return run


def s_Marker(self, node, scope, tail):
    return self.block(node.body, scope, tail)


def s_Checkpoint(self, node, scope, tail):
    value = self.expr(node.value, scope)

    def run(f):
        value(f)
        return None
    return run


def e_SandboxExpr(self, node, scope):
    under = _under(self, node.under, scope)
    body = self.expr(node.body, scope)
    rt = self.rt

    def run(f):
        token = rt.enter_sandbox(under(f) if under is not None else None)
        try:
            return body(f)
        finally:
            rt.leave_caps(token)
    return run


def e_LLMExpr(self, node, scope):
    subject = self.expr(node.subject, scope)
    given = self.expr(node.given, scope) if node.given is not None else None
    objective = self.expr(node.objective, scope) if node.objective is not None else None
    with_ = [(k, self.expr(v, scope)) for k, v in node.with_]
    kind = node.kind
    rt = self.rt
    span = node.span

    def run(f):
        rt.site = span
        try:
            return rt.llm_expression(kind, subject(f), given(f) if given else None,
                                     objective(f) if objective else None,
                                     {k: v(f) for k, v in with_})
        except SynError as e:
            raise e.at(span)
    return run


def _variant_constructor(enum: str, variant: str, fields: tuple[str, ...]) -> Constructor:
    def build(args):
        if len(args) != len(fields):
            raise SynError(f"{enum}.{variant} takes {len(fields)} value{'s' if len(fields) != 1 else ''} "
                           f"({', '.join(fields)}), got {len(args)}")
        return EnumValue(enum, variant, tuple(args), fields)
    return Constructor(f"{enum}.{variant}", fields, build)
