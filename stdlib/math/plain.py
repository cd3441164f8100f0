"""The Pydantic-free path of the operations declared with a kernel (issue 31: the first math call).

Importing Pydantic and building an operation's models costs more than the whole start-up of a
program, in the interpreter and again in the worker. For an operation declared with a `kernel`
(stdlib/math/kernels), plain_ops.json -- generated from the Pydantic models by
`python -m synsema.stdlib.math.plain_table` and checked against them by tests -- describes its
request and result types, and this module validates with that table alone: in the interpreter
(the request, then the child's result, the independent re-check) and in the worker's child (the
request again, then the kernel). The isolation is the same as on the Pydantic path: a forked
child, its memory and CPU limits, the deadline kill.

The table's validation only ever vouches: `request` and `result` return the validated value, or
None when the value is not one the table can accept with certainty -- anything refused, and
anything unusual -- and the caller then hands the value to the Pydantic path, whose verdict and
messages are the authority. So the plain path cannot accept what Pydantic refuses (a test runs
both over every example and generated bad inputs), and every message a user sees is Pydantic's.
"""

from __future__ import annotations

import importlib
import json
import math
import os
import re

TABLE_PATH = os.path.join(os.path.dirname(__file__), "plain_ops.json")
MAX_SAFE = 2**53 - 1     # as primitives.MAX_SAFE: larger result integers travel as text

with open(TABLE_PATH, encoding="utf-8") as _handle:
    _TABLE = json.load(_handle)
OPS: dict[str, dict] = _TABLE["operations"]
MODELS: dict[str, dict] = _TABLE["models"]


class Unsure(Exception):
    """The table cannot vouch for this value; Pydantic decides."""


class Record:
    """A validated model value: its fields, in declaration order, as attributes."""

    def __init__(self, fields: dict) -> None:
        self.__dict__.update(fields)


def request(identifier: str, payload) -> Record | None:
    """The validated request of `identifier` (an operation of OPS), or None."""
    try:
        return _validate(OPS[identifier]["request"], payload)
    except Unsure:
        return None


def result(identifier: str, body: bytes) -> dict | None:
    """The child's result JSON re-validated against the result type and dumped as the Pydantic
    path dumps a result (`model_dump()`: exact integers as ints, rationals as text, fields in
    declaration order), or None when the table cannot vouch for it."""
    kind = OPS[identifier]["result"]
    try:
        return _dump(kind, _validate(kind, json.loads(body)))
    except (Unsure, ValueError, RecursionError):
        return None


def compute(identifier: str, payload_json: bytes) -> bytes:
    """In the worker's child: validate the request JSON and run the kernel; the result as JSON
    (rationals as text, integers beyond 2^53-1 as text, as the result type writes them)."""
    record = request(identifier, json.loads(payload_json))
    if record is None:
        raise Unsure(identifier)
    return json.dumps(_plain(kernel(identifier)(record)), separators=(",", ":"),
                      default=_fraction_text).encode()


def kernel(identifier: str):
    """The operation's kernel function, importing its module (and so its finders' modules)."""
    return _function(OPS[identifier]["kernel"])


def prepare(identifier: str) -> None:
    """Import what running `identifier` needs -- its adapters and so its backend, its kernel,
    its problem finders -- in the worker's helper before it forks, so every child inherits
    them. An adapter that fails to import is left to the child, which meets the failure again
    inside its limits and reports it."""
    for adapter in OPS[identifier]["adapters"]:
        try:
            importlib.import_module(f"{__package__}.adapters.{adapter}")
        except Exception:
            pass
    kernel(identifier)
    for check in _checks(OPS[identifier]["request"], set()):
        _function(check)


def _checks(kind: dict, seen: set) -> list[str]:
    """The problem finders a value of `kind` may run."""
    k = kind["k"]
    if k == "model":
        if kind["name"] in seen:
            return []
        seen.add(kind["name"])
        model = MODELS[kind["name"]]
        return model["before"] + model["checks"] + [
            c for field in model["fields"] for c in _checks(field[1], seen)]
    if k in ("list", "null"):
        return _checks(kind["of"], seen)
    if k == "union":
        return [c for choice in kind["choices"].values() for c in _checks(choice, seen)]
    return []


_FUNCTIONS: dict[str, object] = {}


def _function(path: str):
    found = _FUNCTIONS.get(path)
    if found is None:
        module, name = path.split(":")
        found = _FUNCTIONS[path] = getattr(importlib.import_module(module), name)
    return found


_PATTERNS: dict[str, re.Pattern] = {}


def _matches(pattern: str, text: str) -> bool:
    compiled = _PATTERNS.get(pattern)
    if compiled is None:
        compiled = _PATTERNS[pattern] = re.compile(pattern)
    return compiled.fullmatch(text) is not None


def _validate(kind: dict, value):
    """`value` validated as Pydantic's strict mode would, or Unsure."""
    k = kind["k"]
    if k == "int":
        if (type(value) is not int or (kind["ge"] is not None and value < kind["ge"])
                or (kind["le"] is not None and value > kind["le"])):
            raise Unsure
        return value
    if k == "bigint":
        if type(value) is str:
            if not _matches(kind["pattern"], value):
                raise Unsure
            value = int(value)
        elif type(value) is not int:
            raise Unsure
        top = 10 ** kind["digits"] - (0 if kind["power"] else 1)
        low = -top if kind["min"] is None else kind["min"]
        if not low <= value <= top:
            raise Unsure
        return value
    if k == "rat":
        from fractions import Fraction  # not at import: a first call without rationals skips it
        if type(value) is int:
            q = Fraction(value)
        elif type(value) is str:
            match = _RATIONAL.fullmatch(value)
            if match is None:
                raise Unsure
            num, den = int(match.group(1)), int(match.group(2) or 1)
            if match.group(2) is not None and (den == 1 or math.gcd(num, den) != 1):
                raise Unsure
            q = Fraction(num, den)
        else:
            raise Unsure
        if abs(q.numerator) >= 10 ** kind["num"] or q.denominator >= 10 ** kind["den"]:
            raise Unsure
        return q
    if k == "str":
        if (type(value) is not str or not _sized(kind, value)
                or (kind["pattern"] is not None and not _matches(kind["pattern"], value))):
            raise Unsure
        return value
    if k == "bool":
        if type(value) is not bool:
            raise Unsure
        return value
    if k == "lit":
        if not any(type(value) is type(v) and value == v for v in kind["values"]):
            raise Unsure
        return value
    if k == "list":
        if type(value) is not list or not _sized(kind, value):
            raise Unsure
        of = kind["of"]
        return [_validate(of, item) for item in value]
    if k == "null":
        return None if value is None else _validate(kind["of"], value)
    if k == "union":
        if type(value) is not dict:
            raise Unsure
        choice = kind["choices"].get(value.get(kind["tag"])) if type(
            value.get(kind["tag"])) is str else None
        if choice is None:
            raise Unsure
        return _validate(choice, value)
    if k == "model":
        return _model(MODELS[kind["name"]], value)
    raise Unsure  # a kind this module does not know: never vouch


def _sized(kind: dict, value) -> bool:
    return kind["min"] <= len(value) and (kind["max"] is None or len(value) <= kind["max"])


def _model(model: dict, value) -> Record:
    if type(value) is not dict or not all(type(key) is str for key in value):
        raise Unsure
    for check in model["before"]:
        _passes(check, value)
    fields = {}
    for field in model["fields"]:
        name = field[0]
        if name in value:
            fields[name] = _validate(field[1], value[name])
        elif len(field) == 3:
            fields[name] = [] if field[2] == [] else field[2]  # a fresh list, as Pydantic copies
        else:
            raise Unsure
    if any(key not in fields for key in value):
        raise Unsure  # a field the model does not declare
    record = Record(fields)
    for check in model["checks"]:
        _passes(check, record)
    return record


def _passes(check: str, value) -> None:
    """Run a problem finder; any problem, or any exception (which Pydantic might turn into a
    message of its own), leaves the verdict to Pydantic."""
    try:
        problem = _function(check)(value)
    except Exception:
        raise Unsure from None
    if problem is not None:
        raise Unsure


def _dump(kind: dict, value):
    """A validated value as `model_dump()` writes it."""
    k = kind["k"]
    if k == "rat":
        return str(value)
    if k == "list":
        return [_dump(kind["of"], item) for item in value]
    if k == "null":
        return None if value is None else _dump(kind["of"], value)
    if k == "union":
        return _dump(kind["choices"][getattr(value, kind["tag"])], value)
    if k == "model":
        return {field[0]: _dump(field[1], getattr(value, field[0]))
                for field in MODELS[kind["name"]]["fields"]}
    return value


def _plain(data):
    """A kernel's data as JSON values, integers beyond 2^53-1 as text (and Fractions as text,
    by `_fraction_text`)."""
    if type(data) is dict:
        return {key: _plain(item) for key, item in data.items()}
    if type(data) is list:
        return [_plain(item) for item in data]
    if type(data) is int and abs(data) > MAX_SAFE:
        return str(data)
    return data


def _fraction_text(value) -> str:
    """json's fallback for values it cannot write: a Fraction as canonical text ("3/4"), told
    apart by its type's name so that a kernel without rationals never imports fractions."""
    if type(value).__module__ == "fractions" and type(value).__name__ == "Fraction":
        return str(value)
    raise TypeError(f"a kernel returned {type(value).__name__}, which is not plain data")


_RATIONAL = re.compile(r"^(0|-?[1-9][0-9]*)(?:/([1-9][0-9]*))?$")
