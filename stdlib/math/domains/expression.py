"""The library's own reader for short expression text (MATH.md §3.1.1: never `sympify`).

Python's `ast` parses the text (no evaluation); a whitelist turns the tree into nested tuples:
("num", Fraction) | ("var", name) | ("const", name) | ("neg", a) | (op, a, b) for op in add,
sub, mul, div | ("pow", a, Fraction) | ("call", function, a). `^` reads as a power (x^2), powers
are rational literals, integer literals are bounded, and the text, the node count and the
nesting depth are bounded before anything is built, so a tree always costs a known amount to
walk. Consumers (series, numerical constants) decide which names and functions they accept.
"""

from __future__ import annotations

import ast
from fractions import Fraction

MAX_TEXT = 300
MAX_NODES = 80
MAX_DEPTH = 24
MAX_LITERAL = 10**6
MAX_EXPONENT = 24

FUNCTIONS = ("exp", "log", "sqrt", "sin", "cos", "tan", "atan", "asin", "acos", "sinh", "cosh",
             "tanh", "asinh", "atanh", "zeta", "gamma")
CONSTANTS = ("pi", "e", "euler", "catalan")
GRAMMAR = (
    "Integers (below 10^6), the variable, the constants pi, e, euler (Euler's gamma) and "
    "catalan, + - * /, powers with ^ or ** to a rational literal (x^3, x^(-2), (1+x)^(1/2), "
    "numerator and denominator at most 24), and the functions " + ", ".join(FUNCTIONS) +
    f" of one argument; at most {MAX_TEXT} characters and {MAX_NODES} operations.")


class ExpressionError(ValueError):
    """The text is not an expression of the grammar; the message says what to change."""


_OPS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div"}


def parse(text: str, variables: tuple[str, ...] = ()) -> tuple:
    """The tree of `text`, reading `variables` as variables and CONSTANTS as constants."""
    if len(text) > MAX_TEXT:
        raise ExpressionError(f"the expression has {len(text)} characters; at most {MAX_TEXT}")
    if text.count("(") > MAX_DEPTH * 2:
        raise ExpressionError("too many parentheses")
    try:
        tree = ast.parse(text.replace("^", "**"), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
        raise ExpressionError(f"not an expression: {getattr(error, 'msg', error)}") from None
    count = [0]

    def build(node, depth: int) -> tuple:
        count[0] += 1
        if count[0] > MAX_NODES or depth > MAX_DEPTH:
            raise ExpressionError(f"the expression is too large (at most {MAX_NODES} "
                                  f"operations nested {MAX_DEPTH} deep)")
        if isinstance(node, ast.Constant) and type(node.value) is int:
            if node.value > MAX_LITERAL:
                raise ExpressionError(f"the integer {str(node.value)[:20]} is too large; "
                                      f"integers are below {MAX_LITERAL}")
            return ("num", Fraction(node.value))
        if isinstance(node, ast.Name):
            if node.id in variables:
                return ("var", node.id)
            if node.id in CONSTANTS:
                return ("const", node.id)
            raise ExpressionError(f"unknown name {node.id!r}; the variable is "
                                  f"{', '.join(variables) or 'not allowed here'}, constants are "
                                  + ", ".join(CONSTANTS))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            inner = build(node.operand, depth + 1)
            return ("neg", inner) if isinstance(node.op, ast.USub) else inner
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return (_OPS[type(node.op)], build(node.left, depth + 1),
                    build(node.right, depth + 1))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            return ("pow", build(node.left, depth + 1), _exponent(node.right))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in FUNCTIONS and len(node.args) == 1 and not node.keywords:
            return ("call", node.func.id, build(node.args[0], depth + 1))
        if isinstance(node, ast.Constant) and type(node.value) is float:
            raise ExpressionError(f"{node.value!r} is a decimal; write it as a fraction "
                                  f"({Fraction(str(node.value))})")
        raise ExpressionError(f"{ast.unparse(node)[:40]!r} is not part of the grammar: "
                              + GRAMMAR)

    return build(tree, 0)


def _exponent(node) -> Fraction:
    """A rational literal exponent: 3, -2, (1/2), (-1/3), -(3/4)."""
    def literal(n) -> Fraction:
        if isinstance(n, ast.Constant) and type(n.value) is int:
            return Fraction(n.value)
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            return -literal(n.operand)
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Div) and not isinstance(
                n.left, ast.BinOp) and not isinstance(n.right, ast.BinOp):
            bottom = literal(n.right)
            if bottom:
                return literal(n.left) / bottom
        raise ExpressionError("an exponent must be a rational literal such as 3, -2 or (1/2)")
    value = literal(node)
    if abs(value.numerator) > MAX_EXPONENT or value.denominator > MAX_EXPONENT:
        raise ExpressionError(f"the exponent {value} is too large; numerator and "
                              f"denominator at most {MAX_EXPONENT}")
    return value


def text(tree: tuple) -> str:
    """The tree written back as text (for messages that point at a subexpression)."""
    kind = tree[0]
    if kind == "num":
        return str(tree[1])
    if kind in ("var", "const"):
        return tree[1]
    if kind == "neg":
        return f"-({text(tree[1])})"
    if kind == "pow":
        return f"({text(tree[1])})^({tree[2]})"
    if kind == "call":
        return f"{tree[1]}({text(tree[2])})"
    symbol = {"add": " + ", "sub": " - ", "mul": "*", "div": "/"}[kind]
    return f"({text(tree[1])}{symbol}{text(tree[2])})"
