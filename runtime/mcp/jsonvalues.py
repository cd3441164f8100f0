"""Synsema values ⇄ JSON, the only shapes that cross an MCP connection.

JSON arrives as Python's JSON values, which are already Synsema values (null → nothing, an
integer → an exact number, objects → maps), so the way in needs no conversion. The way out
refuses what JSON cannot carry — a task, a module, bytes, a non-finite number — with a message
that names the value's type; an exact decimal travels as its text, so no digit is lost.
"""

from __future__ import annotations

import math
from decimal import Decimal

from synsema.lang.errors import SynError
from synsema.runtime.limits import tree_size
from synsema.runtime.values import type_name


def to_json(value, what: str):
    """`value` as plain JSON data; `what` names it in the error ("the result of task 'f'").

    The data is a tree, so a value sharing its lists is counted first and refused when that
    tree would be too large (runtime.limits.tree_size)."""
    tree_size(f"sending {what} as JSON", value)
    return _json(value, what)


def _json(value, what: str):
    t = type(value)
    if value is None or t is bool or t is int or t is str:
        return value
    if t is float:
        if not math.isfinite(value):
            raise SynError(f"{what} is {value}, which JSON cannot carry; give a finite number")
        return value
    if t is Decimal:
        return str(value)
    if t is list:
        return [_json(item, what) for item in value]
    if t is dict:
        return {key: _json(item, what) for key, item in value.items()}
    raise SynError(f"{what} contains a {type_name(value)}, which JSON cannot carry; "
                   "send text, numbers, bools, nothing, lists and maps")
