"""Synsema values as Python objects, and the rules every part of the interpreter shares for them.

The mapping is direct so that builtins and the math bridge need no conversions:

    nothing → None      bool → bool        number → int | float     decimal → Decimal
    text → str          list → list        map → dict (text keys, insertion order)
    task → Task | Builtin | Constructor     enum value → EnumValue    module → ModuleValue

Lists and maps are *values* in Synsema. Builtins never mutate their arguments; the only
in-place changes are the evaluator's `set` paths, which first make sure nobody else can see the
container (see `runtime.compiler._own`). This module holds display, equality, ordering and type
names; arithmetic lives in `runtime.operators`.
"""

from __future__ import annotations

import math
from decimal import Decimal

from synsema.lang.errors import SynError
from synsema.runtime.limits import check_decimal, int_too_large, joined
from synsema.runtime.sealed import Secret, refuse_as_key

NoneType = type(None)


class Task:
    """A user task or lambda: compiled code closed over the frame it was defined in.

    `params` is a tuple of `Param` for callers that inspect signatures (`tool_spec`,
    `call_tool`); `code` is the evaluator's compiled body and `env` the defining frame.
    `declared` holds the capabilities of the `require` lines at the top of the body.
    `input_schema` is None for the script's own tasks (their schema is derived from `params`);
    a task that stands for a math operation carries the operation's full request schema, so
    `tool_spec` can show a model the structure, patterns and bounds the params cannot.
    """

    __slots__ = ("name", "params", "code", "env", "declared", "is_lambda", "input_schema",
                 "__weakref__")

    def __init__(self, name, params, code, env, declared=(), is_lambda=False, input_schema=None):
        self.name = name
        self.params = params
        self.code = code
        self.env = env
        self.declared = declared
        self.is_lambda = is_lambda
        self.input_schema = input_schema

    def __repr__(self) -> str:
        return display(self)


class Param:
    """What a caller may know about one parameter: its name, declared type, and whether it has a default."""

    __slots__ = ("name", "type", "has_default", "default_is_nothing")

    def __init__(self, name: str, type: str | None, has_default: bool, default_is_nothing: bool = False):
        self.name = name
        self.type = type
        self.has_default = has_default
        self.default_is_nothing = default_is_nothing


class Builtin:
    """A builtin function as a value (`builtin:name` when printed)."""

    __slots__ = ("spec",)

    def __init__(self, spec):
        self.spec = spec

    @property
    def name(self) -> str:
        return self.spec.name

    def __repr__(self) -> str:
        return display(self)


class Constructor:
    """A callable that builds data: a record type's constructor or an enum variant with fields."""

    __slots__ = ("name", "fields", "build")

    def __init__(self, name: str, fields: tuple[str, ...], build):
        self.name = name
        self.fields = fields
        self.build = build

    def __repr__(self) -> str:
        return display(self)


class EnumValue:
    """A value of an `enum`: the enum's name, the variant and its positional payload."""

    __slots__ = ("enum", "variant", "fields", "names")

    def __init__(self, enum: str, variant: str, fields: tuple = (), names: tuple[str, ...] = ()):
        self.enum = enum
        self.variant = variant
        self.fields = fields
        self.names = names

    def __repr__(self) -> str:
        return display(self)


class ModuleValue:
    """What `use "./m.syn" as m` binds: live access to the module's exported names.

    It reads the module's own globals, so `set m.X to v` and the module's code see one
    shared variable, as LANGUAGE.md §2 requires of an exported `let`.
    """

    __slots__ = ("name", "globals", "exported")

    def __init__(self, name: str, globals: dict, exported: list[str]):
        self.name = name
        self.globals = globals
        self.exported = exported

    def __repr__(self) -> str:
        return display(self)


CALLABLE_TYPES = (Task, Builtin, Constructor)


# ------------------------------------------------------------------ type names
_TYPE_NAMES = {
    NoneType: "nothing", bool: "bool", int: "number", float: "number", Decimal: "decimal",
    str: "text", list: "list", dict: "map", Task: "task", Builtin: "task", Constructor: "task",
    EnumValue: "enum", ModuleValue: "map", bytes: "bytes",
}


def type_name(value) -> str:
    """The name `type_of` answers."""
    name = _TYPE_NAMES.get(type(value))
    if name is not None:
        return name
    labelled = getattr(value, "type_name", None)
    return labelled() if callable(labelled) else type(value).__name__


# ------------------------------------------------------------------ display
def display(value) -> str:
    """The display form: what `print`, `text()` and template holes show."""
    t = type(value)
    if t is str:
        return value
    if t is int:
        return int_text(value)
    return _shown(value)


def int_text(value: int) -> str:
    """The digits of an int; past MAX_INT_DIGITS (CPython's own guard, set by runtime.limits)
    the conversion would be quadratic, so it is refused instead."""
    try:
        return str(value)
    except ValueError:
        raise int_too_large("showing a number as text", value.bit_length()) from None


def decimal_text(value: Decimal) -> str:
    """Decimals keep their scale (`1.50`) and never use an exponent."""
    if value.is_nan():
        return "nan"
    if value.is_infinite():
        return "inf" if value > 0 else "-inf"
    return format(check_decimal("showing a decimal as text", value), "f")


def quote(text: str) -> str:
    """Text as shown inside a list or map: double-quoted, `"` and `\\` escaped."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# Bytes longer than this show their first bytes and their length, not every byte.
_BYTES_SHOWN = 32

# A list that holds itself many times over (`set x to [x, x]` in a loop) doubles its display at
# every level: each list is shown once per display (`seen`, by identity) and each join is checked
# against the text limit before it is built, so such a value costs time linear in its parts.
_SHOWING = "showing a list or map as text"


def _shown(value, seen: dict | None = None) -> str:
    """Display form of a non-text value; text nested inside containers is quoted."""
    t = type(value)
    if t is str:
        return quote(value)
    if t is int:
        return int_text(value)
    if t is float:
        return repr(value)
    if value is None:
        return "nothing"
    if t is bool:
        return "true" if value else "false"
    if t is list or t is dict:
        if seen is None:
            seen = {}
        shown = seen.get(id(value))
        if shown is None:
            if t is list:
                shown = "[" + joined(_SHOWING, [_shown(v, seen) for v in value], ", ") + "]"
            else:
                shown = "{" + joined(_SHOWING, [f"{k}: {_shown(v, seen)}" for k, v in value.items()],
                                     ", ") + "}"
            seen[id(value)] = shown
        return shown
    if t is Decimal:
        return decimal_text(value)
    if t is Task:
        shown = value.name if not value.is_lambda else "lambda"
        return f"task {shown}(" + ", ".join(p.name for p in value.params) + ")"
    if t is Builtin:
        return f"builtin:{value.spec.name}"
    if t is Constructor:
        return f"task {value.name}(" + ", ".join(value.fields) + ")"
    if t is EnumValue:
        if not value.names and not value.fields:
            return f"{value.enum}.{value.variant}"
        return f"{value.enum}.{value.variant}(" + ", ".join(_shown(v, seen) for v in value.fields) + ")"
    if t is ModuleValue:
        return f"module {value.name}"
    if t is bytes:
        if len(value) > _BYTES_SHOWN:
            return f"bytes({value[:_BYTES_SHOWN].hex()}… ({len(value)} bytes))"
        return f"bytes({value.hex()})"
    custom = getattr(value, "display", None)
    if callable(custom):
        return custom()
    return repr(value)


# ------------------------------------------------------------------ equality
_MIX = "cannot mix decimal and float; convert with float(x) or decimal(...)"


def equal(a, b, known: dict | None = None) -> bool:
    """Structural `==`: exact numbers, order-free maps; only decimal-vs-float raises.

    `known` holds the pairs of containers already compared (by identity), so a value that
    shares its lists (`set a to [a, a]` in a loop) is compared in time linear in its distinct
    lists (see runtime.limits). It is made on the first nested container, so comparing flat
    values costs nothing extra; a caller comparing many values may pass one to share it."""
    ta = type(a)
    tb = type(b)
    if ta is tb:
        if ta is list:
            if len(a) != len(b):
                return False
            for x, y in zip(a, b):
                tx = type(x)
                if tx is list or tx is dict or tx is EnumValue:
                    if known is None:
                        known = {}
                    if not _equal_known(x, y, known):
                        return False
                elif not equal(x, y):
                    return False
            return True
        if ta is dict:
            if len(a) != len(b):
                return False
            for k, v in a.items():
                if k not in b:
                    return False
                tv = type(v)
                if tv is list or tv is dict or tv is EnumValue:
                    if known is None:
                        known = {}
                    if not _equal_known(v, b[k], known):
                        return False
                elif not equal(v, b[k]):
                    return False
            return True
        if ta is EnumValue:
            if known is None:
                known = {}
            return (a.enum == b.enum and a.variant == b.variant and len(a.fields) == len(b.fields)
                    and all(_equal_known(x, y, known) for x, y in zip(a.fields, b.fields)))
        if ta is float:
            return a == b
        if ta in _IDENTITY_TYPES:
            return a is b
        return a == b
    if ta in _NUMERIC and tb in _NUMERIC:
        if (ta is Decimal and tb is float) or (ta is float and tb is Decimal):
            raise SynError(_MIX)
        return a == b
    return False


def _equal_known(a, b, known: dict) -> bool:
    """`equal(a, b)` for two containers, answered from `known` when this pair was compared before."""
    pair = (id(a), id(b))
    answer = known.get(pair)
    if answer is None:
        answer = known[pair] = equal(a, b, known)
    return answer


_NUMERIC = (int, float, bool, Decimal)
_IDENTITY_TYPES = (Task, Builtin, Constructor, ModuleValue)


# ------------------------------------------------------------------ ordering
def _order(a, b, op: str) -> int:
    """Three-way comparison for the general case; raises for unordered combinations."""
    ta = type(a)
    tb = type(b)
    if ta in _ORDERED_NUMBERS and tb in _ORDERED_NUMBERS:
        if (ta is Decimal and tb is float) or (ta is float and tb is Decimal):
            raise SynError(_MIX)
        return (a > b) - (a < b)
    if ta is str and tb is str or ta is bool and tb is bool:
        return (a > b) - (a < b)
    if ta is list and tb is list:
        for x, y in zip(a, b):
            if not equal(x, y):
                return _order(x, y, op)
        return (len(a) > len(b)) - (len(a) < len(b))
    raise SynError(f"Unsupported operation: {type_name(a)} {op} {type_name(b)}")


_ORDERED_NUMBERS = (int, float, Decimal)


def compare(a, b, op: str) -> bool:
    """The ordering operators `<`, `>`, `<=`, `>=` (NaN compares false, as in IEEE)."""
    ta = type(a)
    tb = type(b)
    if (ta is int or ta is float) and (tb is int or tb is float) or (ta is str and tb is str):
        if op == "<":
            return a < b
        if op == ">":
            return a > b
        if op == "<=":
            return a <= b
        return a >= b
    if ta is float and math.isnan(a) or tb is float and math.isnan(b):
        return False
    c = _order(a, b, op)
    if op == "<":
        return c < 0
    if op == ">":
        return c > 0
    if op == "<=":
        return c <= 0
    return c >= 0


def sort_key_check(values: list) -> None:
    """Raise the documented error if `values` cannot be put in one total order."""
    kinds = set()
    for v in values:
        if v is None or (type(v) is float and math.isnan(v)):
            continue
        kinds.add(_order_kind(v))
    if len(kinds) > 1:
        first, second = sorted(kinds)[:2]
        raise SynError(f"cannot order {first} and {second} together")


def _order_kind(v) -> str:
    t = type(v)
    if t in _ORDERED_NUMBERS:
        return "number"
    if t is str:
        return "text"
    if t is bool:
        return "bool"
    if t is list:
        return "list"
    raise SynError(f"{type_name(v)} has no order")


class SortKey:
    """Wraps a value so Python's stable sort uses Synsema's total order (NaN, then nothing, last)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __lt__(self, other: "SortKey") -> bool:
        a = self.value
        b = other.value
        a_last = a is None or (type(a) is float and math.isnan(a))
        b_last = b is None or (type(b) is float and math.isnan(b))
        if a_last or b_last:
            return (not a_last and b_last) or (a_last and b_last and a is not None and b is None)
        return _order(a, b, "<") < 0


# ------------------------------------------------------------------ value semantics
def map_key(key) -> str:
    """Map keys are text; any other key is stored under its display form (a secret is refused:
    its display form is only its name)."""
    if type(key) is str:
        return key
    if type(key) is Secret:
        refuse_as_key(key)
    return display(key)
