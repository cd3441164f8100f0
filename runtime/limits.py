"""How large one value may grow, in one place, and the error every size guard raises.

An agent runs code and data it did not write, so no operation may build a value that takes the
host down. Each limit bounds one thing; an operation that would go past it stops *before* doing
the work, with `value too large: <operation> …` at the line that asked for it. `recover` catches
it like any other error. README "Limits" lists the same numbers.

The digit and exponent limits are also what keeps single operations quick: CPython's int↔text
conversion and Decimal→int are quadratic, so 50,000 digits (≈0.1 s on a desktop) is where a
number stops being something a script can reasonably print, parse or round.
"""

from __future__ import annotations

import decimal
import sys

from synsema.lang.errors import SynError
from synsema.runtime.labels import Labeled

MAX_TEXT_LENGTH = 50_000_000     # characters in one text
MAX_LIST_LENGTH = 10_000_000     # items in one list
MAX_MAP_SIZE = 10_000_000        # entries in one map
MAX_INT_DIGITS = 50_000          # decimal digits of one integer
MAX_INT_BITS = 166_096           # the bits of a MAX_INT_DIGITS-digit integer (50,000 · log2 10)
MAX_DECIMAL_EXPONENT = 20_000    # |exponent| of a decimal: 1e20000d is the largest power of ten
REGEX_SECONDS = 1.0              # compiling, then matching: the time one regex call may use
MAX_TREE_NODES = 10_000_000      # parts of a value sent out as a tree (JSON to a client, a copy)


def too_large(operation: str, what: str, limit: int, unit: str) -> SynError:
    """`value too large: <operation> would make <what> (the limit is N unit)`."""
    return SynError(f"value too large: {operation} would make {what} (the limit is {limit:,} {unit}; "
                    "see README, Limits)")


def check_length(operation: str, kind: str, size: int) -> None:
    """Refuse a text, list or map of `size` before it is built."""
    if kind == "text":
        if size > MAX_TEXT_LENGTH:
            raise too_large(operation, f"a text of {size:,} characters", MAX_TEXT_LENGTH, "characters")
    elif kind == "list":
        if size > MAX_LIST_LENGTH:
            raise too_large(operation, f"a list of {size:,} items", MAX_LIST_LENGTH, "items")
    elif size > MAX_MAP_SIZE:
        raise too_large(operation, f"a map of {size:,} entries", MAX_MAP_SIZE, "entries")


_SIZED = {str: "text", list: "list", dict: "map"}


def check_result(operation: str, value) -> None:
    """Refuse a builtin's text, list, map or bytes past its limit before the builtin returns it.

    runtime.calls.call_builtin applies this to every builtin's result, so no builtin can hand
    the program a value past the limits README documents, whatever it builds; builtins that
    can tell the size beforehand (join, replace, flatten, hex, split…) refuse before building."""
    kind = _SIZED.get(type(value))
    if kind is not None:
        check_length(operation, kind, len(value))
    elif type(value) is bytes and len(value) > MAX_TEXT_LENGTH:
        raise too_large(operation, f"{len(value):,} bytes", MAX_TEXT_LENGTH, "bytes")


def joined(operation: str, parts: list[str], separator: str = "") -> str:
    """`separator.join(parts)`, refused before it is built when it would be too long."""
    total = len(separator) * (len(parts) - 1)
    for part in parts:
        total += len(part)
    if total > MAX_TEXT_LENGTH:
        check_length(operation, "text", total)
    return separator.join(parts)


# ------------------------------------------------------------------ walks over shared values
# Lists and maps are values, but the interpreter shares unchanged ones: thirty steps of
# `set a to [a, a]` build 2^30 leaves out of 31 small lists. Every walk over values therefore
# obeys one of two rules, both stated here:
#
# * A walk that answers a question (`==`, `in`, label strip, secret scan, argument checks)
#   visits each distinct list or map once — it keeps what it learnt per container, by
#   identity — so it costs time linear in the containers that exist, not in the tree they show.
# * A walk whose *output* is a tree (JSON handed to an MCP client, a model, a math worker) first
#   counts the tree with `tree_size`, which is itself linear in distinct containers, and refuses
#   the value past MAX_TREE_NODES before building anything.
#
# Displaying and `json_encode` follow the first rule and are then bounded by MAX_TEXT_LENGTH.


def _children(value):
    """The values a list, map, enum value or labelled value holds (None for anything else)."""
    t = type(value)
    if t is list:
        return value
    if t is dict:
        return value.values()
    if t is Labeled:
        return (value.value,)
    fields = getattr(value, "fields", None)     # an enum value's payload (values imports this module)
    return fields if type(fields) is tuple else None


def tree_size(operation: str, value) -> int:
    """How many parts `value` has counted as a tree (a list held twice counts twice), found in
    time linear in its distinct containers; past MAX_TREE_NODES it is `value too large`."""
    sizes: dict[int, int] = {}
    stack = [(value, False)]
    while stack:
        node, expanded = stack.pop()
        children = _children(node)
        if children is None or id(node) in sizes:
            continue
        if not expanded:
            stack.append((node, True))
            stack.extend((child, False) for child in children if id(child) not in sizes)
            continue
        total = 1
        for child in children:
            total += sizes.get(id(child), 1)
        if total > MAX_TREE_NODES:
            raise too_large(operation, f"a value of {total:,} parts counted as a tree (shared lists "
                            "count once per place they appear)", MAX_TREE_NODES, "parts")
        sizes[id(node)] = total
    return sizes.get(id(value), 1)


def int_too_large(operation: str, bits: int) -> SynError:
    digits = int(bits * 0.30103) + 1
    return too_large(operation, f"an integer of about {digits:,} digits", MAX_INT_DIGITS, "digits")


def check_int(operation: str, value: int) -> int:
    """`value`, unless it has more than MAX_INT_DIGITS digits."""
    bits = value.bit_length()
    if bits > MAX_INT_BITS:
        raise int_too_large(operation, bits)
    return value


def check_decimal(operation: str, value: decimal.Decimal) -> decimal.Decimal:
    """`value`, unless its exponent is beyond ±MAX_DECIMAL_EXPONENT."""
    if value.is_finite() and value:
        exponent = value.adjusted()
        if abs(exponent) > MAX_DECIMAL_EXPONENT:
            raise too_large(operation, f"a decimal with exponent {exponent:,}", MAX_DECIMAL_EXPONENT,
                            "as the exponent")
    return value


def decimal_context() -> decimal.Context:
    """The context decimal arithmetic runs in: exponents bounded, overflow an error."""
    context = decimal.getcontext()
    if context.Emax != MAX_DECIMAL_EXPONENT:
        context.Emax = MAX_DECIMAL_EXPONENT
        context.Emin = -MAX_DECIMAL_EXPONENT
        context.traps[decimal.Overflow] = True
    return context


def install() -> None:
    """Apply the limits to this thread's decimal arithmetic and to CPython's int↔text guard
    (which then refuses exactly what MAX_INT_DIGITS refuses, instead of its own 4,300)."""
    decimal_context()
    sys.set_int_max_str_digits(MAX_INT_DIGITS)
