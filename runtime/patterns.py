"""`match` compiled to direct tests: one generated Python function per statement (`Dispatcher`).

An arm's test checks the pattern and binds its names into frame slots as it goes, then runs the
guard. The test of an arm folded into the enclosing frame is written inside the dispatcher (a
mismatch moves on to the next arm without a call); an arm with a frame of its own has its test
as a function `test(value, up)` that builds that frame once the value fits. Literals (text, integers, `true`/`false`, `nothing`) are
one comparison with `values.equal`'s meaning; a list pattern is a class and length check and
then per-element tests by index (a spread is sliced only when it binds a name); a map pattern
tests key presence then each key's sub-pattern. Anything else (a computed value, an enum
variant) is a closure the test calls. Tests and the statement's dispatcher are written as Python
source from the pattern's *shape* only — constants, slots and closures arrive as arguments, never
as text — and `exec`'d once per shape, as `runtime.fastpaths` and `collections.namedtuple` do.

A failed test may leave some binders written; that is harmless, as only the arm's own code reads
those slots and a successful test writes all of them. When the compiler folds an arm into the
enclosing frame (`lang.resolve.SharedScope`), the dispatcher resets the arm's slots to UNBOUND
when its body ends, however it ends, so each run of the arm starts as a fresh frame would.
At the top of an arm a bare name compares with its value; inside list, map and enum patterns a
bare name binds.
"""

from __future__ import annotations

from synsema.lang import ast
from synsema.lang.errors import SynError
from synsema.runtime.scope import UNBOUND
from synsema.runtime.values import Constructor, EnumValue, equal

NOT_LITERAL = object()
_made: dict[str, object] = {}   # generated source -> its `make` function


def literal_value(pattern):
    """The constant of a literal pattern (text, int, bool, nothing), else NOT_LITERAL."""
    if type(pattern) is not ast.PValue:
        return NOT_LITERAL
    expr = pattern.expr
    t = type(expr)
    if t is ast.Str or t is ast.Bool or (t is ast.Num and type(expr.value) is int):
        return expr.value
    if t is ast.Nothing:
        return None
    return NOT_LITERAL


def literal_mismatch(x: str, constant, c: str, kind) -> str:
    """The Python test that the value in `x` is not the literal `constant` (passed in as `c`;
    `kind()` names its type when the test needs it), with `values.equal`'s meaning."""
    if type(constant) is str:     # equal() of a text and anything else is false
        return f"{x}.__class__ is not str or {x} != {c}"
    if constant is None:
        return f"{x} is not None"
    # an int or bool also equals other numbers: 1 == 1.0 == true
    return f"not ({x} == {c} if {x}.__class__ is {kind()} else equal({x}, {c}))"


def literal_match(x: str, constant, c: str, kind) -> str:
    """The Python test that the value in `x` is the literal `constant`: literal_mismatch's negation."""
    if type(constant) is str:
        return f"{x}.__class__ is str and {x} == {c}"
    if constant is None:
        return f"{x} is None"
    return f"({x} == {c} if {x}.__class__ is {kind()} else equal({x}, {c}))"


class _Source:
    """The statements of one generated function and the values its maker is called with."""

    def __init__(self, template=None):
        self.lines: list[str] = []
        self.args: dict[str, object] = {}
        self.locals = 0
        self.template = template    # a test of an arm with its own frame: made at first use
        self.indent = "        "    # where a test's statements stand
        self.fail = "return False"  # what a test does on a mismatch

    def line(self, text: str) -> None:
        self.lines.append(self.indent + text)

    def frame(self) -> str:
        """`f`, the frame the arm runs in; an arm with its own frame builds it here, so a value
        whose shape does not fit is refused before any frame is built."""
        if self.template is not None:
            self.line(f"f = [up, *{self.arg('p', self.template)}]")
            self.template = None
        return "f"

    def arg(self, prefix: str, value) -> str:
        name = f"{prefix}{len(self.args)}"
        self.args[name] = value
        return name

    def local(self) -> str:
        self.locals += 1
        return f"x{self.locals}"

    def fail_if(self, condition: str) -> None:
        self.line(f"if {condition}:")
        self.line(f"    {self.fail}")

    def make(self, header: str, extra: str = ""):
        """exec the function (cached by its text) and call its maker with the arguments."""
        names = ", ".join(self.args)
        source = f"def make({names}):\n{header}\n" + "\n".join(self.lines) + f"\n{extra}    return run\n"
        maker = _made.get(source)
        if maker is None:
            namespace = {"equal": equal, "U": UNBOUND}
            exec(source, namespace)
            maker = _made[source] = namespace["make"]
        return maker(**self.args)


def compile_test(pattern, guard, scope, compiler, template=None):
    """The test of one arm with its own frame, or of a pattern nested in an enum variant
    (`template` None): `test(value, up)` is the arm's frame, `[up, *template]`, or False;
    `test(value, f)` binds into `f` and is truthy when the pattern matches."""
    src = _Source(template)
    _emit(pattern, "v", src, scope, compiler)
    _emit_guard(src, guard, ())
    src.line(f"return {src.frame()}")
    return src.make(f"    def run(v, {'f' if template is None else 'up'}):")


def _emit_guard(src: _Source, guard, reset: tuple) -> None:
    """The guard (a compiled expression, or None) as the test's last step; `reset` lists the
    slots written back to UNBOUND when it says no."""
    if guard is None:
        return
    src.line(f"if not {src.arg('g', guard)}({src.frame()}):")
    src.lines.extend(f"{src.indent}    f[{src.arg('s', slot)}] = U" for slot in reset)
    src.line(f"    {src.fail}")


def _emit(pattern, x: str, src: _Source, scope, compiler) -> None:
    """Statements testing the value in local `x` against `pattern` (returning False on a
    mismatch) and binding its names."""
    t = type(pattern)
    if t is ast.PWildcard:
        return
    if t is ast.PBind:
        src.line(f"{src.frame()}[{src.arg('s', scope.declare(pattern.name))}] = {x}")
        return
    constant = literal_value(pattern)
    if constant is not NOT_LITERAL:
        src.fail_if(literal_mismatch(x, constant, src.arg("c", constant), lambda: src.arg("k", type(constant))))
        return
    if t is ast.PList:
        _emit_list(pattern, x, src, scope, compiler)
        return
    if t is ast.PMap:
        src.fail_if(f"{x}.__class__ is not dict")
        for key, sub in pattern.entries:
            k = src.arg("c", key)
            src.fail_if(f"{k} not in {x}")
            _emit_item(ast.PBind(key, span=pattern.span) if sub is None else sub, f"{x}[{k}]", src, scope, compiler)
        return
    m = src.arg('m', compile_pattern(pattern, scope, compiler))
    src.fail_if(f"not {m}({x}, {src.frame()})")


def _emit_list(pattern, x: str, src: _Source, scope, compiler) -> None:
    before, after, rest = pattern.before, pattern.after, pattern.rest
    fixed = len(before) + len(after)
    src.fail_if(f"{x}.__class__ is not list or len({x}) {'<' if rest is not None else '!='} {fixed}")
    for i, sub in enumerate(before):
        _emit_item(sub, f"{x}[{i}]", src, scope, compiler)
    for i, sub in enumerate(after):
        _emit_item(sub, f"{x}[{i - len(after)}]", src, scope, compiler)
    if rest:
        end = f"len({x}) - {len(after)}" if after else ""
        src.line(f"{src.frame()}[{src.arg('s', scope.declare(rest))}] = {x}[{len(before)}:{end}]")


def _emit_item(sub, item: str, src: _Source, scope, compiler) -> None:
    """A sub-pattern of the item `item` (an index expression): read once, into a local."""
    if type(sub) is ast.PWildcard:
        return
    if type(sub) is ast.PBind:
        src.line(f"{src.frame()}[{src.arg('s', scope.declare(sub.name))}] = {item}")
        return
    y = src.local()
    src.line(f"{y} = {item}")
    _emit(sub, y, src, scope, compiler)


class Dispatcher:
    """The `match` statement as one generated function, written arm by arm in source order.

    An arm folded into the enclosing frame has its test written out inside the dispatcher: a
    `while True:` block that a mismatch leaves with `break` for the next arm, so trying an arm
    costs no call. A framed arm's test is its own function (`compile_test`), which builds the
    arm's frame once the value fits. The compiler declares each arm's binders (by writing its
    test) before it compiles the arm's body, so the two get slots in the order of the source."""

    def __init__(self, subject):
        self.src = _Source()
        self.src.line(f"v = {self.src.arg('subject', subject)}(f)")

    def folded_test(self, pattern, guard, scope, compiler, reset: tuple) -> None:
        """The test of an arm that runs in the enclosing frame; `reset` (the arm's binders) is
        written back to UNBOUND when the guard says no."""
        src = self.src
        src.line("while True:")
        src.indent, src.fail = src.indent + "    ", "break"
        _emit(pattern, "v", src, scope, compiler)
        _emit_guard(src, guard, reset)

    def folded_body(self, body, slots: tuple) -> None:
        """The body of the folded arm whose test was written last: it runs in the enclosing
        frame and resets `slots` (every name the arm declared) when it ends, however it ends."""
        src = self.src
        _emit_body(src, f"{src.arg('b', body)}(f)", slots)
        src.indent, src.fail = src.indent[:-4], "return False"

    def framed(self, test, body) -> None:
        """An arm with its own frame: `test` (from compile_test) builds it, `body` runs in it."""
        src = self.src
        src.line(f"fr = {src.arg('t', test)}(v, f)")
        src.line("if fr:")
        src.line(f"    return {src.arg('b', body)}(fr)")

    def finish(self, otherwise):
        """The statement's function; `otherwise` is (body, template, slots) or None, with
        template None when it is folded."""
        src = self.src
        if otherwise is None:
            src.line("return None")
        else:
            body, template, slots = otherwise
            b = src.arg("b", body)
            if template is None:
                _emit_body(src, f"{b}(f)", slots)
            else:
                src.line(f"return {b}([f, *{src.arg('p', template)}])")
        return src.make("    def run(f):")


def _emit_body(src: _Source, call: str, slots) -> None:
    if not slots:
        src.line(f"return {call}")
        return
    src.line("try:")
    src.line(f"    return {call}")
    src.line("finally:")
    src.lines.extend(f"{src.indent}    f[{src.arg('s', slot)}] = U" for slot in slots)


def compile_pattern(pattern, scope, compiler):
    """A closure `matcher(value, frame) -> bool` for the patterns a test does not write out:
    a value computed when the arm is tried, an enum variant with binders."""
    t = type(pattern)
    if t is ast.PValue:
        expected = compiler.decider(pattern.expr, scope)
        span = pattern.span

        def same(v, f):
            try:
                return equal(v, expected(f))
            except SynError as e:
                raise e.at(span)
        return same
    if t is ast.PEnum:
        return _enum(pattern, scope, compiler)
    return compile_test(pattern, None, scope, compiler)


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
