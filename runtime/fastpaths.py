"""Specialised closures for the hottest operators, generated from one template.

Arithmetic and comparisons on two integers are most of what loops and recursion do. For each
operator, and for how each operand is read — a parameter slot, a global, an integer literal or
any expression — this module writes one small closure whose integer case is a single Python
operation and whose other cases defer to the general operator. Writing the source once and
filling it in keeps every variant identical in behaviour; `exec` of this module's own template
(never of user text) is how the variants are made, as `collections.namedtuple` does.
"""

from __future__ import annotations

from synsema.lang.errors import SynError
from synsema.runtime.calls import host_failure
from synsema.runtime.limits import MAX_INT_BITS
from synsema.runtime.operators import checked_product
from synsema.runtime.scope import UNBOUND

# How an operand is read, as Python source over the names the template provides; `{side}` is
# `left` or `right`, whose slot, global name and literal arrive as `<side>_slot` and so on.
_READ = {
    "slot": "f[{side}_slot]",
    "local": "({side}_v if ({side}_v := f[{side}_slot]) is not U else {side}(f))",
    "global": "(g[{side}_name] if {side}_name in g else {side}(f))",
    "const": "{side}_value",
    "expr": "{side}(f)",
}

_TEMPLATE = """
def make(left, right, general, span, g, left_slot, left_name, left_value,
         right_slot, right_name, right_value, operation, store_slot, outer):
    def run(f):
        a = {left}
        b = {right}
        if {fast_test}:
{fast}        try:
{general}        except SynError as error:
            raise error.at(span)
        except MemoryError:
            raise host_failure(operation, MemoryError()).at(span) from None
{tail}    return run
"""


def _give(result: str, store, indent: str, caught: str | None = None) -> str:
    """Source that returns `result` from a generated closure, at `indent`. With `store` it first
    writes it into the frame slot: for a `let`, always; for a `set` of a local, unless the slot
    is still unbound (the variable is an outer one), when `outer(f, r)` assigns it there. With
    `caught`, an exception `result` may raise (a miss) is passed over, for the general path."""
    if store is None:
        if caught is None:
            return f"{indent}return {result}\n"
        return f"{indent}try:\n{indent}    return {result}\n{indent}except {caught}:\n{indent}    pass\n"
    if caught is None:
        text = "" if result == "r" else f"{indent}r = {result}\n"
    else:
        text = f"{indent}try:\n{indent}    r = {result}\n{indent}except {caught}:\n{indent}    pass\n{indent}else:\n"
        indent += "    "
    if store.outer is None:
        text += f"{indent}f[store_slot] = r\n"
    else:
        text += (f"{indent}if f[store_slot] is U:\n{indent}    outer(f, r)\n"
                 f"{indent}else:\n{indent}    f[store_slot] = r\n")
    return text + f"{indent}return r\n"


def _general(store, indent: str) -> tuple[str, str]:
    """The call of the general operation inside its `try`, and what follows the `except`s."""
    if store is None:
        return f"{indent}return general(a, b)\n", ""
    return f"{indent}r = general(a, b)\n", _give("r", store, indent[:-4])

# `*` is the one integer operator that can outgrow MAX_INT_DIGITS in a few steps (squaring
# doubles the size): its result is compared with the limit, two cheap comparisons.
_INT_OPERATORS = {"+": "a + b", "-": "a - b",
                  "*": "r if _INT_LOW < (r := a * b) < _INT_HIGH else checked_product(r, span)",
                  "%": "a % b", "//": "a // b",
                  "<": "a < b", "<=": "a <= b", ">": "a > b", ">=": "a >= b"}
_NONZERO = ("%", "//")
_EQUALITY = {"==": "a == b", "!=": "a != b"}

_cache: dict = {}  # one generated maker per shape: see operator, index, _sequence_maker


class Operand:
    """How one side of an operator is read: `kind` in slot (a parameter, always bound), local
    (a slot of this frame, read by `reader` while unbound), global, const or expr."""

    __slots__ = ("kind", "slot", "name", "value", "reader")

    def __init__(self, kind: str, reader, slot: int | None = None, name: str | None = None, value=None):
        self.kind = kind
        self.reader = reader
        self.slot = slot
        self.name = name
        self.value = value

    def source(self, side: str) -> str:
        return _READ[self.kind].format(side=side)


def has_fast_path(op: str) -> bool:
    return op in _INT_OPERATORS or op in _EQUALITY


class Store:
    """Where a generated closure writes its result: the frame slot `slot`, for a `let` (`outer`
    None) or a `set` (`outer(f, value)` assigns the outer variable while the slot is unbound)."""

    __slots__ = ("slot", "outer")

    def __init__(self, slot: int, outer=None):
        self.slot = slot
        self.outer = outer


def operator(op: str, left: Operand, right: Operand, general, span, globals_: dict, store: Store | None = None):
    """The closure for `left op right`: inline when both are ints (or, for ==/!=, both ints or
    both texts), `general(a, b)` otherwise, with errors located at `span`; with `store`, the
    statement that also writes the result into a frame slot. The maker is generated once per
    shape (operator, the operands' kinds, whether and how it stores); each site passes it its
    own values."""
    shape = (op, left.kind, right.kind, None if store is None else store.outer is None)
    make = _cache.get(shape)
    if make is None:
        make = _cache[shape] = _operator_maker(op, left, right, store)
    return make(left.reader, right.reader, general, span, globals_, left.slot, left.name, left.value,
                right.slot, right.name, right.value, f"`{op}`", store and store.slot, store and store.outer)


def _operator_maker(op: str, left: Operand, right: Operand, store: Store | None):
    if op in _EQUALITY:
        fast_test = "a.__class__ is b.__class__ and (a.__class__ is int or a.__class__ is str)"
        fast_result = _EQUALITY[op]
    else:
        checks = ["type(a) is int"]
        if right.kind != "const":
            checks.append("type(b) is int")
        if op in _NONZERO:
            checks.append("b")
        fast_test = " and ".join(checks)
        fast_result = _INT_OPERATORS[op]
    general_call, tail = _general(store, " " * 12)
    source = _TEMPLATE.format(left=left.source("left"), right=right.source("right"), fast_test=fast_test,
                              fast=_give(fast_result, store, " " * 12), general=general_call, tail=tail)
    namespace = {"SynError": SynError, "_INT_LOW": -(1 << MAX_INT_BITS), "_INT_HIGH": 1 << MAX_INT_BITS,
                 "checked_product": checked_product, "host_failure": host_failure, "U": UNBOUND}
    exec(source, namespace)
    return namespace["make"]


_SEQUENCE_STEP = """
        r = s{i}(f)
        if r is GIVE or r is STOP:
            return r
        r = None"""

# The most statements one generated function calls. A longer block (a big script's top level)
# calls functions of up to this many parts, each running up to this many statements, and so on:
# the same steps in the same order, at most this many makers per process, each compiled once.
SEQUENCE_WIDTH = 16


def sequence(statements: list, give, stop):
    """A block of two or more statements as one function calling each in turn: a `give` or
    `stop` (the GIVE/STOP signals) ends it early; the last statement's value is the block's.
    Between statements nothing holds the previous one's value (see compiler._own)."""
    while len(statements) > SEQUENCE_WIDTH:
        statements = [part[0] if len(part) == 1 else _sequence_maker(len(part))(give, stop, *part)
                      for part in (statements[i:i + SEQUENCE_WIDTH]
                                   for i in range(0, len(statements), SEQUENCE_WIDTH))]
    return _sequence_maker(len(statements))(give, stop, *statements)


def _sequence_maker(count: int):
    make = _cache.get(f"sequence {count}")
    if make is None:
        names = ", ".join(f"s{i}" for i in range(count))
        steps = "".join(_SEQUENCE_STEP.format(i=i) for i in range(count - 1))
        source = (f"def make(GIVE, STOP, {names}):\n    def run(f):{steps}\n"
                  f"        return s{count - 1}(f)\n    return run\n")
        namespace: dict = {}
        exec(source, namespace)
        make = _cache[f"sequence {count}"] = namespace["make"]
    return make


_INDEX_TEMPLATE = """
def make(left, right, general, span, g, left_slot, left_name, left_value,
         right_slot, right_name, right_value, store_slot, outer):
    def run(f):
        a = {left}
        b = {right}
        c = a.__class__
        if c is list:
            if b.__class__ is int:
{list_hit}        elif c is dict and b.__class__ is str:
{map_hit}        try:
{general}        except SynError as error:
            raise error.at(span)
{tail}    return run
"""


def index(obj: Operand, position: Operand, general, span, globals_: dict, store: Store | None = None):
    """The closure for `obj[position]` with both operands read inline: a list at an int in
    range, or a map at a text key it has, is one Python subscript; everything else (a miss, a
    text, a float index, a module) is `general(obj, position)`, with errors located at `span`;
    `store` as for `operator`; the maker is generated once per shape, as there."""
    shape = ("index", obj.kind, position.kind, None if store is None else store.outer is None)
    make = _cache.get(shape)
    if make is None:
        make = _cache[shape] = _index_maker(obj, position, store)
    return make(obj.reader, position.reader, general, span, globals_, obj.slot, obj.name, obj.value,
                position.slot, position.name, position.value, store and store.slot, store and store.outer)


def _index_maker(obj: Operand, position: Operand, store: Store | None):
    general_call, tail = _general(store, " " * 12)
    source = _INDEX_TEMPLATE.format(left=obj.source("left"), right=position.source("right"),
                                    list_hit=_give("a[b]", store, " " * 16, "IndexError"),
                                    map_hit=_give("a[b]", store, " " * 12, "KeyError"),
                                    general=general_call, tail=tail)
    namespace = {"SynError": SynError, "U": UNBOUND}
    exec(source, namespace)
    return namespace["make"]
