"""A checked reader for the SMT-LIB 2 subset that `smt.solve` accepts (MATH.md §3.3, §5.5).

z3's own parser is not a safe front end: it applies `set-option` to process-global parameters,
silently ignores or obeys `check-sat`, `push` and `exit`, and accepts a `forall` under
`(set-logic QF_LIA)`. This reader is pure Python and runs before any backend: it tokenizes,
parses and sort-checks the script, enforces the declared logic (operators, sorts, linearity,
no quantifiers) and the size limits, and returns a typed syntax tree that the z3 adapter turns
into terms in a fresh context. Every rejection names its line and column.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from fractions import Fraction

MAX_SCRIPT = 16384
MAX_DECLARATIONS = 200
MAX_ASSERTIONS = 500
MAX_ARITHMETIC_CONSTANTS = 50
MAX_NUMERAL_DIGITS = 12
MAX_BV_WIDTH = 256
MAX_DEPTH = 100
# The linearised query (let bindings and define-fun applications expanded) that z3's arithmetic
# solver sees: every arithmetic term is (a1 x1 + ... + an xn + a0) / d with d and every |ai|
# below 10^MAX_COEFFICIENT_DIGITS, over at most MAX_ARITHMETIC_UNKNOWNS columns; expanding it
# visits at most MAX_EXPANDED_TERMS terms. smt.py derives the model-size bound from these.
MAX_COEFFICIENT_DIGITS = 12
MAX_ARITHMETIC_UNKNOWNS = 64
MAX_EXPANDED_TERMS = 20000
# Output: a row of the solver's tableau relates at most two such forms (a comparison, an
# equality, the definition of an ite/abs column, a function-argument case), so cleared of
# denominators its entries are below 2 * 10^24, times at most 64 occurrences of one column:
# below 10^ROW_DIGITS. A simplex vertex is a ratio of two minors of order <= 64 (Cramer), and
# Hadamard bounds each by (sqrt(64) * 10^ROW_DIGITS)^64: MODEL_DIGITS digits.
ROW_DIGITS = 2 * MAX_COEFFICIENT_DIGITS + 3
MODEL_DIGITS = math.ceil(MAX_ARITHMETIC_UNKNOWNS * (ROW_DIGITS +
                                                    math.log10(MAX_ARITHMETIC_UNKNOWNS) / 2))


@dataclass(frozen=True)
class Logic:
    ints: bool = False
    reals: bool = False
    uf: bool = False
    bv: bool = False
    nonlinear: bool = False


LOGICS = {
    "QF_LIA": Logic(ints=True), "QF_LRA": Logic(reals=True),
    "QF_LIRA": Logic(ints=True, reals=True), "QF_UF": Logic(uf=True),
    "QF_UFLIA": Logic(uf=True, ints=True), "QF_UFLRA": Logic(uf=True, reals=True),
    "QF_BV": Logic(bv=True),
    "QF_NIA": Logic(ints=True, nonlinear=True), "QF_NRA": Logic(reals=True, nonlinear=True),
}


class SmtError(Exception):
    """A rejected script: a stable code, a message and the position it refers to."""

    def __init__(self, code: str, message: str, line: int, col: int):
        super().__init__(f"line {line}, column {col}: {message}")
        self.code = code


# --- sorts and terms ------------------------------------------------------------------------

BOOL, INT, REAL = ("Bool",), ("Int",), ("Real",)


def bitvec(width: int) -> tuple:
    return ("BitVec", width)


def sort_text(sort: tuple) -> str:
    if sort[0] == "BitVec":
        return f"(_ BitVec {sort[1]})"
    if sort[0] == "Sort":
        return sort[1]
    return sort[0]


@dataclass(frozen=True)
class Term:
    """A checked term. kind is one of: bool, int, real, bv (literals, `value`), ref (a let
    variable or define-fun parameter, `name`), app (a declared or defined function applied to
    `args`), op (a builtin operator `name` with `indices` and `args`), let (`bindings`, `body`).
    """

    kind: str
    sort: tuple
    name: str = ""
    value: object = None
    args: tuple = ()
    indices: tuple = ()
    bindings: tuple = ()
    body: "Term | None" = None
    line: int = field(default=0, compare=False)
    col: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Declaration:
    name: str
    domain: tuple
    sort: tuple


@dataclass(frozen=True)
class Definition:
    name: str
    params: tuple
    sort: tuple
    body: Term


@dataclass(frozen=True)
class Assertion:
    term: Term
    label: str | None


@dataclass(frozen=True)
class Script:
    """The checked query: commands in source order (declarations, definitions, assertions)."""

    logic: str
    sorts: tuple
    commands: tuple

    @property
    def declarations(self) -> list[Declaration]:
        return [c for c in self.commands if isinstance(c, Declaration)]


# --- tokens and s-expressions ---------------------------------------------------------------

_TOKEN = re.compile(r"""
    (?P<space>[ \t\r\n]+) | (?P<comment>;[^\n]*) | (?P<open>\() | (?P<close>\)) |
    (?P<string>"(?:[^"]|"")*") | (?P<quoted>\|[^|\\]*\|) | (?P<hex>\#x[0-9a-fA-F]+) |
    (?P<binary>\#b[01]+) | (?P<decimal>[0-9]+\.[0-9]+) | (?P<numeral>[0-9]+) |
    (?P<keyword>:[a-zA-Z0-9~!@$%^&*_\-+=<>.?/]+) |
    (?P<symbol>[a-zA-Z~!@$%^&*_\-+=<>.?/][a-zA-Z0-9~!@$%^&*_\-+=<>.?/]*)
""", re.VERBOSE)


@dataclass(frozen=True)
class Atom:
    kind: str
    text: str
    line: int
    col: int


@dataclass(frozen=True)
class Node:
    items: tuple
    line: int
    col: int


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def parse(text: str) -> list:
    """The top-level s-expressions of `text` (atoms and nested nodes with positions)."""
    stack: list[tuple[list, int, int]] = [([], 1, 1)]
    offset = 0
    while offset < len(text):
        match = _TOKEN.match(text, offset)
        line, col = _position(text, offset)
        if match is None:
            raise SmtError("smt_syntax", f"unexpected character {text[offset]!r}", line, col)
        kind = match.lastgroup
        offset = match.end()
        if kind in ("space", "comment"):
            continue
        if kind == "open":
            if len(stack) > MAX_DEPTH:
                raise SmtError("smt_limit", f"nesting deeper than {MAX_DEPTH} levels", line, col)
            stack.append(([], line, col))
        elif kind == "close":
            if len(stack) == 1:
                raise SmtError("smt_syntax", "unbalanced ')'", line, col)
            items, l0, c0 = stack.pop()
            stack[-1][0].append(Node(tuple(items), l0, c0))
        else:
            word = match.group()
            if kind == "quoted":
                kind, word = "symbol", word[1:-1]
            stack[-1][0].append(Atom(kind, word, line, col))
    if len(stack) != 1:
        _, line, col = stack[-1]
        raise SmtError("smt_syntax", "unbalanced '(': missing ')'", line, col)
    return stack[0][0]


# --- the checker ----------------------------------------------------------------------------

_RESERVED = frozenset("""true false not and or xor => = distinct ite let forall exists ! as
    par _ + - * / div mod abs <= < >= > to_real to_int is_int concat extract bvnot bvand bvor
    bvxor bvneg bvadd bvmul bvudiv bvurem bvshl bvlshr bvult bvnand bvnor bvxnor bvcomp bvsub
    bvsdiv bvsrem bvsmod bvashr repeat zero_extend sign_extend rotate_left rotate_right bvule
    bvugt bvuge bvslt bvsle bvsgt bvsge Bool Int Real BitVec""".split())

_FORBIDDEN_COMMANDS = {
    "set-option": "set-option changes process-global solver parameters",
    "set-info": "set-info is not needed: the request carries the query only",
    "check-sat": "the operation checks satisfiability itself; remove check-sat",
    "check-sat-assuming": "the operation checks satisfiability itself",
    "push": "a request holds one query: no push/pop", "pop": "a request holds one query: no push/pop",
    "reset": "a request holds one query", "reset-assertions": "a request holds one query",
    "exit": "a request holds one query", "echo": "no output commands",
}

_BV_NARY = {"bvand", "bvor", "bvxor", "bvadd", "bvmul"}
_BV_BINARY = {"bvudiv", "bvurem", "bvsdiv", "bvsrem", "bvsmod", "bvshl", "bvlshr", "bvashr",
              "bvsub", "bvnand", "bvnor", "bvxnor"}
_BV_COMPARE = {"bvult", "bvule", "bvugt", "bvuge", "bvslt", "bvsle", "bvsgt", "bvsge"}
_BV_INDEXED = {"extract": 2, "zero_extend": 1, "sign_extend": 1, "repeat": 1,
               "rotate_left": 1, "rotate_right": 1}
_ARITH_COMPARE = {"<=", "<", ">=", ">"}


class _Reader:
    def __init__(self, logic: str):
        self.logic_name = logic
        self.logic = LOGICS[logic]
        self.sorts: dict[str, tuple] = {}
        self.functions: dict[str, tuple[tuple, tuple, str]] = {}  # name -> (domain, sort, kind)
        self.labels: set[str] = set()
        self.commands: list = []
        self.declared = 0
        self.asserted = 0
        self.arithmetic_constants = 0

    # -- helpers --

    @staticmethod
    def fail(code: str, message: str, at) -> SmtError:
        return SmtError(code, message, at.line, at.col)

    def divisor(self, message: str, at) -> SmtError:
        """A division by a term: nonlinear in the linear logics; in the nonlinear ones refused
        too, since SMT-LIB leaves x/0 unspecified and a model could not be checked exactly."""
        if self.logic.nonlinear:
            return self.fail("smt_divisor", message + " (division by a term is not accepted: "
                             "SMT-LIB leaves its value at 0 unspecified)", at)
        return self.fail("smt_nonlinear", message + " in a linear logic", at)

    def symbol(self, node, what: str) -> str:
        if not isinstance(node, Atom) or node.kind != "symbol":
            raise self.fail("smt_syntax", f"expected {what} (a symbol)", node)
        return node.text

    def fresh(self, node, what: str) -> str:
        name = self.symbol(node, what)
        if name in _RESERVED or name in self.sorts or name in self.functions or \
                name in self.labels:
            raise self.fail("smt_symbol_taken", f"{what} {name!r} is reserved or already "
                            "declared", node)
        return name

    def sort(self, node) -> tuple:
        if isinstance(node, Atom) and node.kind == "symbol":
            if node.text == "Bool":
                return BOOL
            if node.text == "Int" and self.logic.ints:
                return INT
            if node.text == "Real" and self.logic.reals:
                return REAL
            if node.text in self.sorts:
                return self.sorts[node.text]
            raise self.fail("smt_not_in_logic", f"sort {node.text!r} is not available in "
                            f"{self.logic_name}", node)
        if isinstance(node, Node) and len(node.items) == 3 and all(
                isinstance(i, Atom) for i in node.items) and \
                [i.text for i in node.items[:2]] == ["_", "BitVec"]:
            if not self.logic.bv:
                raise self.fail("smt_not_in_logic", f"bit-vectors are not available in "
                                f"{self.logic_name}", node)
            return bitvec(self.width(node.items[2], node))
        raise self.fail("smt_syntax", "expected a sort", node)

    def width(self, atom, at) -> int:
        if not isinstance(atom, Atom) or atom.kind != "numeral":
            raise self.fail("smt_syntax", "expected a numeral index", at)
        value = int(atom.text) if len(atom.text) <= 6 else MAX_BV_WIDTH + 1
        if not 1 <= value <= MAX_BV_WIDTH:
            raise self.fail("smt_limit", f"bit-vector widths must be between 1 and "
                            f"{MAX_BV_WIDTH}", atom)
        return value

    def bounded(self, value: Fraction | None, at) -> Fraction | None:
        """A constant computed from numerals, refused once it outgrows the coefficient bound
        (so nested products and let chains cannot build huge numbers, even here)."""
        if value is not None and not _small(value):
            raise self.fail("smt_coefficient_too_large", f"this constant is {_size(value)}; "
                            f"constants and coefficients stay below 10^{MAX_COEFFICIENT_DIGITS}"
                            " in numerator and denominator", at)
        return value

    def index(self, atom, at) -> int:
        if not isinstance(atom, Atom) or atom.kind != "numeral" or len(atom.text) > 6:
            raise self.fail("smt_syntax", "expected a small numeral index", at)
        return int(atom.text)

    # -- commands --

    def command(self, node) -> None:
        if not isinstance(node, Node) or not node.items or not isinstance(node.items[0], Atom):
            raise self.fail("smt_syntax", "expected a command such as (assert ...)", node)
        name = node.items[0].text
        args = node.items[1:]
        if name in _FORBIDDEN_COMMANDS or name.startswith("get-"):
            reason = _FORBIDDEN_COMMANDS.get(name, "the result already carries the model, core "
                                             "or reason")
            raise self.fail("smt_command_not_allowed", f"command {name} is not allowed: "
                            f"{reason}", node)
        handler = {"set-logic": self.set_logic, "declare-const": self.declare_const,
                   "declare-fun": self.declare_fun, "declare-sort": self.declare_sort,
                   "define-fun": self.define_fun, "assert": self.assertion}.get(name)
        if handler is None:
            raise self.fail("smt_command_not_allowed", f"command {name} is not allowed; use "
                            "declare-const, declare-fun, declare-sort, define-fun, assert", node)
        handler(node, args)

    def count_declaration(self, node, sort: tuple | None = None) -> None:
        self.declared += 1
        if self.declared > MAX_DECLARATIONS:
            raise self.fail("smt_limit", f"more than {MAX_DECLARATIONS} declarations", node)
        if sort in (INT, REAL):
            self.arithmetic_constants += 1
            if self.arithmetic_constants > MAX_ARITHMETIC_CONSTANTS:
                raise self.fail("smt_limit", f"more than {MAX_ARITHMETIC_CONSTANTS} Int/Real "
                                "constants", node)

    def set_logic(self, node, args) -> None:
        if len(args) != 1 or not isinstance(args[0], Atom) or args[0].text != self.logic_name:
            raise self.fail("smt_command_not_allowed", f"set-logic must repeat the declared "
                            f"logic {self.logic_name}", node)

    def declare_const(self, node, args) -> None:
        if len(args) != 2:
            raise self.fail("smt_syntax", "(declare-const name Sort)", node)
        name = self.fresh(args[0], "constant")
        sort = self.sort(args[1])
        self.count_declaration(node, sort)
        self.functions[name] = ((), sort, "declared")
        self.commands.append(Declaration(name, (), sort))

    def declare_fun(self, node, args) -> None:
        if len(args) != 3 or not isinstance(args[1], Node):
            raise self.fail("smt_syntax", "(declare-fun name (Sort ...) Sort)", node)
        name = self.fresh(args[0], "function")
        domain = tuple(self.sort(s) for s in args[1].items)
        if domain and not self.logic.uf:
            raise self.fail("smt_not_in_logic", f"functions with arguments need an uninterpreted"
                            f"-function logic (QF_UF...), not {self.logic_name}", node)
        sort = self.sort(args[2])
        self.count_declaration(node, None if domain else sort)
        self.functions[name] = (domain, sort, "declared")
        self.commands.append(Declaration(name, domain, sort))

    def declare_sort(self, node, args) -> None:
        if not self.logic.uf:
            raise self.fail("smt_not_in_logic", f"declare-sort needs an uninterpreted-function "
                            f"logic, not {self.logic_name}", node)
        if len(args) != 2 or not isinstance(args[1], Atom) or args[1].text != "0":
            raise self.fail("smt_syntax", "(declare-sort Name 0): only arity 0 is supported",
                            node)
        name = self.fresh(args[0], "sort")
        self.count_declaration(node)
        self.sorts[name] = ("Sort", name)

    def define_fun(self, node, args) -> None:
        if len(args) != 4 or not isinstance(args[1], Node):
            raise self.fail("smt_syntax", "(define-fun name ((param Sort) ...) Sort body)", node)
        name = self.fresh(args[0], "function")
        params, scope = [], {}
        for param in args[1].items:
            if not isinstance(param, Node) or len(param.items) != 2:
                raise self.fail("smt_syntax", "a parameter is (name Sort)", param)
            pname = self.symbol(param.items[0], "parameter")
            if pname in scope:
                raise self.fail("smt_symbol_taken", f"parameter {pname!r} repeated", param)
            psort = self.sort(param.items[1])
            params.append((pname, psort))
            scope[pname] = (psort, None)
        sort = self.sort(args[2])
        body, _ = self.term(args[3], scope)
        self.expect(body.sort, sort, args[3], "the body")
        self.count_declaration(node)
        self.functions[name] = (tuple(s for _, s in params), sort, "defined")
        self.commands.append(Definition(name, tuple(params), sort, body))

    def assertion(self, node, args) -> None:
        if len(args) != 1:
            raise self.fail("smt_syntax", "(assert term)", node)
        label, body = None, args[0]
        if isinstance(body, Node) and body.items and isinstance(body.items[0], Atom) and \
                body.items[0].text == "!":
            items = body.items
            if len(items) != 4 or not isinstance(items[2], Atom) or items[2].text != ":named":
                raise self.fail("smt_syntax", "the only annotation is (! term :named label)",
                                body)
            label = self.fresh(items[3], "label")
            self.labels.add(label)
            body = items[1]
        term, _ = self.term(body, {})
        self.expect(term.sort, BOOL, body, "an assertion")
        self.asserted += 1
        if self.asserted > MAX_ASSERTIONS:
            raise self.fail("smt_limit", f"more than {MAX_ASSERTIONS} assertions", node)
        self.commands.append(Assertion(term, label))

    # -- terms --

    def expect(self, got: tuple, want: tuple, at, what: str) -> None:
        if got != want:
            raise self.fail("smt_sort_mismatch", f"{what} has sort {sort_text(got)}, expected "
                            f"{sort_text(want)}", at)

    def term(self, node, scope: dict) -> tuple[Term, Fraction | None]:
        """The checked term (with its position) and, for arithmetic constants, its value."""
        term, value = self.unplaced_term(node, scope)
        return replace(term, line=node.line, col=node.col), value

    def unplaced_term(self, node, scope: dict) -> tuple[Term, Fraction | None]:
        if isinstance(node, Atom):
            return self.atom(node, scope)
        if not node.items:
            raise self.fail("smt_syntax", "empty term ()", node)
        head = node.items[0]
        if isinstance(head, Node):
            return self.indexed(head, node, scope)
        if head.kind != "symbol":
            raise self.fail("smt_syntax", "a term application starts with a symbol", node)
        name, rest = head.text, node.items[1:]
        if name in ("forall", "exists"):
            raise self.fail("smt_quantifier", f"{name}: quantifiers are not allowed in a "
                            "quantifier-free logic", node)
        if name == "let":
            return self.let(node, rest, scope)
        if name == "_":
            return self.bv_constant(node), None
        if name in ("!", "as", "par"):
            raise self.fail("smt_syntax", f"{name} is not supported here", node)
        checked = [self.term(a, scope) for a in rest]
        args = tuple(t for t, _ in checked)
        values = [v for _, v in checked]
        if name in self.functions and name not in scope:
            domain, sort, _ = self.functions[name]
            if len(args) != len(domain):
                raise self.fail("smt_sort_mismatch", f"{name} takes {len(domain)} arguments, "
                                f"got {len(args)}", node)
            for arg, want, at in zip(args, domain, rest):
                self.expect(arg.sort, want, at, f"an argument of {name}")
            return Term("app", sort, name=name, args=args), None
        return self.operator(name, args, values, node)

    def atom(self, atom: Atom, scope: dict) -> tuple[Term, Fraction | None]:
        if atom.kind == "numeral":
            if len(atom.text) > MAX_NUMERAL_DIGITS:
                raise self.fail("smt_limit", f"numerals have at most {MAX_NUMERAL_DIGITS} "
                                "digits", atom)
            if not (self.logic.ints or self.logic.reals):
                raise self.fail("smt_not_in_logic", f"numerals are not available in "
                                f"{self.logic_name}", atom)
            value = Fraction(int(atom.text))
            if self.logic.ints:
                return Term("int", INT, value=int(atom.text)), value
            return Term("real", REAL, value=value), value
        if atom.kind == "decimal":
            if not self.logic.reals:
                raise self.fail("smt_not_in_logic", f"decimals need a Real logic, not "
                                f"{self.logic_name}", atom)
            if len(atom.text) - 1 > MAX_NUMERAL_DIGITS:
                raise self.fail("smt_limit", f"decimals have at most {MAX_NUMERAL_DIGITS} "
                                "digits", atom)
            value = Fraction(atom.text)
            return Term("real", REAL, value=value), value
        if atom.kind in ("hex", "binary"):
            if not self.logic.bv:
                raise self.fail("smt_not_in_logic", f"bit-vector literals are not available in "
                                f"{self.logic_name}", atom)
            digits = atom.text[2:]
            width = len(digits) * (4 if atom.kind == "hex" else 1)
            if width > MAX_BV_WIDTH:
                raise self.fail("smt_limit", f"bit-vector widths are at most {MAX_BV_WIDTH}",
                                atom)
            return Term("bv", bitvec(width), value=int(digits, 16 if atom.kind == "hex" else 2)
                        ), None
        if atom.kind != "symbol":
            raise self.fail("smt_syntax", f"unexpected {atom.kind} {atom.text[:20]!r}", atom)
        if atom.text in scope:
            sort, value = scope[atom.text]
            return Term("ref", sort, name=atom.text), value
        if atom.text in ("true", "false"):
            return Term("bool", BOOL, value=atom.text == "true"), None
        if atom.text in self.functions:
            domain, sort, _ = self.functions[atom.text]
            if domain:
                raise self.fail("smt_sort_mismatch", f"{atom.text} is a function of "
                                f"{len(domain)} arguments", atom)
            return Term("app", sort, name=atom.text), None
        raise self.fail("smt_unknown_symbol", f"unknown symbol {atom.text!r}", atom)

    def let(self, node, rest, scope: dict) -> tuple[Term, Fraction | None]:
        if len(rest) != 2 or not isinstance(rest[0], Node) or not rest[0].items:
            raise self.fail("smt_syntax", "(let ((name term) ...) body)", node)
        inner, bindings = dict(scope), []
        for binding in rest[0].items:
            if not isinstance(binding, Node) or len(binding.items) != 2:
                raise self.fail("smt_syntax", "a let binding is (name term)", binding)
            name = self.symbol(binding.items[0], "let variable")
            if any(name == n for n, _ in bindings):
                raise self.fail("smt_symbol_taken", f"let variable {name!r} repeated", binding)
            term, value = self.term(binding.items[1], scope)
            bindings.append((name, term))
            inner[name] = (term.sort, value)
        body, value = self.term(rest[1], inner)
        return Term("let", body.sort, bindings=tuple(bindings), body=body), value

    def bv_constant(self, node: Node) -> Term:
        """(_ bvN w): the bit-vector of width w with unsigned value N < 2^w."""
        items = node.items
        if len(items) != 3 or not isinstance(items[1], Atom) or \
                not re.fullmatch(r"bv[0-9]{1,78}", items[1].text):
            raise self.fail("smt_syntax", "expected (_ bvN width)", node)
        if not self.logic.bv:
            raise self.fail("smt_not_in_logic", f"bit-vector literals are not available in "
                            f"{self.logic_name}", node)
        width = self.width(items[2], node)
        value = int(items[1].text[2:])
        if value >= 2**width:
            raise self.fail("smt_limit", f"{value} does not fit in {width} bits", node)
        return Term("bv", bitvec(width), value=value)

    def indexed(self, head: Node, node: Node, scope: dict) -> tuple[Term, Fraction | None]:
        items = head.items
        if len(items) < 2 or not all(isinstance(i, Atom) for i in items) or items[0].text != "_":
            raise self.fail("smt_syntax", "an indexed operator is (_ name index ...)", head)
        name = items[1].text
        if name not in _BV_INDEXED or not self.logic.bv:
            raise self.fail("smt_not_in_logic", f"indexed operator {name!r} is not available in "
                            f"{self.logic_name}", head)
        if len(items) - 2 != _BV_INDEXED[name]:
            raise self.fail("smt_syntax", f"{name} takes {_BV_INDEXED[name]} indices", head)
        indices = tuple(self.index(i, head) for i in items[2:])
        args = tuple(self.term(a, scope)[0] for a in node.items[1:])
        if len(args) != 1 or args[0].sort[0] != "BitVec":
            raise self.fail("smt_sort_mismatch", f"{name} takes one bit-vector", node)
        width = args[0].sort[1]
        if name == "extract":
            high, low = indices
            if not width > high >= low:
                raise self.fail("smt_syntax", f"extract needs {width} > i >= j", head)
            result = high - low + 1
        elif name in ("zero_extend", "sign_extend"):
            result = width + indices[0]
        elif name == "repeat":
            if indices[0] < 1:
                raise self.fail("smt_syntax", "repeat needs a count of at least 1", head)
            result = width * indices[0]
        else:
            result = width
        if result > MAX_BV_WIDTH:
            raise self.fail("smt_limit", f"bit-vector widths are at most {MAX_BV_WIDTH}", node)
        return Term("op", bitvec(result), name=name, indices=indices, args=args), None

    def operator(self, name: str, args: tuple, values: list, node
                 ) -> tuple[Term, Fraction | None]:
        n = len(args)

        def arity(low: int, high: int | None = None) -> None:
            if n < low or (high is not None and n > high):
                want = f"{low}" if high == low else (f"at least {low}" if high is None
                                                     else f"{low} to {high}")
                raise self.fail("smt_sort_mismatch", f"{name} takes {want} arguments, got {n}",
                                node)

        def same(sorts_ok) -> tuple:
            first = args[0].sort
            if not sorts_ok(first):
                raise self.fail("smt_sort_mismatch", f"{name} does not apply to "
                                f"{sort_text(first)}", node)
            for a, at in zip(args, node.items[1:]):
                self.expect(a.sort, first, at, f"an argument of {name}")
            return first

        def op(sort: tuple, indices: tuple = ()) -> Term:
            return Term("op", sort, name=name, args=args, indices=indices)

        arithmetic = self.logic.ints or self.logic.reals
        if name == "not":
            arity(1, 1)
            same(lambda s: s == BOOL)
            return op(BOOL), None
        if name in ("and", "or"):
            arity(1)
            same(lambda s: s == BOOL)
            return op(BOOL), None
        if name in ("xor", "=>"):
            arity(2)
            same(lambda s: s == BOOL)
            return op(BOOL), None
        if name in ("=", "distinct"):
            arity(2)
            same(lambda s: True)
            return op(BOOL), None
        if name == "ite":
            arity(3, 3)
            self.expect(args[0].sort, BOOL, node.items[1], "the condition of ite")
            self.expect(args[2].sort, args[1].sort, node.items[3], "the else branch of ite")
            return op(args[1].sort), None
        if arithmetic and name in ("+", "-", "*"):
            arity(1)
            sort = same(lambda s: s in (INT, REAL))
            known = [v for v in values if v is not None]
            if name == "*" and n - len(known) > 1 and not self.logic.nonlinear:
                raise self.fail("smt_nonlinear", f"{self.logic_name} is linear: * may have at "
                                "most one non-constant argument", node)
            value = None
            if len(known) == n:
                if name == "+":
                    value = sum(known, Fraction(0))
                elif name == "-":
                    value = -known[0] if n == 1 else known[0] - sum(known[1:], Fraction(0))
                else:
                    value = Fraction(1)
                    for v in known:
                        value *= v
            return op(sort), self.bounded(value, node)
        if self.logic.reals and name == "/":
            arity(2)
            same(lambda s: s == REAL)
            if any(v is None or v == 0 for v in values[1:]):
                raise self.divisor("/ needs nonzero constant divisors", node)
            value = None
            if values[0] is not None:
                value = values[0]
                for v in values[1:]:
                    value /= v
            return op(REAL), self.bounded(value, node)
        if self.logic.ints and name in ("div", "mod"):
            arity(2, 2)
            same(lambda s: s == INT)
            if values[1] is None or values[1] == 0:
                raise self.divisor(f"{name} needs a nonzero constant divisor", node)
            return op(INT), None
        if self.logic.ints and name == "abs":
            arity(1, 1)
            same(lambda s: s == INT)
            return op(INT), None
        if arithmetic and name in _ARITH_COMPARE:
            arity(2)
            same(lambda s: s in (INT, REAL))
            return op(BOOL), None
        if self.logic.ints and self.logic.reals and name in ("to_real", "to_int", "is_int"):
            arity(1, 1)
            source, target = {"to_real": (INT, REAL), "to_int": (REAL, INT),
                              "is_int": (REAL, BOOL)}[name]
            same(lambda s: s == source)
            return op(target), values[0] if name == "to_real" else None
        if self.logic.bv and name in _BV_NARY | _BV_BINARY | {"bvnot", "bvneg", "bvcomp",
                                                               "concat"} | _BV_COMPARE:
            if name in _BV_NARY:
                arity(2)
            elif name in ("bvnot", "bvneg"):
                arity(1, 1)
            else:
                arity(2, 2)
            if name == "concat":
                for a, at in zip(args, node.items[1:]):
                    if a.sort[0] != "BitVec":
                        raise self.fail("smt_sort_mismatch", "concat takes bit-vectors", at)
                width = args[0].sort[1] + args[1].sort[1]
                if width > MAX_BV_WIDTH:
                    raise self.fail("smt_limit", f"bit-vector widths are at most "
                                    f"{MAX_BV_WIDTH}", node)
                return op(bitvec(width)), None
            sort = same(lambda s: s[0] == "BitVec")
            if name in _BV_COMPARE:
                return op(BOOL), None
            return op(bitvec(1) if name == "bvcomp" else sort), None
        if name in _RESERVED:
            raise self.fail("smt_not_in_logic", f"operator {name!r} is not available in "
                            f"{self.logic_name}", node)
        raise self.fail("smt_unknown_symbol", f"unknown function {name!r}", node)


def read(text: str, logic: str) -> Script:
    """Check `text` as one quantifier-free query in `logic`; raise SmtError if it is not."""
    if len(text) > MAX_SCRIPT:
        raise SmtError("smt_limit", f"the script is longer than {MAX_SCRIPT} characters", 1, 1)
    reader = _Reader(logic)
    for node in parse(text):
        reader.command(node)
    script = Script(logic, tuple(reader.sorts), tuple(reader.commands))
    if reader.logic.nonlinear:
        _Expansion(script).check()
    else:
        _Linearization(script).check()
    return script


class _Expansion:
    """For the nonlinear logics, which have no linear forms: only the size of the query z3
    sees, with let bindings and define-fun applications expanded (at most MAX_EXPANDED_TERMS
    terms, visited without building anything)."""

    def __init__(self, script: Script):
        self.functions = {d.name: d for d in script.commands if isinstance(d, Definition)}
        self.commands = script.commands
        self.visited = 0

    def check(self) -> None:
        for command in self.commands:
            if isinstance(command, Assertion):
                self.visit(command.term, {})

    def visit(self, t: Term, scope: dict) -> None:
        self.visited += 1
        if self.visited > MAX_EXPANDED_TERMS:
            raise SmtError("smt_limit", f"the query expands to more than {MAX_EXPANDED_TERMS} "
                           "terms (let bindings and define-fun applications are expanded, as "
                           "the solver does)", t.line, t.col)
        if t.kind == "let":
            inner = dict(scope)
            for name, bound in t.bindings:
                self.visit(bound, scope)
                inner[name] = bound
            self.visit(t.body, inner)
            return
        for a in t.args:
            self.visit(a, scope)
        definition = self.functions.get(t.name) if t.kind == "app" else None
        if definition is not None:
            self.visit(definition.body, {})


# --- the linearised query -------------------------------------------------------------------

_LIMIT = 10**MAX_COEFFICIENT_DIGITS


def _small(q: Fraction) -> bool:
    return abs(q.numerator) < _LIMIT and q.denominator < _LIMIT


def _size(q: Fraction) -> str:
    digits = max(len(str(abs(q.numerator))), len(str(q.denominator)))
    return f"{digits} digits long"


class _Linearization:
    """The linear forms z3's arithmetic solver will see, computed before it sees anything.

    Every arithmetic term is expanded (let variables and define-fun parameters stand for the
    forms of what they are bound to; a defined function's body is walked again at every
    application, as z3 expands it) into a map from unknowns to rational coefficients, key None
    for the constant term. An unknown is a declared Int/Real constant or a term the solver
    treats as a fresh column (ite, div, mod, abs, to_int, is_int, an uninterpreted function
    application of arithmetic sort). Each form, written over its common denominator d, must
    have d and every numerator below 10^12; the unknowns, the declared constants plus one per
    such term occurrence (two for div and mod: quotient and remainder), are at most 64.
    """

    _OPAQUE = {"ite": 1, "div": 2, "mod": 2, "abs": 1, "to_int": 1, "is_int": 1}

    def __init__(self, script: Script):
        self.functions = {d.name: d for d in script.commands if isinstance(d, Definition)}
        self.commands = script.commands
        self.unknowns = sum(1 for d in script.declarations if not d.domain and
                            d.sort in (INT, REAL))
        self.visited = 0
        self.applied_at: list[Term] = []

    def fail(self, code: str, message: str, at: Term) -> SmtError:
        where = "".join(f" (in {t.name} applied at line {t.line}, column {t.col})"
                        for t in reversed(self.applied_at))
        return SmtError(code, message + where, at.line, at.col)

    def check(self) -> None:
        for command in self.commands:
            if isinstance(command, Assertion):
                self.form(command.term, {})

    def fresh_unknowns(self, count: int, at: Term) -> dict:
        self.unknowns += count
        if self.unknowns > MAX_ARITHMETIC_UNKNOWNS:
            raise self.fail("smt_limit", f"more than {MAX_ARITHMETIC_UNKNOWNS} arithmetic "
                            "unknowns (Int/Real constants plus ite, div, mod, abs, to_int, "
                            "is_int and arithmetic function terms, counted after expansion)", at)
        return {("unknown", self.unknowns): Fraction(1)}

    def bounded(self, form: dict, at: Term) -> dict:
        denominator = math.lcm(*(c.denominator for c in form.values())) if form else 1
        top = max((abs(c.numerator) * (denominator // c.denominator) for c in form.values()),
                  default=0)
        if denominator >= _LIMIT or top >= _LIMIT:
            big = max(denominator, top)
            raise self.fail("smt_coefficient_too_large", f"after expansion this term has a "
                            f"coefficient of {len(str(big))} digits (over the common "
                            f"denominator {'1' if denominator == 1 else str(denominator)}); "
                            f"coefficients stay below 10^{MAX_COEFFICIENT_DIGITS}", at)
        return form

    def form(self, t: Term, scope: dict):
        """The linear form of an arithmetic term (None for other sorts); checks every
        subterm on the way."""
        self.visited += 1
        if self.visited > MAX_EXPANDED_TERMS:
            raise self.fail("smt_limit", f"the query expands to more than "
                            f"{MAX_EXPANDED_TERMS} terms (let bindings and define-fun "
                            "applications are expanded, as the solver does)", t)
        arithmetic = t.sort in (INT, REAL)
        if t.kind in ("int", "real"):
            return {None: Fraction(t.value)} if t.value else {}
        if t.kind in ("bool", "bv"):
            return None
        if t.kind == "ref":
            return scope[t.name]
        if t.kind == "let":
            inner = dict(scope)
            for name, bound in t.bindings:
                inner[name] = self.form(bound, scope)
            return self.form(t.body, inner)
        args = [self.form(a, scope) for a in t.args]
        if t.kind == "app":
            definition = self.functions.get(t.name)
            if definition is not None:
                self.applied_at.append(t)
                body = self.form(definition.body, {name: value for (name, _), value in
                                                   zip(definition.params, args)})
                self.applied_at.pop()
                return body
            if not t.args:
                return {t.name: Fraction(1)} if arithmetic else None
            return self.fresh_unknowns(1, t) if arithmetic else None
        if t.name in self._OPAQUE and (arithmetic or t.name == "is_int"):
            fresh = self.fresh_unknowns(self._OPAQUE[t.name], t)
            return fresh if arithmetic else None  # is_int(r) is to_int(r) = r: one column
        if not arithmetic:
            return None
        if t.name == "to_real":
            return args[0]
        if t.name in ("+", "-"):
            out: dict = {}
            for i, a in enumerate(args):
                sign = -1 if t.name == "-" and (i > 0 or len(args) == 1) else 1
                for key, c in a.items():
                    out[key] = out.get(key, 0) + sign * c
            return self.bounded({k: c for k, c in out.items() if c}, t)
        if t.name in ("*", "/"):
            scale, variable = Fraction(1), {None: Fraction(1)}
            for i, a in enumerate(args):
                constant = set(a) <= {None}
                value = a.get(None, Fraction(0))
                if t.name == "/" and i > 0:
                    scale /= value
                elif constant:
                    scale *= value
                else:
                    variable = a
            return self.bounded({k: c * scale for k, c in variable.items() if c * scale}, t)
        raise SmtError("smt_not_in_logic", f"operator {t.name!r} has no linear form", t.line,
                       t.col)
