"""The minimal polynomial, norm and trace of an algebraic number (`nt.algebraic.minimal_polynomial`).

The number is written as text in a small grammar read here with Python's `ast` (never `eval`,
never sympy's parser): integers, I, + - * /, powers with a rational exponent (^ or **; a
fractional power is the principal value), sqrt and cbrt (principal), and cos/sin of a rational
multiple of pi. Reading it yields a syntax tree and a static bound on the number's degree over
Q (deg(a op b) <= deg a * deg b, deg a^(p/q) <= q deg a, deg cos(r pi) = phi(m)/2 for the
order m >= 3 of exp(i r pi)) and a static height, a proved bound on log10 of the Mahler measure
of every polynomial the computation builds (so on its coefficients), which the request contract
limits before anything is computed.

The minimal polynomial is built bottom-up by exact resultants (adapters/sympy_numberfield.py):
each node gets an integer polynomial having the node's value as a root (Res_y(f(y), g(x - y))
for a sum, the homogenised product for a product, f(x^q) for a q-th root, T_q(x) -+ 1 for a
cosine), which is factored over Q at once; of its irreducible factors the one that vanishes at
the node's value is kept. That choice is the only numerical step: the value is computed with
mpmath at a precision raised until exactly one factor is below 10^(-digits/2) relative to its
size while every other is far from zero (distinct irreducible polynomials share no root, so
some precision separates them). The kept factor is the minimal polynomial because it is
irreducible, vanishes at the number, and is primitive with a positive leading coefficient.
Before a fractional power, a value whose imaginary part vanishes to the working precision is
taken as real when its minimal polynomial has a real root that close (an exact Sturm count),
so rounding noise never picks the other side of the branch cut. Norm and trace are those of
Q(alpha)/Q, read off the coefficients.
"""

from __future__ import annotations

import ast
import decimal
import math
from fractions import Fraction
from typing import Annotated, Literal

from pydantic import BaseModel, Field, PrivateAttr, model_validator

from ..primitives import CONFIG, Count, IntegerPolynomial, OutRat, Rule, reject, tagged
from ..tool import Bounds, Example, MathTool

MAX_TEXT = 400
MAX_NODES = 60
MAX_DEGREE = 16
MAX_LITERAL_DIGITS = 12
MAX_EXPONENT = 16
MAX_HEIGHT = 3000
LOG2 = math.log10(2)

RULE_GRAMMAR = Rule(
    "algebraic_syntax",
    "The number is one expression over: integers below 10^12, I (the imaginary unit), + - * / "
    "and parentheses, powers a^(p/q) or a**(p/q) with integers |p| <= 16 and 1 <= q <= 16 (a "
    "fractional power is the principal value), sqrt(a) and cbrt(a) (principal), and "
    "cos(r*pi), sin(r*pi) with r rational (e.g. cos(2*pi/7)); no variables, no decimals, at "
    f"most {MAX_NODES} operations and numbers.")
RULE_DEGREE = Rule(
    "algebraic_degree_too_large",
    f"The static degree bound must be at most {MAX_DEGREE}: it multiplies over + - * /, "
    "multiplies by q for a power p/q (2 for sqrt, 3 for cbrt), is 2 for I and phi(m)/2 for "
    "cos or sin of r*pi (m the order of exp(i r pi); sin(r pi) = cos((1/2 - r) pi)); e.g. "
    "sqrt(2) + sqrt(3) + sqrt(5) + sqrt(7) has bound 16 and cos(2*pi/17) has bound 8.")

RULE_HEIGHT = Rule(
    "algebraic_height_too_large",
    f"The static height h must be at most {MAX_HEIGHT}: h bounds log10 of the Mahler measure "
    "M of the number's minimal polynomial, so its coefficients have at most h + 5 digits "
    "(|c_k| <= C(d, k) M). An integer or p/q has h = log10 max(|p|, q), I has 0, cos/sin of "
    "r*pi with denominator q has (q - 1) log10 2; -a and 1/a keep h(a); a * b and a / b have "
    "d(b) h(a) + d(a) h(b), a + b and a - b that plus d(a) d(b) log10 2 (d the degree bounds); "
    "a^(p/q) has max(1, |p|) h(a), sqrt and cbrt h(a).")

_BINARY = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div"}


class _Reader:
    """Checks the syntax tree of the text and builds the library's tree: ("rat", Fraction),
    ("i",), ("neg", a), (op, a, b), ("pow", a, Fraction), ("cos", Fraction r) = cos(r pi)."""

    def __init__(self) -> None:
        self.nodes = 0

    def fail(self, message: str):
        reject(RULE_GRAMMAR.code, message, ("number",))

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
    """The checked tree of `text` and its static degree bound (rejects what is out of bounds)."""
    try:
        parsed = ast.parse(text.replace("^", "**"), mode="eval")
    except (SyntaxError, ValueError):
        reject(RULE_GRAMMAR.code, "not an expression (write e.g. sqrt(2) + 3^(1/3))",
               ("number",))
    tree, degree, height = _Reader().read(parsed.body)
    if degree > MAX_DEGREE:
        reject(RULE_DEGREE.code, f"the static degree bound is {degree}, more than "
               f"{MAX_DEGREE}", ("number",))
    if height > MAX_HEIGHT:
        reject(RULE_HEIGHT.code, f"the static height is {height:.0f}, more than {MAX_HEIGHT}",
               ("number",))
    return tree, degree


class MinimalPolynomialRequest(BaseModel):
    model_config = CONFIG
    number: Annotated[str, Field(max_length=MAX_TEXT, description=(
        "The algebraic number, e.g. \"sqrt(2) + cbrt(3)\", \"(1 + sqrt(5))/2\", "
        "\"cos(2*pi/7)\", \"2^(1/4) + I\". " + RULE_GRAMMAR.text + " " + RULE_DEGREE.text
        + " " + RULE_HEIGHT.text))]
    _tree: tuple = PrivateAttr()
    _degree_bound: int = PrivateAttr()

    @model_validator(mode="after")
    def _read(self) -> "MinimalPolynomialRequest":
        self._tree, self._degree_bound = read_number(self.number)
        return self


class Algebraic(BaseModel):
    model_config = CONFIG
    status: Literal["algebraic"]
    minimal_polynomial: IntegerPolynomial = Field(description=(
        "The minimal polynomial over Q in x: irreducible, primitive in Z[x], positive leading "
        "coefficient, with the number as a root."))
    degree: Count(1, MAX_DEGREE) = Field(description="[Q(alpha) : Q].")
    trace: OutRat = Field(description=(
        "Tr_{Q(alpha)/Q}(alpha), the sum of the conjugates: -c_(d-1)/c_d."))
    norm: OutRat = Field(description=(
        "N_{Q(alpha)/Q}(alpha), the product of the conjugates: (-1)^d c_0/c_d."))
    value: OutRat | None = Field(description="The number itself when it is rational (degree 1).")
    approx: str = Field(description=(
        "A decimal approximation (17 digits), for reading only; it tells which root of the "
        "minimal polynomial the number is (poly.roots with isolate gives exact regions)."))


class Undefined(BaseModel):
    model_config = CONFIG
    status: Literal["undefined"]
    reason: str = Field(description="Where the expression divides by zero or raises 0 to a "
                                    "negative power.")


MinimalPolynomialResult = tagged(Algebraic, Undefined)


def minimal_polynomial(request: MinimalPolynomialRequest):
    from ..adapters import sympy_numberfield as backend
    found = backend.minimal(request._tree)
    if found is None:
        return Undefined(status="undefined", reason="a division by zero or a negative power "
                                                    "of zero")
    coefficients, (re, im) = found
    d = len(coefficients) - 1
    trace = Fraction(-coefficients[1], coefficients[0])
    return Algebraic(
        status="algebraic", degree=d, trace=trace,
        norm=Fraction((-1) ** d * coefficients[-1], coefficients[0]),
        minimal_polynomial=IntegerPolynomial(variable="x", coefficients=coefficients),
        value=trace if d == 1 else None, approx=_decimal(re, im))


def _decimal(re: Fraction, im: Fraction) -> str:
    """17 significant digits of each part (a part below 10^-50 of the other is rounding
    noise of the working precision and reads as 0)."""
    size = max(abs(re), abs(im))
    re, im = (0 if abs(x) < size / 10**50 else x for x in (re, im))

    def text(x: Fraction) -> str:
        with decimal.localcontext() as context:
            context.prec = 17
            return f"{decimal.Decimal(x.numerator) / decimal.Decimal(x.denominator):g}"
    return text(Fraction(re)) if im == 0 else \
        f"{text(Fraction(re))} {'+' if im > 0 else '-'} {text(abs(Fraction(im)))}*I"


MINIMAL_POLYNOMIAL = MathTool(
    identifier="nt.algebraic.minimal_polynomial",
    vocabulary=(
        "minimal polynomial", "minimal polynomial of an algebraic number", "algebraic number",
        "field norm", "field trace", "norm and trace", "degree of an algebraic number",
        "number field", "conjugates", "nested radicals", "algebraic degree", "denesting"),
    synonyms=("minpoly", "radicals", "sqrt", "cbrt", "algebraic integer", "Q(alpha)"),
    claim=("For an algebraic number alpha written with integers, I, + - * /, rational powers "
           "(principal values), sqrt, cbrt and cos/sin of rational multiples of pi, with static "
           "degree bound <= 16: its minimal polynomial over Q (irreducible, primitive, "
           "positive leading coefficient; built by exact resultants and factorisation, the "
           "vanishing factor chosen by a numerical separation at raised precision), [Q(alpha):Q], "
           "the norm and trace of Q(alpha)/Q, and a decimal approximation naming which root "
           "alpha is; undefined when the expression divides by zero."),
    request=MinimalPolynomialRequest, result=MinimalPolynomialResult,
    function=minimal_polynomial, adapters=("sympy_numberfield",),
    rules=(RULE_GRAMMAR, RULE_DEGREE, RULE_HEIGHT),
    examples=(
        Example.of(
            "Compute the minimal polynomial, norm and trace of sqrt(2) + sqrt(3) (x^4 - 10x^2 "
            "+ 1, norm 1, trace 0); the number is one expression over integers, I, + - * /, "
            "rational powers, sqrt, cbrt and cos/sin of rational multiples of pi.",
            {"number": "sqrt(2) + sqrt(3)"}),
        Example.of(
            "Compute the minimal polynomial of cos(2*pi/7) (8x^3 + 4x^2 - 4x - 1); the "
            "argument of cos or sin must be a rational multiple of pi.",
            {"number": "cos(2*pi/7)"})),
    bounds=Bounds(
        input=f"Text <= {MAX_TEXT} characters, <= {MAX_NODES} operations and numbers, "
              f"integers below 10^{MAX_LITERAL_DIGITS}, exponents p/q with |p|, q <= "
              f"{MAX_EXPONENT}, and a static degree bound <= {MAX_DEGREE} (computed from the "
              "syntax tree before anything else).",
        computation=f"At most {MAX_NODES} nodes; a node with a rational operand is an exact "
                    "shift, scaling or reversal; any other is one resultant of two "
                    "polynomials whose degrees multiply to at most 16 and one factorisation "
                    "over Q of degree <= 16 (a q-th root: of f(x^q); a cosine: of T_m -+ 1, "
                    "degree <= 64), plus the numerical choice of a factor at 60 to 960 "
                    "digits; every polynomial on the way has Mahler measure below 10^h, h <= "
                    f"{MAX_HEIGHT} (the static height), which bounds its coefficients. "
                    "Measured: <= 1.3 s at the bounds (a 15th power of cos(2 pi/17) + "
                    "sqrt(999999999989), h = 1657; a cube of a 16th root times a 12-digit "
                    "integer, h = 2930; sums of four square roots of 12-digit primes), 13% of "
                    "the 10 s deadline.",
        output=f"A polynomial of degree d <= 16 whose Mahler measure M is at most 10^h, h <= "
               f"{MAX_HEIGHT} the static height (a bound proved node by node, see the rule), "
               "so every coefficient is at most C(d, k) M < 2^16 10^h: at most "
               f"{MAX_HEIGHT + 5} digits, inside the 4000-digit result limit; norm and trace "
               "are ratios of two coefficients."))


TOOLS = (MINIMAL_POLYNOMIAL,)
