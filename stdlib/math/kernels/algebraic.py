"""The kernel of `nt.algebraic.minimal_polynomial` (declared in domains/algebraic.py, whose
docstring explains the method): the reader of the number's text with its static degree and
height bounds (a problem finder both validation paths run), and the result built from the
minimal polynomial the adapter composes (adapters/flint_numberfield.py)."""

from __future__ import annotations

import ast
import math
from fractions import Fraction

MAX_TEXT = 400
MAX_NODES = 60
MAX_DEGREE = 16
MAX_LITERAL_DIGITS = 12
MAX_EXPONENT = 16
MAX_HEIGHT = 3000
LOG2 = math.log10(2)

SYNTAX = "algebraic_syntax"                # algebraic.RULE_GRAMMAR's code
DEGREE = "algebraic_degree_too_large"      # algebraic.RULE_DEGREE's code
HEIGHT = "algebraic_height_too_large"      # algebraic.RULE_HEIGHT's code


class Problem(Exception):
    """The number's text breaks a rule: its code and message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


_BINARY = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div"}


class _Reader:
    """Checks the syntax tree of the text and builds the library's tree: ("rat", Fraction),
    ("i",), ("neg", a), (op, a, b), ("pow", a, Fraction), ("cos", Fraction r) = cos(r pi)."""

    def __init__(self) -> None:
        self.nodes = 0

    def fail(self, message: str):
        raise Problem(SYNTAX, message)

    def read(self, node: ast.AST) -> tuple[tuple, int, float]:
        """(tree, degree bound d, height bound h: log10 of a bound on the Mahler measure of
        its minimal polynomial, following how the composer builds it: Res_y(f(y), g(x - y))
        for a sum has M <= 2^(mn) M(f)^n M(g)^m, the product's resultant M(f)^n M(g)^m, a
        p-th power M(f)^p, f(x^q) the same M, reversal the same M, and a factor never more).
        A node's h is never below its operands', so the root's h bounds every polynomial the
        computation builds."""
        self.nodes += 1
        if self.nodes > MAX_NODES:
            self.fail(f"more than {MAX_NODES} operations and numbers")
        if isinstance(node, ast.Constant) and type(node.value) is int:
            if node.value >= 10**MAX_LITERAL_DIGITS:
                self.fail(f"integer {node.value} is not below 10^{MAX_LITERAL_DIGITS}")
            return ("rat", Fraction(node.value)), 1, math.log10(max(1, node.value))
        if isinstance(node, ast.Name) and node.id == "I":
            return ("i",), 2, 0.0
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            tree, degree, height = self.read(node.operand)
            return (("neg", tree) if isinstance(node.op, ast.USub) else tree), degree, height
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            (left, dl, hl), (right, dr, hr) = self.read(node.left), self.read(node.right)
            if left[0] == "rat" and right[0] == "rat" and isinstance(node.op, ast.Div):
                if right[1] == 0:
                    self.fail("division by the integer 0")
                return ("rat", left[1] / right[1]), 1, hl + hr
            height = dr * hl + dl * hr
            if isinstance(node.op, (ast.Add, ast.Sub)):
                height += dl * dr * LOG2
            return (_BINARY[type(node.op)], left, right), dl * dr, height
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            base, degree, height = self.read(node.left)
            exponent = self.rational(node.right)
            if abs(exponent.numerator) > MAX_EXPONENT or exponent.denominator > MAX_EXPONENT:
                self.fail(f"exponent {exponent} needs |p| <= {MAX_EXPONENT} and "
                          f"q <= {MAX_EXPONENT}")
            return (("pow", base, exponent), degree * exponent.denominator,
                    height * max(1, abs(exponent.numerator)))  # a^0 still builds a
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords \
                and len(node.args) == 1:
            name = node.func.id
            if name in ("sqrt", "cbrt"):
                base, degree, height = self.read(node.args[0])
                q = 2 if name == "sqrt" else 3
                return ("pow", base, Fraction(1, q)), degree * q, height
            if name in ("cos", "sin"):
                r = self.pi_multiple(node.args[0])
                if name == "sin":  # sin(r pi) = cos((1/2 - r) pi)
                    r = Fraction(1, 2) - r
                r %= 2
                return ("cos", r), _cos_degree(r), (r.denominator - 1) * LOG2
        self.fail(f"not allowed here: {ast.unparse(node)[:60]!r}")

    def rational(self, node: ast.AST) -> Fraction:
        """A rational constant: an integer, -c, or c/d of integers (an exponent)."""
        self.nodes += 1
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return Fraction(node.value)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            value = self.rational(node.operand)
            return -value if isinstance(node.op, ast.USub) else value
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            num, den = self.rational(node.left), self.rational(node.right)
            if den == 0:
                self.fail("exponent with denominator 0")
            return num / den
        self.fail(f"an exponent must be a rational constant, not {ast.unparse(node)[:60]!r}")

    def pi_multiple(self, node: ast.AST) -> Fraction:
        """r for an argument that is r * pi with r rational (pi, 2*pi/7, -pi/5, 3/4*pi, ...)."""
        a, b = self.linear_in_pi(node)
        if a != 0 or b == 0:
            self.fail("cos and sin take a nonzero rational multiple of pi, e.g. cos(2*pi/7)")
        if abs(b.numerator) > 10**6 or b.denominator > 4 * MAX_DEGREE:
            self.fail(f"cos/sin argument {b}*pi needs a denominator of at most "
                      f"{4 * MAX_DEGREE}")
        return b

    def linear_in_pi(self, node: ast.AST) -> tuple[Fraction, Fraction]:
        """(a, b) with node = a + b pi."""
        self.nodes += 1
        if self.nodes > MAX_NODES:
            self.fail(f"more than {MAX_NODES} operations and numbers")
        if isinstance(node, ast.Name) and node.id == "pi":
            return Fraction(0), Fraction(1)
        if isinstance(node, ast.Constant) and type(node.value) is int and node.value < 10**6:
            return Fraction(node.value), Fraction(0)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            a, b = self.linear_in_pi(node.operand)
            return (-a, -b) if isinstance(node.op, ast.USub) else (a, b)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            (a, b), (c, d) = self.linear_in_pi(node.left), self.linear_in_pi(node.right)
            if isinstance(node.op, ast.Add):
                return a + c, b + d
            if isinstance(node.op, ast.Sub):
                return a - c, b - d
            if isinstance(node.op, ast.Mult) and (b == 0 or d == 0):
                return a * c, a * d + b * c
            if isinstance(node.op, ast.Div) and d == 0 and c != 0:
                return a / c, b / c
        self.fail(f"not a rational multiple of pi: {ast.unparse(node)[:60]!r}")


def _cos_degree(r: Fraction) -> int:
    """[Q(cos(r pi)) : Q] = phi(m)/2 for the order m >= 3 of exp(i r pi), else 1."""
    m = 2 * r.denominator if r.numerator % 2 else r.denominator
    phi = sum(1 for k in range(1, m + 1) if math.gcd(k, m) == 1)
    return max(1, phi // 2)


def read_number(text: str) -> tuple[tuple, int]:
    """The checked tree of `text` and its static degree bound; Problem when it is out of
    bounds."""
    try:
        parsed = ast.parse(text.replace("^", "**"), mode="eval")
    except (SyntaxError, ValueError):
        raise Problem(SYNTAX, "not an expression (write e.g. sqrt(2) + 3^(1/3))") from None
    tree, degree, height = _Reader().read(parsed.body)
    if degree > MAX_DEGREE:
        raise Problem(DEGREE, f"the static degree bound is {degree}, more than {MAX_DEGREE}")
    if height > MAX_HEIGHT:
        raise Problem(HEIGHT, f"the static height is {height:.0f}, more than {MAX_HEIGHT}")
    return tree, degree


def number_problem(self):
    """The request's number reads within the grammar, the degree and the height bounds."""
    try:
        read_number(self.number)
    except Problem as problem:
        return (problem.code, problem.message, ("number",))
    return None


def minimal_polynomial(request) -> dict:
    from ..adapters import flint_numberfield as backend
    tree, _ = read_number(request.number)
    found = backend.minimal(tree)
    if found is None:
        return {"status": "undefined",
                "reason": "a division by zero or a negative power of zero"}
    coefficients, (re, im) = found
    d = len(coefficients) - 1
    trace = Fraction(-coefficients[1], coefficients[0])
    return {"status": "algebraic",
            "minimal_polynomial": {"variable": "x", "coefficients": coefficients},
            "degree": d, "trace": trace,
            "norm": Fraction((-1) ** d * coefficients[-1], coefficients[0]),
            "value": trace if d == 1 else None, "approx": _decimal(re, im)}


def _decimal(re: Fraction, im: Fraction) -> str:
    """17 significant digits of each part (a part below 10^-50 of the other is rounding
    noise of the working precision and reads as 0)."""
    size = max(abs(re), abs(im))
    re, im = (0 if abs(x) < size / 10**50 else x for x in (re, im))

    import decimal  # in the worker's child only

    def text(x: Fraction) -> str:
        with decimal.localcontext() as context:
            context.prec = 17
            return f"{decimal.Decimal(x.numerator) / decimal.Decimal(x.denominator):g}"
    return text(Fraction(re)) if im == 0 else \
        f"{text(Fraction(re))} {'+' if im > 0 else '-'} {text(abs(Fraction(im)))}*I"
