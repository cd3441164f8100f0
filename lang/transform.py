"""Grammar rules to lang.ast nodes.

lang.parser calls one `Builder` method per reduced rule (as Lark would an inline transformer),
with the rule's children (kept tokens, already-built nodes, and None for an absent `[...]`
part). Building during the LALR parse needs no recursion, so deeply nested input cannot
overflow the Python stack here. Every node gets the span of its first token.

A token among the children is its index in the parse's token columns (lang.lexer.Tokens, set
as `types`, `values`, `lines` and `cols` by lang.parser for each parse): an `int`, which no
other child is.

Statement-level rules that the grammar cannot express (what a `set` may assign to, which
names a binding may not use, where a pattern may sit) are enforced here or in lang.checks,
each with a message that names the Synsema form.
"""

from __future__ import annotations


from synsema.lang import ast, checks
from synsema.lang.errors import Span, parse_error
from synsema.lang.lexer import duration_seconds, number_value


_new = object.__new__


class _Spread:
    """`...name` inside a list pattern, until the list pattern is assembled."""

    __slots__ = ("name", "span")

    def __init__(self, name: str, span: Span):
        self.name = name
        self.span = span


class Builder:
    """One method per grammar rule, producing lang.ast nodes for one file at a time."""

    def __init__(self, parse_hole):   # a lang.templates.HoleParser: reads one hole of a template
        self.file = "<input>"
        self.types: list[str] = []
        self.values: list[str] = []
        self.lines: list[int] = []
        self.cols: list[int] = []
        self.parse_hole = parse_hole

    def _span(self, tok: int) -> Span:
        span = _new(Span)  # Span(file, line, col) without the call of its __init__
        span.file, span.line, span.col = self.file, self.lines[tok], self.cols[tok]
        return span

    # ------------------------------------------------------------ program and blocks
    def module(self, c):
        return ast.Module(self.file, c, Span(self.file, 1, 1))

    def lone_expr(self, c):
        return c[0]

    def block(self, c):
        return c

    # ------------------------------------------------------------ simple statements
    def let_stmt(self, c):
        kw, name, value = c
        checks.check_binding(self.values[name], isinstance(value, ast.Lambda), self._span(name))
        return ast.Let(self.values[name], value, False, self._span(kw))

    def export_let(self, c):
        return self._exported(c)

    def set_stmt(self, c):
        kw, target, value = c
        root = target
        while isinstance(root, (ast.Attr, ast.Index)):
            root = root.obj
        if not isinstance(root, ast.Name):
            raise parse_error("Invalid set target: it must start from a variable — write "
                              "`set name to …`, `set name[key] to …` or `set name.field to …`",
                              target.span)
        if target is root:
            checks.check_binding(root.name, isinstance(value, ast.Lambda), root.span)
        return ast.Set(target, value, self._span(kw))

    def give_stmt(self, c):
        return ast.Give(c[1], self._span(c[0]))

    def stop_stmt(self, c):
        return ast.Stop(c[1], self._span(c[0]))

    def raise_stmt(self, c):
        return ast.Raise(c[1], self._span(c[0]))

    def intent_stmt(self, c):
        return ast.Intent(self.values[c[1]], self._span(c[0]))

    def invariant_stmt(self, c):
        kw, label, cond = c
        if label is not None and self.types[label] == "TEMPLATE":
            label = self.values[label][1:-1]  # a template label is kept as its static source text
        elif label is not None:
            label = self.values[label]
        return ast.Invariant(label, cond, self._span(kw))

    def require_stmt(self, c):
        return ast.Require(c[1], self._span(c[0]))

    def caps(self, c):
        return c

    def cap(self, c):
        name, sub, scope = c
        if type(scope) is int:
            scope = ast.Str(self.values[scope], self._span(scope))
        full = self.values[name] if sub is None else f"{self.values[name]}.{self.values[sub]}"
        return ast.CapReq(full, scope, self._span(name))

    def use_stmt(self, c):
        kw, path, alias = c
        return ast.Use(self.values[path], self.values[alias], self._span(kw))

    def log_stmt(self, c):
        return ast.Log(c[1], self._span(c[0]))

    def checkpoint_stmt(self, c):
        return ast.Checkpoint(c[1], self._span(c[0]))

    def expr_stmt(self, c):
        expr = c[0]
        checks.check_expression_statement(expr)
        return ast.ExprStmt(expr, expr.span)

    # ------------------------------------------------------------ compound statements
    def when_stmt(self, c):
        kw, cond, body, *rest = c
        otherwise = rest.pop()
        return ast.When([(cond, body)] + rest, otherwise, self._span(kw))

    def otherwise_when(self, c):
        return (c[1], c[2])

    def each_stmt(self, c):
        kw, var, _, iterable, body = c
        checks.check_bound_name(self.values[var], "a loop variable", self._span(var))
        return ast.Each(self.values[var], iterable, body, self._span(kw))

    def while_stmt(self, c):
        return ast.While(c[1], c[2], self._span(c[0]))

    def match_stmt(self, c):
        kw, subject, *arms = c
        otherwise = arms.pop()
        return ast.Match(subject, arms, otherwise, self._span(kw))

    def match_arm(self, c):
        kw, pattern, _when, guard, body = c
        return ast.MatchArm(self._top_pattern(pattern), guard, body, self._span(kw))

    def task_def(self, c):
        kw, name, params, body = c
        checks.check_binding(self.values[name], True, self._span(name))
        return ast.TaskDef(self.values[name], params or [], body, False, self._span(kw))

    def params(self, c):
        return [p for p in c if p is not None]

    def param(self, c):
        name, type_, default = c
        checks.check_bound_name(self.values[name], "a parameter", self._span(name))
        return ast.Param(self.values[name], None if type_ is None else self.values[type_], default,
                         self._span(name))

    def try_stmt(self, c):
        kw, body, err, recover = c
        return ast.Try(body, "error" if err is None else self.values[err], recover, self._span(kw))

    def sandbox_stmt(self, c):
        return ast.Sandbox(c[2], c[1], self._span(c[0]))

    def type_def(self, c):
        kw, name, *fields = c
        return ast.TypeDef(self.values[name], fields, False, self._span(kw))

    def type_field(self, c):
        return (self.values[c[0]], self.values[c[1]])

    def enum_def(self, c):
        kw, name, *variants = c
        return ast.EnumDef(self.values[name], variants, False, self._span(kw))

    def variant(self, c):
        return (self.values[c[0]], [self.values[t] for t in c[1:] if t is not None])

    def test_block(self, c):
        return ast.TestBlock(self.values[c[1]], c[2], self._span(c[0]))

    def marker(self, c):
        kw, label, body = c
        return ast.Marker(self.values[kw], self.values[label], body, self._span(kw))

    def export_def(self, c):
        return self._exported(c)

    def _exported(self, c):
        kw, node = c
        node.exported = True
        node.span = self._span(kw)
        return node

    # ------------------------------------------------------------ patterns
    def p_list(self, c):
        items = [self._inner_pattern(x) if not isinstance(x, _Spread) else x
                 for x in c[1:] if x is not None]
        spreads = [k for k, x in enumerate(items) if isinstance(x, _Spread)]
        if len(spreads) > 1:
            raise parse_error("A list pattern can have only one `...`", items[spreads[1]].span)
        if not spreads:
            return ast.PList(items, None, [], self._span(c[0]))
        k = spreads[0]
        return ast.PList(items[:k], items[k].name, items[k + 1:], self._span(c[0]))

    def p_spread(self, c):
        dots, name = c
        if name is not None:
            checks.check_bound_name(self.values[name], "a pattern binding", self._span(name))
        return _Spread("" if name is None else self.values[name], self._span(dots))

    def p_map(self, c):
        return ast.PMap([e for e in c[1:] if e is not None], self._span(c[0]))

    def p_entry(self, c):
        key, sub = c
        if sub is None:
            checks.check_bound_name(self.values[key], "a pattern binding", self._span(key))
            return (self.values[key], None)
        return (self.values[key], self._inner_pattern(sub))

    def _top_pattern(self, expr):
        """A whole `is` pattern: a bare name compares with its value."""
        if isinstance(expr, ast.Name) and expr.name == "_":
            return ast.PWildcard(expr.span)
        return self._structured(expr) or self._value_pattern(expr)

    def _inner_pattern(self, expr):
        """A sub-pattern inside a list, map or enum pattern: a bare name binds."""
        if isinstance(expr, ast.Name):
            if expr.name == "_":
                return ast.PWildcard(expr.span)
            checks.check_bound_name(expr.name, "a pattern binding", expr.span)
            return ast.PBind(expr.name, expr.span)
        return self._structured(expr) or self._value_pattern(expr)

    def _structured(self, expr):
        if isinstance(expr, ast.Pattern):
            return expr
        if isinstance(expr, ast.Call) and _is_attr_chain(expr.func):
            if expr.named:
                raise parse_error("An enum pattern takes its binders by position, not by name",
                                  expr.span)
            return ast.PEnum(expr.func, [self._inner_pattern(a) for a in expr.args], expr.span)
        return None

    def _value_pattern(self, expr):
        for node in ast.walk(expr):
            if isinstance(node, ast.Pattern):
                raise parse_error("A list or map pattern can only stand alone or inside another "
                                  "pattern, not inside an expression", node.span)
        return ast.PValue(expr, expr.span)

    # ------------------------------------------------------------ expression forms
    def inline_when(self, c):
        kw, cond, then, otherwise = c
        return ast.InlineWhen(cond, then, otherwise, self._span(kw))

    def lambda_expr(self, c):
        params = [ast.Param(self.values[t], None, None, self._span(t)) for t in c[1:-1] if t is not None]
        for param in params:
            checks.check_bound_name(param.name, "a parameter", param.span)
        return ast.Lambda(params, c[-1], self._span(c[0]))

    def sandbox_expr(self, c):
        return ast.SandboxExpr(c[1], None, self._span(c[0]))

    def reason_expr(self, c):
        kw, subject, with_ = c
        return ast.LLMExpr("reason", subject, None, None, with_ or [], self._span(kw))

    def decide_expr(self, c):
        kw, options, given = c
        return ast.LLMExpr("decide", options, given, None, [], self._span(kw))

    def analyze_expr(self, c):
        kw, subject, objective = c
        return ast.LLMExpr("analyze", subject, None, objective, [], self._span(kw))

    def generate_expr(self, c):
        kw, target, given, with_ = c
        return ast.LLMExpr("generate", target, given, None, with_ or [], self._span(kw))

    def kwargs(self, c):
        return c

    def kwarg(self, c):
        return (self.values[c[0]], c[1])

    def human_expr(self, c):
        kw, value, *extra = c
        extra = extra[0] if extra else None
        if type(extra) is int:  # a duration such as 90s
            extra = ast.Num(duration_seconds(self.values[extra]), self._span(extra))
        return ast.HumanExpr(self.values[kw], value, extra, self._span(kw))

    # ------------------------------------------------------------ operators
    def pipe_op(self, c):
        return ast.Pipe(c[0], c[1], c[0].span)

    def or_op(self, c):
        return ast.Or(c[0], c[1], c[0].span)

    def and_op(self, c):
        return ast.And(c[0], c[1], c[0].span)

    def not_op(self, c):
        return ast.Unary("not", c[1], self._span(c[0]))

    def compare_op(self, c):
        ops = [self.values[t] for t in c[1::2]]
        return ast.Compare(c[0], ops, c[2::2], c[0].span)

    def binary(self, c):
        left, op, right = c
        return ast.Binary(self.values[op], left, right, left.span)

    def neg(self, c):
        return ast.Unary("-", c[1], self._span(c[0]))

    def of_expr(self, c):
        name, obj = c
        return ast.Attr(obj, self.values[name], self._span(name))

    def attr(self, c):
        return ast.Attr(c[0], self.values[c[1]], c[0].span)

    def index(self, c):
        return ast.Index(c[0], c[2], c[0].span)

    def call(self, c):
        func, *items = c
        args, named = [], []
        for item in items:
            if isinstance(item, tuple):
                named.append(item)
            elif item is not None:
                if named:
                    raise parse_error("A positional argument cannot come after a named one "
                                      "(`f(1, b = 2)` is fine, `f(b = 2, 1)` is not)", item.span)
                args.append(item)
        return ast.Call(func, args, named, func.span)

    def named_arg(self, c):
        return (self.values[c[0]], c[1])

    # ------------------------------------------------------------ atoms
    # The commonest nodes of all, made without a call of __init__ (a third of all reduces).
    def name(self, c):
        node = _new(ast.Name)
        node.name, node.span = self.values[c[0]], self._span(c[0])
        return node

    def number(self, c):
        node = _new(ast.Num)
        node.value, node.span = number_value(self.values[c[0]]), self._span(c[0])
        return node

    def string(self, c):
        node = _new(ast.Str)
        node.value, node.span = self.values[c[0]], self._span(c[0])
        return node

    def template(self, c):
        from synsema.lang.templates import build_template   # a program without templates never loads it
        return build_template(self.values[c[0]], self._span(c[0]), self.parse_hole)

    def true(self, c):
        return ast.Bool(True, self._span(c[0]))

    def false(self, c):
        return ast.Bool(False, self._span(c[0]))

    def nothing(self, c):
        return ast.Nothing(self._span(c[0]))

    def list_lit(self, c):
        return ast.ListLit([x for x in c[1:] if x is not None], self._span(c[0]))

    def map_lit(self, c):
        return ast.MapLit([e for e in c[1:] if e is not None], self._span(c[0]))

    def entry(self, c):
        key, value = c
        if type(key) is int:
            span = self._span(key)
            kind, text = self.types[key], self.values[key]
            if kind == "NUMBER":
                key = ast.Num(number_value(text), span)
            elif kind == "TEMPLATE":
                from synsema.lang.templates import build_template
                key = build_template(text, span, self.parse_hole)
            else:  # a bare word or a quoted text: the key is that text
                key = ast.Str(text, span)
        return (key, value)


def _is_attr_chain(expr) -> bool:
    """`Shape.circle` or `alias.Shape.circle`: names joined by dots."""
    if not isinstance(expr, ast.Attr):
        return False
    while isinstance(expr, ast.Attr):
        expr = expr.obj
    return isinstance(expr, ast.Name)
