"""Arithmetic, unary minus, membership and indexing with Synsema's exact numeric rules.

Integers are exact at any size, `/` always gives a float (or an exact decimal), `//` and `%`
floor, `**` stays exact for a non-negative integer exponent, and decimals never mix with
floats. The evaluator inlines the int∘int fast paths; everything else comes here.
"""

from __future__ import annotations

import math
from decimal import Decimal, DivisionByZero, InvalidOperation, Overflow, localcontext

from synsema.lang.errors import SynError
from synsema.runtime.labels import Labeled, make_secret, unwrap, wrap
from synsema.runtime.limits import (MAX_DECIMAL_EXPONENT, MAX_INT_BITS, MAX_LIST_LENGTH, MAX_TEXT_LENGTH,
                            check_int, check_length, int_too_large, too_large)
from synsema.runtime.sealed import Secret, concatenated
from synsema.runtime.values import Constructor, EnumValue, ModuleValue, Task, display, equal, map_key, type_name

_MIX = "cannot mix decimal and float; convert with float(x) or decimal(...)"
_NUM = (int, float)
# An int with more bits than this cannot become a decimal within MAX_DECIMAL_EXPONENT.
_DECIMAL_INT_BITS = int(MAX_DECIMAL_EXPONENT * 3.3219280948873626) + 1


def _unsupported(a, op: str, b) -> SynError:
    return SynError(f"Unsupported operation: {type_name(a)} {op} {type_name(b)}")


def _labelled(fn, a, b):
    """`fn` on the values inside labelled operands; the result (or error) carries their labels.

    Only reached under `--labels`: every operator tries its ordinary cases first and comes
    here instead of refusing, so a run without labels never pays for this check.
    """
    a, la = unwrap(a)
    b, lb = unwrap(b)
    try:
        return wrap(fn(a, b), la | lb)
    except SynError as error:
        raise make_secret(error, la | lb)




def _decimal_pair(a, b, op: str):
    """Both operands as Decimals when one is a decimal and the other an int or decimal."""
    ta = type(a)
    tb = type(b)
    if ta is float or tb is float:
        raise SynError(_MIX)
    if ta not in (int, Decimal) or tb not in (int, Decimal):
        raise _unsupported(a, op, b)
    for n in (a, b):
        if type(n) is int and n.bit_length() > _DECIMAL_INT_BITS:
            raise too_large(f"`{op}` with a decimal", "a decimal with more than "
                            f"{MAX_DECIMAL_EXPONENT:,} digits", MAX_DECIMAL_EXPONENT, "as the exponent")
    return Decimal(a), Decimal(b)


def _decimal_result(op: str, compute, x, y):
    """`compute(x, y)` in the run's decimal context (runtime.limits), overflow a clean error."""
    try:
        return compute(x, y)
    except Overflow:
        raise too_large(f"`{op}`", "a decimal with an exponent beyond "
                        f"±{MAX_DECIMAL_EXPONENT:,}", MAX_DECIMAL_EXPONENT, "as the exponent") from None
    except (InvalidOperation, DivisionByZero):
        raise SynError(f"{display(x)} {op} {display(y)} has no decimal value") from None


def _sized(op: str, kind: str, a, b):
    """`a + b` for two texts or two lists, refused before it is built when it would be too large."""
    size = len(a) + len(b)
    if size > (MAX_TEXT_LENGTH if kind == "text" else MAX_LIST_LENGTH):
        check_length(f"`{op}`", kind, size)
    return a + b


def checked_product(value: int, span=None) -> int:
    """The result of an integer `*`, refused past MAX_INT_DIGITS (the operands were within it,
    so the product cost at most one multiplication of limit-sized numbers)."""
    try:
        return check_int("`*`", value)
    except SynError as error:
        raise error.at(span)


def add(a, b):
    ta = type(a)
    tb = type(b)
    if ta in _NUM and tb in _NUM:
        return a + b
    if ta is str:
        if tb is str:
            return _sized("+", "text", a, b)
        if tb in _NUM or tb is bool or tb is Decimal:
            return _sized("+", "text", a, display(b))
        if tb is Labeled:
            return _labelled(add, a, b)
        if tb is Secret:
            return _sealed_sum(a, b)
        raise SynError(f"Cannot add text and {type_name(b)} — convert it on purpose: text(x), or interpolate it")
    if tb is str:
        if ta in _NUM or ta is bool or ta is Decimal:
            return _sized("+", "text", display(a), b)
        if ta is Labeled:
            return _labelled(add, a, b)
        if ta is Secret:
            return _sealed_sum(a, b)
        raise SynError(f"Cannot add {type_name(a)} and text — convert it on purpose: text(x), or interpolate it")
    if ta is list and tb is list:
        return _sized("+", "list", a, b)
    if ta is Labeled or tb is Labeled:
        return _labelled(add, a, b)
    if tb is Secret and (ta in _NUM or ta is bool or ta is Decimal):
        return _sealed_sum(display(a), b)   # as number + text is text: `200 + key` is a secret
    if ta is Secret and (tb in _NUM or tb is bool or tb is Decimal):
        return _sealed_sum(a, display(b))
    if ta is Decimal or tb is Decimal:
        x, y = _decimal_pair(a, b, "+")
        return _decimal_result("+", Decimal.__add__, x, y)
    if ta is bytes and tb is bytes:
        return _sized("+", "text", a, b)
    if ta is Secret and tb is Secret:
        return _sealed_sum(a, b)
    raise _unsupported(a, "+", b)


def _sealed_sum(a, b):
    """Text (or a number, shown as text) joined with a secret stays a secret (`"Bearer " + key`,
    `200 + key`); nothing else joins one."""
    joined = concatenated(a, b)
    if joined is None:
        raise SynError(f"Cannot add {type_name(a)} and {type_name(b)} — only text joins a secret "
                       "of text, and the result is a secret")
    return joined


def sub(a, b):
    ta = type(a)
    tb = type(b)
    if ta in _NUM and tb in _NUM:
        return a - b
    if ta is Labeled or tb is Labeled:
        return _labelled(sub, a, b)
    if ta is Decimal or tb is Decimal:
        x, y = _decimal_pair(a, b, "-")
        return _decimal_result("-", Decimal.__sub__, x, y)
    raise _unsupported(a, "-", b)


def mul(a, b):
    ta = type(a)
    tb = type(b)
    if ta is int and tb is int:
        return checked_product(a * b)
    if ta in _NUM and tb in _NUM:
        return a * b
    if ta is Labeled or tb is Labeled:
        return _labelled(mul, a, b)
    if ta is Decimal or tb is Decimal:
        x, y = _decimal_pair(a, b, "*")
        return _decimal_result("*", Decimal.__mul__, x, y)
    raise _unsupported(a, "*", b)


def div(a, b):
    ta = type(a)
    tb = type(b)
    if ta in _NUM and tb in _NUM:
        if b == 0:
            raise SynError("Division by zero")
        try:
            return a / b
        except OverflowError:
            raise SynError("Division result too large for a float; use // for an exact integer quotient") from None
    if ta is Labeled or tb is Labeled:
        return _labelled(div, a, b)
    if ta is Decimal or tb is Decimal:
        x, y = _decimal_pair(a, b, "/")
        if y == 0:
            raise SynError("Division by zero")
        with localcontext() as ctx:
            ctx.prec = 28
            return _decimal_result("/", Decimal.__truediv__, x, y)
    raise _unsupported(a, "/", b)


def floordiv(a, b):
    ta = type(a)
    tb = type(b)
    if ta in _NUM and tb in _NUM:
        if b == 0:
            raise SynError("Division by zero")
        try:
            return a // b
        except OverflowError:
            raise SynError("Division result too large for a float") from None
    if ta is Labeled or tb is Labeled:
        return _labelled(floordiv, a, b)
    if ta is Decimal or tb is Decimal:
        x, y = _decimal_pair(a, b, "//")
        if y == 0:
            raise SynError("Division by zero")
        quotient = _decimal_result("//", Decimal.__floordiv__, x, y)  # truncates; Synsema floors
        if x % y != 0 and (x < 0) != (y < 0):
            quotient -= 1
        return quotient
    raise _unsupported(a, "//", b)


def mod(a, b):
    ta = type(a)
    tb = type(b)
    if ta in _NUM and tb in _NUM:
        if b == 0:
            raise SynError("Modulo by zero")
        return a % b
    if ta is Labeled or tb is Labeled:
        return _labelled(mod, a, b)
    if ta is Decimal or tb is Decimal:
        x, y = _decimal_pair(a, b, "%")
        if y == 0:
            raise SynError("Modulo by zero")
        return x - y * floordiv(x, y)
    raise _unsupported(a, "%", b)


def power(a, b):
    ta = type(a)
    tb = type(b)
    if ta is int and tb is int:
        if b >= 0:
            if abs(a) > 1 and (b - 1) * (a.bit_length() - 1) + a.bit_length() > MAX_INT_BITS:
                raise int_too_large("`**`", b * (a.bit_length() - 1))
            return check_int("`**`", a ** b)
        if a == 0:
            raise SynError("Zero cannot be raised to a negative power")
        try:
            return float(a) ** b
        except OverflowError:  # |a| is beyond floats, so |a ** b| underflows to zero
            return -0.0 if a < 0 and b % 2 else 0.0
    if ta in _NUM and tb in _NUM:
        if a == 0 and b < 0:
            raise SynError("Zero cannot be raised to a negative power")
        try:
            return math.pow(a, b)
        except OverflowError:
            return math.inf
        except ValueError:
            return math.nan
    if ta is Labeled or tb is Labeled:
        return _labelled(power, a, b)
    if ta is Decimal or tb is Decimal:
        x, y = _decimal_pair(a, b, "**")
        try:
            with localcontext() as ctx:
                ctx.prec = 28
                return x ** y
        except Overflow:
            raise SynError(f"{display(a)} ** {display(b)} is too large for a decimal") from None
        except (InvalidOperation, DivisionByZero):
            raise SynError(f"{display(a)} ** {display(b)} has no decimal value") from None
    raise _unsupported(a, "**", b)


def negate(a):
    t = type(a)
    if t is int or t is float or t is Decimal:
        return -a
    if t is Labeled:
        return _labelled(lambda x, _: negate(x), a, None)
    raise SynError(f"Cannot negate {type_name(a)}")


BINARY = {"+": add, "-": sub, "*": mul, "/": div, "//": floordiv, "%": mod, "**": power}


def contains(coll, item) -> bool:
    """`item in coll`: list element, map key, or substring (both text)."""
    t = type(coll)
    if t is list:
        for x in coll:
            if equal(x, item):
                return True
        return False
    if t is dict:
        return type(item) is str and item in coll
    if t is str:
        if type(item) is not str:
            raise SynError(f"`in` on text needs text on the left, got {type_name(item)}")
        return item in coll
    if t is bytes:
        if type(item) is int:
            return 0 <= item <= 255 and item in coll
        if type(item) is bytes:
            return item in coll
    if t is ModuleValue:
        return type(item) is str and item in coll.exported
    raise SynError(f"Cannot check membership in {type_name(coll)}")


def _position(i, length: int, kind: str) -> int:
    t = type(i)
    if t is not int:
        if t is float and i.is_integer():
            i = int(i)
        else:
            raise SynError(f"index must be an integer, got {display(i)}")
    j = i + length if i < 0 else i
    if j < 0 or j >= length:
        raise SynError(f"Index {i} out of range ({kind} length {length})", code="index",
                       hint=f"positions run from 0 to {length - 1}, or from -1 back to -{length}; "
                            "get(xs, i, default) gives a default instead" if length else
                            f"the {kind} is empty; check length(…) first, or use get(xs, i, default)")
    return j


def index(obj, i):
    """`obj[i]`: list/text/bytes position (negative from the end) or map key."""
    t = type(obj)
    if t is list:
        if type(i) is int and -len(obj) <= i < len(obj):
            return obj[i]
        return obj[_position(i, len(obj), "list")]
    if t is dict:
        key = i if type(i) is str else map_key(i)
        try:
            return obj[key]
        except KeyError:
            raise missing_key(key, obj) from None
    if t is str:
        return obj[_position(i, len(obj), "text")]
    if t is bytes:
        return obj[_position(i, len(obj), "bytes")]
    if t is ModuleValue:
        return attribute(obj, display(i))
    raise SynError(f"Cannot index into {type_name(obj)}")


def missing_key(key: str, keys) -> SynError:
    """`Map has no key 'k'`, with the nearest existing key as the likely fix."""
    from synsema.lang.suggest import did_you_mean   # errors only: loaded by the first (start-up without .pyc)
    guess = did_you_mean(key, [k for k in keys if type(k) is str])
    return SynError(f"Map has no key '{key}'", code="missing-key",
                    hint=f"did you mean '{guess}'? (or get(m, \"{key}\", default) when it may be missing)"
                    if guess else f"use get(m, \"{key}\", default) when the key may be missing")


def no_export(module: ModuleValue, key: str, alias: str | None = None) -> SynError:
    """`m.x` (or `set m.x`) where the module exports no `x`: the nearest export, or how to export
    a name the module defines (worded as `synsema check` words it, `lang.hints.no_export`)."""
    value = module.globals.get(key, _ABSENT)
    defined = None if value is _ABSENT else (
        "task" if type(value) is Task else "type" if type(value) is Constructor else
        "enum" if type(value) is EnumValue else "use" if type(value) is ModuleValue else "let")
    from synsema.lang import hints
    message, hint = hints.no_export(alias or module.name, key, module.exported, defined)
    return SynError(message, code="missing-key", hint=hint)


_ABSENT = object()


def attribute(obj, name: str, target: str | None = None):
    """`obj.name` / `name of obj`: a map key, a module export or an enum field. `target` is the
    receiver's name when it is a plain name, for the hint on `xs.length` (`length(xs)`) and to name a
    module by the alias the program wrote."""
    t = type(obj)
    if t is dict:
        try:
            return obj[name]
        except KeyError:
            raise missing_key(name, obj) from None
    if t is ModuleValue:
        if name not in obj.exported:
            raise no_export(obj, name, target)
        return obj.globals[name]
    if t is EnumValue and name in obj.names:
        return obj.fields[obj.names.index(name)]
    kind = type_name(obj)
    from synsema.lang import hints
    form = hints.no_property(name, kind, target)
    raise SynError(f"Cannot access property '{name}' of {kind}", hint=f"write {form}" if form else None)


def store_position(container: list, i, value) -> None:
    """`set xs[i] to v` on a list the evaluator already owns."""
    container[_position(i, len(container), "list")] = value
