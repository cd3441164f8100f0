"""The passive value types shared by every domain (MATH.md §4 and §6).

These are the only cross-domain contracts: exact integers, rationals, counts, matrices,
univariate polynomials, CNF formulas and algebraic numbers. Each is a Pydantic type whose JSON
Schema shows its valid representation; where a rule can only be checked by a validator (reduced
fractions, matrix shape, canonical clause order) the rule's text is in the schema description,
together with a small valid example, so a caller can form a correct first request.

Python-side values: `BigInt` fields hold `int`, `Rat` fields hold `fractions.Fraction`.
A request may write an exact integer as a JSON integer of any size (Python and this library read
it exactly; scripts hold exact ints) or as decimal text, which keeps it exact through JSON layers
that read numbers as float64; schema and validator both say so. Results write integers beyond
2^53-1 as text. A `Rat` is always canonical text (`"3/4"`, `"-2"`) on the way out. Floats are
never accepted in an exact field.
"""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction
from typing import Annotated, Any, Literal, NamedTuple, NoReturn, Union

from pydantic import (BaseModel, ConfigDict, Field, PlainSerializer, PlainValidator,
                      ValidationError, WithJsonSchema, create_model, model_validator)
from pydantic_core import InitErrorDetails, PydanticCustomError

from .kernels import checks, cnf
from .kernels.checks import OUTPUT_DIGITS
from .kernels.cnf import MAX_CLAUSE_LENGTH, MAX_CLAUSES, MAX_OCCURRENCES, MAX_VARS

# Integers beyond this lose precision in float64-based JSON layers: results write them as text,
# and a schema's integer bounds stay within it (a 300-digit "maximum" would overflow the float
# a provider's JSON parser reads it into), the exact range being in the description and pattern.
MAX_SAFE = 2**53 - 1

# Every exact integer in a result stays below OUTPUT_DIGITS decimal digits (kernels/checks.py).

# `defer_build`: a model builds its validator on first use, not when its module is imported, so
# a process builds only the models of the operations it runs (MathTool.build_validators).
CONFIG = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)


class Rule(NamedTuple):
    """A validator-only rule: its stable error code and the sentence the schema shows for it."""

    code: str
    text: str


def reject(code: str, message: str, loc: tuple = (), value: Any = None) -> NoReturn:
    """Raise a validation error with a stable `code` at `loc` (relative to the model)."""
    raise ValidationError.from_exception_data("request", [InitErrorDetails(
        type=PydanticCustomError(code, "{detail}", {"detail": message}), loc=loc, input=value)])


def after(find: Any) -> Any:
    """A model validator (mode "after") that rejects with the problem `find(model)` returns,
    `(code, message, loc)` or None. `find` is a Pydantic-free function (stdlib/math/kernels),
    named in the validator's `plain` attribute so that stdlib.math.plain runs the same rule."""
    return _rule(find, "after")


def before(find: Any) -> Any:
    """The same for a model validator of mode "before": `find` gets the raw input."""
    return _rule(find, "before")


def _rule(find: Any, mode: str) -> Any:
    def check(value: Any) -> Any:
        problem = find(value)
        if problem is not None:
            reject(*problem)
        return value
    check.plain = f"{find.__module__}:{find.__qualname__}"
    return model_validator(mode=mode)(check)


def canonical_json(value: Any) -> str:
    """The one JSON spelling used in descriptions and messages (`{"a": 1, "b": [2, 3]}`)."""
    return json.dumps(value, ensure_ascii=False)


# --- counts -------------------------------------------------------------------------------

def Count(lo: int, hi: int, description: str | None = None) -> Any:
    """A small integer (size, index, multiplicity, budget): a JSON integer in [lo, hi]."""
    return Annotated[int, Field(strict=True, ge=lo, le=hi, description=description)]


# --- exact integers -----------------------------------------------------------------------

def _positive_pattern(digits: int, power: bool) -> str:
    body = f"[1-9][0-9]{{0,{digits - 1}}}"
    return f"{body}|10{{{digits}}}" if power else body


def _integer_branch(low: int, top: int) -> dict:
    """The JSON-integer half of an exact number's schema: its bounds where they are safe
    numbers, else none (the description and the text pattern state the range)."""
    branch: dict = {"type": "integer"}
    if -MAX_SAFE <= low:
        branch["minimum"] = low
    if top <= MAX_SAFE:
        branch["maximum"] = top
    return branch


def BigInt(digits: int = OUTPUT_DIGITS, *, minimum: int | None = None, power: bool = False,
           description: str | None = None) -> Any:
    """An exact integer with |n| < 10^digits (|n| <= 10^digits when `power`), n >= minimum.

    `minimum` may be None, 0, 1 or 2: those are the bounds the catalog needs, and each has an
    exact text pattern, so the schema states the whole input domain.
    """
    if minimum not in (None, 0, 1, 2):
        raise ValueError("BigInt minimum must be None, 0, 1 or 2")
    top = 10**digits if power else 10**digits - 1
    low = -top if minimum is None else minimum
    pos = _positive_pattern(digits, power)
    text = {None: f"^(0|-?({pos}))$", 0: f"^(0|{pos})$", 1: f"^({pos})$",
            2: f"^([2-9]|[1-9][0-9]{{1,{digits - 1}}}{'|10{%d}' % digits if power else ''})$"
            }[minimum]
    pattern = re.compile(text)
    bound = f"10^{digits}" if power else f"10^{digits} - 1"
    rng = (f"|n| <= {bound}" if minimum is None else f"{minimum} <= n <= {bound}")
    doc = (f"An exact integer with {rng}: a JSON integer (read exactly at any size) or decimal "
           f"text such as \"9007199254740993\" (text keeps integers beyond 2^53-1 exact through "
           f"JSON layers that read numbers as float64).")

    def validate(value: Any) -> int:
        if type(value) is int:
            n = value
        elif type(value) is str:
            if not pattern.fullmatch(value):
                reject("integer_text", f"{value[:40]!r} is not an integer in decimal text "
                       f"with {rng} (no sign '+', no leading zeros, no decimals)", value=value)
            n = int(value)
        else:
            reject("integer_type", f"expected an exact integer (JSON integer or decimal text), "
                   f"got {type(value).__name__}", value=value)
        if not low <= n <= top:
            reject("integer_out_of_range", f"integer out of range: need {rng}", value=value)
        return n

    validate.plain = {"kind": "bigint", "digits": digits, "minimum": minimum, "power": power,
                      "pattern": text}

    def serialize(n: int, info: Any) -> int | str:
        return str(n) if info.mode_is_json() and abs(n) > MAX_SAFE else n

    schema = {"anyOf": [_integer_branch(low, top), {"type": "string", "pattern": text}],
              "description": description + " " + doc if description else doc}
    return Annotated[int, PlainValidator(validate),
                     PlainSerializer(serialize, when_used="always"),
                     WithJsonSchema(schema)]


# --- exact rationals ----------------------------------------------------------------------

RULE_RATIONAL = Rule("rational_not_reduced",
                     "A fraction must be in lowest terms with a denominator of at least 2 and the "
                     "sign on the numerator (write 3, not 3/1 or 6/2); decimals are not accepted "
                     "(write 1/2, not 0.5).")

_RATIONAL_TEXT = re.compile(r"^(0|-?[1-9][0-9]*)(?:/([1-9][0-9]*))?$")
_DECIMAL_TEXT = re.compile(r"^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$")


def _decimal_hint(text: str) -> str:
    """`write 1/2` for `0.5`: the exact rational a decimal text denotes, if it is small."""
    if len(text) <= 40:
        try:
            return f"; write {Fraction(text)}"
        except (ValueError, ZeroDivisionError):
            pass
    return ""


def Rat(num_digits: int, den_digits: int, description: str | None = None) -> Any:
    """An exact rational p/q with |p| < 10^num_digits and q < 10^den_digits, canonical text out."""
    pattern = f"^(0|-?[1-9][0-9]{{0,{num_digits - 1}}})(/[1-9][0-9]{{0,{den_digits - 1}}})?$"
    rng = f"numerator below 10^{num_digits} in absolute value, denominator below 10^{den_digits}"
    doc = (f"An exact rational number: a JSON integer, or text \"p\" or \"p/q\" "
           f"(e.g. \"-3/4\"), {rng}. " + RULE_RATIONAL.text)

    def validate(value: Any) -> Fraction:
        if type(value) in (int, Fraction):
            # Fractions arrive only from Python code (domain results); they are exact and
            # always in lowest terms, so only the size bound remains to check.
            q = Fraction(value)
            if abs(q.numerator) >= 10**num_digits or q.denominator >= 10**den_digits:
                reject("rational_out_of_range", f"rational out of range: need {rng}",
                       value=str(value))
            return q
        if type(value) is not str:
            reject("rational_type", "expected an exact rational (JSON integer or text like "
                   f"\"3/4\"), got {type(value).__name__}" + (
                       "; write the fraction as text, e.g. \"1/2\" for 0.5"
                       if type(value) is float else ""), value=value)
        match = _RATIONAL_TEXT.fullmatch(value)
        if match is None:
            if _DECIMAL_TEXT.fullmatch(value):
                reject("rational_decimal", f"{value!r} is a decimal; exact rationals are "
                       f"written p/q{_decimal_hint(value)}", value=value)
            reject("rational_text", f"{value[:40]!r} is not a rational written \"p\" or \"p/q\"",
                   value=value)
        num, den = int(match.group(1)), int(match.group(2) or 1)
        if abs(num) >= 10**num_digits or den >= 10**den_digits:
            reject("rational_out_of_range", f"rational out of range: need {rng}", value=value)
        if match.group(2) is not None and (den == 1 or math.gcd(num, den) != 1):
            reject(RULE_RATIONAL.code, f"{value} is not canonical; write {Fraction(num, den)}",
                   value=value)
        return Fraction(num, den)

    validate.plain = {"kind": "rational", "num_digits": num_digits, "den_digits": den_digits}
    schema = {"anyOf": [_integer_branch(-(10**num_digits - 1), 10**num_digits - 1),
                        {"type": "string", "pattern": pattern}],
              "description": description + " " + doc if description else doc}
    return Annotated[Fraction, PlainValidator(validate),
                     PlainSerializer(str, when_used="always"), WithJsonSchema(schema)]


# Output rationals: bounded only by the output digit budget; they always print as text.
OutRat = Rat(OUTPUT_DIGITS, OUTPUT_DIGITS)
OutInt = BigInt(OUTPUT_DIGITS)

# --- names --------------------------------------------------------------------------------

Name = Annotated[str, Field(strict=True, pattern=r"^[a-z][a-z0-9_]{0,7}$", description=(
    "A variable name: a lowercase letter followed by at most 7 lowercase letters, digits or "
    "underscores."))]


# --- matrices -----------------------------------------------------------------------------

RULE_MATRIX_SHAPE = Rule("matrix_row_length",
                         "rows must hold exactly nrows lists and every row exactly ncols "
                         "entries; explicit shapes make empty matrices such as 0x3 expressible.")
RULE_SQUARE = Rule("matrix_not_square", "The matrix must be square (nrows == ncols).")


def matrix_model(name: str, entry: Any, max_size: int, entry_text: str, *,
                 square: bool = False) -> type[BaseModel]:
    """A matrix type `{nrows, ncols, rows}` with at most `max_size` rows and columns; `square`
    only changes what the description says and shows (the request checks the shape)."""
    example = ({"nrows": 2, "ncols": 2, "rows": [[1, 0], [-2, 3]]} if square else
               {"nrows": 2, "ncols": 3, "rows": [[1, 0, -2], [0, 1, 3]]})
    kind = "A square matrix" if square else "A matrix"

    return create_model(
        name, __config__=CONFIG,
        __doc__=(f"{kind} of {entry_text}, at most {max_size}x{max_size}. "
                 f"{RULE_MATRIX_SHAPE.text} Example: {canonical_json(example)}"),
        __validators__={"shape": after(checks.matrix_shape)},
        nrows=(Count(0, max_size, "Number of rows."), ...),
        ncols=(Count(0, max_size, "Number of columns."), ...),
        rows=(Annotated[list[Annotated[list[entry], Field(max_length=max_size)]],
                        Field(max_length=max_size, description="The rows, top to bottom.")], ...))


# --- univariate polynomials -----------------------------------------------------------------

RULE_LEADING = Rule("polynomial_leading_zero",
                    "Coefficients are listed from the highest degree down and the first one "
                    "must be nonzero; the zero polynomial is the empty list.")


def poly_model(name: str, entry: Any, max_degree: int, entry_text: str, *,
               nonzero: bool = False) -> type[BaseModel]:
    """A univariate polynomial `{variable, coefficients}`, coefficients highest degree first."""
    example = {"variable": "x", "coefficients": [1, 0, "-1/2"]}

    zero = " It must not be the zero polynomial." if nonzero else ""
    return create_model(
        name, __config__=CONFIG,
        __doc__=(f"A polynomial in one variable of degree at most {max_degree} with "
                 f"{entry_text}. {RULE_LEADING.text}{zero} "
                 f"Example (x^2 - 1/2): {canonical_json(example)}"),
        __validators__={"leading": after(checks.leading_coefficient)},
        variable=(Name, ...),
        coefficients=(Annotated[list[entry], Field(min_length=1 if nonzero else 0,
                                                   max_length=max_degree + 1)], ...))


class IntegerPolynomial(BaseModel):
    """A primitive polynomial with integer coefficients and a positive leading coefficient
    (the canonical representative of an irreducible factor or minimal polynomial), listed
    from the highest degree down."""

    model_config = CONFIG
    variable: Name
    coefficients: Annotated[list[OutInt], Field(min_length=1)]

    _canonical = after(checks.primitive_polynomial)


# --- CNF formulas ---------------------------------------------------------------------------

# The bounds, the canonical order and the rules of CNF formulas: kernels/cnf.py (Pydantic-free).

RULE_LITERAL = Rule("literal_out_of_range",
                    "Every literal is a nonzero integer whose absolute value is at most num_vars "
                    f"(-v means not v); at most {MAX_OCCURRENCES} literal occurrences in all.")
RULE_CANONICAL = Rule("cnf_not_canonical",
                      "Canonical form: inside a clause the variables strictly increase by "
                      "absolute value (so no variable twice and no complementary pair); clauses "
                      "are sorted by length, then lexicographically by the keys (|l|, l) of their "
                      "literals (so -3 sorts before 3), with no duplicate clause; the empty "
                      "clause, if present, comes first. sat.cnf.canonicalize produces this form.")

CnfLiteral = Annotated[int, Field(strict=True, ge=-MAX_VARS, le=MAX_VARS), WithJsonSchema({
    "anyOf": [{"type": "integer", "minimum": -MAX_VARS, "maximum": -1},
              {"type": "integer", "minimum": 1, "maximum": MAX_VARS}],
    "description": "A literal: v or -v for a variable 1 <= v <= num_vars."})]


_CNF_FIELDS = dict(
    num_vars=(Count(0, MAX_VARS, "Number of variables; they are 1..num_vars."), ...),
    clauses=(Annotated[list[Annotated[list[CnfLiteral], Field(max_length=MAX_CLAUSE_LENGTH)]],
                       Field(max_length=MAX_CLAUSES, description=(
                           "The clauses; each is a list of literals read as their "
                           "disjunction, the formula is their conjunction."))], ...))

CNF = create_model(
    "CNF", __config__=CONFIG,
    __doc__=(f"A formula in conjunctive normal form over variables 1..num_vars. "
             f"{RULE_LITERAL.text} Example: "
             f"{canonical_json({'num_vars': 3, 'clauses': [[3, -1, 3], [2, -2], [-1, 3]]})}"),
    __validators__={"size": before(cnf.too_many_occurrences),
                    "range": after(cnf.literal_out_of_range)},
    **_CNF_FIELDS)

CanonicalCNF = create_model(
    "CanonicalCNF", __config__=CONFIG,
    __doc__=(f"A CNF formula in canonical form. {RULE_LITERAL.text} {RULE_CANONICAL.text} "
             f"Example: {canonical_json({'num_vars': 3, 'clauses': [[-1, 3], [1, 2, -3]]})}"),
    __validators__={"size": before(cnf.too_many_occurrences),
                    "range": after(cnf.literal_out_of_range),
                    "canonical": after(cnf.not_canonical)},
    **_CNF_FIELDS)


# --- algebraic numbers (output only) --------------------------------------------------------

class RealRoot(BaseModel):
    """The index-th real root (1-based, increasing order) in an exact isolating interval."""

    model_config = CONFIG
    kind: Literal["real"]
    index: Count(1, 10**4)
    interval: Annotated[list[OutRat], Field(min_length=2, max_length=2)]


class NonrealRoot(BaseModel):
    """The index-th non-real root (1-based; ordered by real part, then imaginary part) in an
    exact isolating box [re_low, re_high, im_low, im_high]."""

    model_config = CONFIG
    kind: Literal["nonreal"]
    index: Count(1, 10**4)
    box: Annotated[list[OutRat], Field(min_length=4, max_length=4)]


class AlgebraicNumber(BaseModel):
    """One root of an irreducible integer polynomial, named by an exact isolating region.

    `approx` is a decimal approximation for reading only; the value is the polynomial and the
    region, which contains exactly this root.
    """

    model_config = CONFIG
    minimal_polynomial: IntegerPolynomial
    root: Annotated[RealRoot | NonrealRoot, Field(discriminator="kind")]
    approx: str


def tagged(*models: type[BaseModel], tag: str = "status") -> Any:
    """A result union discriminated by its `status` (or `kind`) literal field."""
    return Annotated[Union[models], Field(discriminator=tag)]
