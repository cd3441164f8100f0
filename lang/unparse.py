"""The source text of an expression, rebuilt from its tree, for messages that quote one.

A failed `assert` names the sub-expressions whose values it shows (`where length(xs) = 3`).
Nodes keep only where they start, not where they end, so the text is rebuilt in the canonical
layout of `synsema fmt` (one space around operators, none inside brackets) with parentheses
exactly where precedence needs them. Forms a message never needs to quote in full (lambdas,
model and human expressions) appear as `…` inside their keyword.
"""

from __future__ import annotations

from decimal import Decimal

from synsema.lang import ast

# Binding strength, loosest first, as in grammar/synsema.lark.
_PIPE, _OR, _AND, _NOT, _COMPARE, _SUM, _TERM, _UNARY, _POWER, _POSTFIX = range(1, 11)
_BINARY = {"+": _SUM, "-": _SUM, "*": _TERM, "/": _TERM, "//": _TERM, "%": _TERM, "**": _POWER}
WIDTH = 60   # characters of quoted source before it is cut with `…`


def unparse(node, width: int = WIDTH) -> str:
    """`node` as source text, cut to about `width` characters."""
    text = _text(node)
    return text if len(text) <= width else text[:width - 1] + "…"


def _text(node) -> str:
    return _form(node)[0]


def _wrapped(node, strength: int) -> str:
    """The text of `node` as an operand of something binding `strength` tightly."""
    text, own = _form(node)
    return f"({text})" if own < strength else text


def _form(node) -> tuple[str, int]:
    """(text, how tightly it binds)."""
    t = type(node)
    if t is ast.Name:
        return node.name, _POSTFIX
    if t is ast.Num:
        v = node.value
        return (format(v, "f") + "d" if type(v) is Decimal else repr(v)), _POSTFIX
    if t is ast.Str:
        return '"' + node.value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"', _POSTFIX
    if t is ast.Bool:
        return ("true" if node.value else "false"), _POSTFIX
    if t is ast.Nothing:
        return "nothing", _POSTFIX
    if t is ast.Template:
        return "`" + "".join(p if type(p) is str else "{" + _text(p) + "}" for p in node.parts) + "`", _POSTFIX
    if t is ast.ListLit:
        return "[" + ", ".join(_text(i) for i in node.items) + "]", _POSTFIX
    if t is ast.MapLit:
        return "{" + ", ".join(f"{_key(k)}: {_text(v)}" for k, v in node.entries) + "}", _POSTFIX
    if t is ast.Attr:
        return f"{_wrapped(node.obj, _POSTFIX)}.{node.name}", _POSTFIX
    if t is ast.Index:
        return f"{_wrapped(node.obj, _POSTFIX)}[{_text(node.index)}]", _POSTFIX
    if t is ast.Call:
        args = [_text(a) for a in node.args] + [f"{k} = {_text(v)}" for k, v in node.named]
        return f"{_wrapped(node.func, _POSTFIX)}({', '.join(args)})", _POSTFIX
    if t is ast.Unary:
        if node.op == "not":
            return f"not {_wrapped(node.operand, _NOT)}", _NOT
        return f"-{_wrapped(node.operand, _UNARY)}", _UNARY
    if t is ast.Binary:
        own = _BINARY[node.op]
        # Left-associative, except `**`, whose right operand may be a unary minus.
        left, right = (own + 1, own) if node.op == "**" else (own, own + 1)
        return f"{_wrapped(node.left, left)} {node.op} {_wrapped(node.right, right)}", own
    if t is ast.Compare:
        parts = [_wrapped(node.first, _SUM)]
        for op, operand in zip(node.ops, node.rest):
            parts += [op, _wrapped(operand, _SUM)]
        return " ".join(parts), _COMPARE
    if t is ast.And:
        return f"{_wrapped(node.left, _AND)} and {_wrapped(node.right, _NOT)}", _AND
    if t is ast.Or:
        return f"{_wrapped(node.left, _OR)} or {_wrapped(node.right, _AND)}", _OR
    if t is ast.Pipe:
        return f"{_wrapped(node.value, _PIPE)} |> {_wrapped(node.step, _OR)}", _PIPE
    if t is ast.InlineWhen:
        tail = f" otherwise {_text(node.otherwise)}" if node.otherwise is not None else ""
        return f"when {_text(node.cond)} then {_text(node.then)}{tail}", 0
    if t is ast.Lambda:
        return "(" + ", ".join(p.name for p in node.params) + ") => …", 0
    if t is ast.LLMExpr or t is ast.HumanExpr:
        return f"{node.kind} …", 0
    return "…", 0


def _key(node) -> str:
    if type(node) is ast.Str and node.value.isidentifier():
        return node.value
    return _wrapped(node, _POSTFIX) if type(node) in (ast.Str, ast.Num, ast.Template) else f"({_text(node)})"
