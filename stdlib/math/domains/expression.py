"""The library's own reader for short expression text (MATH.md §3.1.1: never `sympify`).

The text becomes nested tuples: ("num", Fraction) | ("var", name) | ("const", name) |
("neg", a) | (op, a, b) for op in add, sub, mul, div | ("pow", a, Fraction) |
("call", function, a). `^` reads as a power (x^2), powers are rational literals, integer
literals are bounded, and the text, the node count and the nesting depth are bounded before
anything is built, so a tree always costs a known amount to walk. Consumers (series, numerical
constants) decide which names and functions they accept.

Two readers, one answer. The authority is Python's `ast` (it parses, never evaluates) with a
whitelist over its tree: `_parse_with_ast` decides every refusal and writes every message.
Importing `ast` and building its node classes costs more than a whole first series call in the
math worker (about 15 ms), so `_read` -- a tokenizer and precedence reader for the grammar's own
subset of Python (decimal integers, ASCII names, + - * / **, parentheses, one-argument calls) --
runs first and only vouches: it returns the tree when the text is plainly inside the grammar and
every bound holds, and None on anything else (another character, a limit reached, an unknown
name, a refusal of any kind), which hands the text to the ast reader. So a text either gets the
tree the ast reader would build (tests/math/test_expression_reader.py compares the two on
generated texts) or the ast reader's own verdict.
"""

from __future__ import annotations

import keyword
import math
import warnings
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


def parse(text: str, variables: tuple[str, ...] = ()) -> tuple:
    """The tree of `text`, reading `variables` as variables and CONSTANTS as constants."""
    tree = _read(text, variables)
    return tree if tree is not None else _parse_with_ast(text, variables)


# --- the fast reader: vouches for plain texts, defers everything else -----------------------

class _Defer(Exception):
    """Not a text `_read` vouches for: the ast reader decides."""


_DIGITS = "0123456789"
_SINGLE = "+-*/()"


def _read(text: str, variables: tuple[str, ...]) -> tuple | None:
    """The tree `_parse_with_ast` would build for `text`, or None when it is not sure to build
    one (then that reader refuses with its message, or builds the tree itself)."""
    if len(text) > MAX_TEXT or text.count("(") > MAX_DEPTH * 2 or text[:1] == " ":
        return None
    try:
        tokens = _tokens(text.replace("^", "**"))
        reader = _Reader(tokens)
        node = reader.expression()
        if reader.at != len(tokens):
            return None
        return _tree(node, 0, [0], variables)
    except _Defer:
        return None


def _tokens(text: str) -> list:
    """Numbers (int), names (str) and operator marks ("**" and the characters of _SINGLE, kept as
    1-tuples so they never equal a name); `_Defer` on anything else Python might read otherwise
    (other characters, decimals, underscores or letters after digits, leading zeros)."""
    tokens: list = []
    i, end = 0, len(text)
    while i < end:
        c = text[i]
        if c == " ":
            i += 1
        elif c in _DIGITS:
            j = i + 1
            while j < end and text[j] in _DIGITS:
                j += 1
            if (j < end and (text[j].isalpha() or text[j] in "_.")) or (text[i] == "0" and j > i + 1):
                raise _Defer
            tokens.append(int(text[i:j]))
            i = j
        elif c.isascii() and (c.isalpha() or c == "_"):
            j = i + 1
            while j < end and text[j].isascii() and (text[j].isalnum() or text[j] == "_"):
                j += 1
            tokens.append(text[i:j])
            i = j
        elif text.startswith("**", i):
            tokens.append(("**",))
            i += 2
        elif c in _SINGLE:
            tokens.append((c,))
            i += 1
        else:
            raise _Defer
    return tokens


class _Reader:
    """Precedence reading as Python's grammar has it for these operators: sums of products of
    signed powers, `**` binding tighter than a sign on its left and taking a signed operand on
    its right (right-associative). Nodes mirror Python's: ("int", v), ("name", n),
    ("unary", sign, a), ("binary", op, a, b), ("call", name, a); parentheses make no node."""

    def __init__(self, tokens: list):
        self.tokens, self.at = tokens, 0

    def peek(self):
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self, mark: str) -> bool:
        if self.peek() == (mark,):
            self.at += 1
            return True
        return False

    def expression(self) -> tuple:
        node = self.term()
        while (op := self.peek()) in (("+",), ("-",)):
            self.at += 1
            node = ("binary", op[0], node, self.term())
        return node

    def term(self) -> tuple:
        node = self.factor()
        while (op := self.peek()) in (("*",), ("/",)):
            self.at += 1
            node = ("binary", op[0], node, self.factor())
        return node

    def factor(self) -> tuple:
        if (op := self.peek()) in (("+",), ("-",)):
            self.at += 1
            return ("unary", op[0], self.factor())
        node = self.primary()
        if self.take("**"):
            return ("binary", "**", node, self.factor())
        return node

    def primary(self) -> tuple:
        token = self.peek()
        self.at += 1
        if type(token) is int:
            node = ("int", token)
        elif type(token) is str:
            if self.take("("):
                node = ("call", token, self.expression())
                if not self.take(")"):
                    raise _Defer
            else:
                node = ("name", token)
        elif token == ("(",):
            node = self.expression()
            if not self.take(")"):
                raise _Defer
        else:
            raise _Defer
        if self.peek() == ("(",):   # a call of anything but a bare name, as (exp)(x)
            raise _Defer
        return node


_BINARY = {"+": "add", "-": "sub", "*": "mul", "/": "div"}


def _tree(node: tuple, depth: int, count: list, variables: tuple[str, ...]) -> tuple:
    """The whitelist of `_parse_with_ast` over `_Reader`'s nodes, counting nodes and depth as it
    does; `_Defer` wherever that reader would refuse."""
    count[0] += 1
    if count[0] > MAX_NODES or depth > MAX_DEPTH:
        raise _Defer
    kind = node[0]
    if kind == "int":
        if node[1] > MAX_LITERAL:
            raise _Defer
        return ("num", Fraction(node[1]))
    if kind == "name":
        name = node[1]
        if keyword.iskeyword(name):
            raise _Defer
        if name in variables:
            return ("var", name)
        if name in CONSTANTS:
            return ("const", name)
        raise _Defer
    if kind == "unary":
        inner = _tree(node[2], depth + 1, count, variables)
        return ("neg", inner) if node[1] == "-" else inner
    if kind == "call":
        if node[1] not in FUNCTIONS:
            raise _Defer
        return ("call", node[1], _tree(node[2], depth + 1, count, variables))
    op, left, right = node[1:]
    if op == "**":
        return ("pow", _tree(left, depth + 1, count, variables), _literal_exponent(right))
    return (_BINARY[op], _tree(left, depth + 1, count, variables),
            _tree(right, depth + 1, count, variables))


def _literal_exponent(node: tuple) -> Fraction:
    """`_exponent` over `_Reader`'s nodes; `_Defer` wherever it would refuse."""
    def literal(n: tuple) -> Fraction:
        if n[0] == "int":
            return Fraction(n[1])
        if n[0] == "unary" and n[1] == "-":
            return -literal(n[2])
        if n[0] == "binary" and n[1] == "/" and n[2][0] != "binary" and n[3][0] != "binary":
            bottom = literal(n[3])
            if bottom:
                return literal(n[2]) / bottom
        raise _Defer
    value = literal(node)
    if abs(value.numerator) > MAX_EXPONENT or value.denominator > MAX_EXPONENT:
        raise _Defer
    return value


# --- the authority: Python's ast and the whitelist --------------------------------------------

def _parse_with_ast(text: str, variables: tuple[str, ...]) -> tuple:
    """The tree of `text` by Python's parser and the whitelist, or the ExpressionError that says
    what to change (the messages users see)."""
    import ast
    operators = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div"}
    if len(text) > MAX_TEXT:
        raise ExpressionError(f"the expression has {len(text)} characters; at most {MAX_TEXT}")
    if text.count("(") > MAX_DEPTH * 2:
        raise ExpressionError("too many parentheses")
    try:
        with warnings.catch_warnings():   # "1if", "2(x)": Python's hints, not ours to print
            warnings.simplefilter("ignore")
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
        if isinstance(node, ast.BinOp) and type(node.op) in operators:
            return (operators[type(node.op)], build(node.left, depth + 1),
                    build(node.right, depth + 1))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            return ("pow", build(node.left, depth + 1), _exponent(node.right))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in FUNCTIONS and len(node.args) == 1 and not node.keywords:
            return ("call", node.func.id, build(node.args[0], depth + 1))
        if isinstance(node, ast.Constant) and type(node.value) is float:
            if not math.isfinite(node.value):   # 1e999
                raise ExpressionError("a decimal in the expression is beyond a float; write "
                                      f"integers below {MAX_LITERAL} and fractions of them")
            raise ExpressionError(f"{node.value!r} is a decimal; write it as a fraction "
                                  f"({Fraction(str(node.value))})")
        raise ExpressionError(f"{ast.unparse(node)[:40]!r} is not part of the grammar: "
                              + GRAMMAR)

    return build(tree, 0)


def _exponent(node) -> Fraction:
    """A rational literal exponent: 3, -2, (1/2), (-1/3), -(3/4)."""
    import ast

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
