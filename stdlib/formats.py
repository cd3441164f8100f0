"""Data formats: JSON (`json_encode`/`json_decode`), JSON lines and CSV.

Decoding keeps integers exact at any size (up to MAX_INT_DIGITS, the guard `int` uses), reads
numbers with a `.` or an exponent as floats, lets the last of duplicate keys win, and refuses
what a Synsema value cannot faithfully hold: a float out of range (`1e400`), `NaN`/`Infinity`
unless `allow_nan = true`, nesting deeper than 128 levels. Encoding is compact
(`{"a":1,"b":[1,2]}`), refuses the same things in the other direction, and never writes a
task, so `json_decode(json_encode(x))` gives `x` back for every data value.
"""

from __future__ import annotations

import io
import json
import math
import re
import sys
from decimal import Decimal
from itertools import accumulate

from synsema.lang.errors import SynError
from synsema.runtime.limits import MAX_INT_DIGITS, MAX_TEXT_LENGTH, joined
from synsema.runtime.values import decimal_text, display, int_text, type_name
from synsema.stdlib.core import short, wrong_type
from synsema.stdlib.registry import builtin

MAX_DEPTH = 128
_NO_DEFAULT = object()
# What changes the nesting depth: a string is skipped whole (to its closing quote, or to the end
# of an unterminated one) so brackets inside it do not count. Possessive repeats and a string
# that always matches once opened mean no character is looked at twice: one linear pass.
_NESTING = re.compile(r'"(?:[^"\\]++|\\.)*+(?:"|\Z)|[\[\]{}]', re.S)


# ------------------------------------------------------------------ encode
# A text as a JSON string, exactly as json.dumps(text, ensure_ascii=False) writes it (the
# function it calls), without building a JSONEncoder per text.
_json_string = json.encoder.encode_basestring

# The items `_flat_json` hands to CPython's JSON encoder: it writes them as `_encode` does (a
# text with `_json_string`, an int, bool and float by their repr, nothing as null) and refuses
# the rest: a NaN or an infinity, an int past the digit limit (ValueError).
_LEAVES = frozenset({str, int, bool, type(None), float})
_MAPS = frozenset({dict})
# CPython's encoder (what json.dumps runs) made once: compact separators, maps' keys as they are
# (a map's keys are texts, values.map_key), no NaN or infinity, no cycle markers (values have none).
_c_encode = json.encoder.c_make_encoder(None, None, _json_string, None, ":", ",", False, False, False)


def _flat_json(value, t, depth: int):
    """The JSON text of a list or map whose items are all _LEAVES, or of a list of distinct maps
    whose values are (rows of records), written by CPython's encoder in one call; None when
    `value` is not of those shapes, or the encoder refuses an item, or the text is past
    MAX_TEXT_LENGTH (then `_encode` writes it item by item and gives its own error). Every
    container here appears once (no map is shared), so the text's size is linear in the value's."""
    items = value.values() if t is dict else value
    kinds = {*map(type, items)}
    if not kinds <= _LEAVES:
        if t is dict or not kinds <= _MAPS or depth + 1 >= MAX_DEPTH or len({*map(id, value)}) != len(value):
            return None
        for row in value:
            if not {*map(type, row.values())} <= _LEAVES:
                return None
    try:
        text = "".join(_c_encode(value, 0))
    except ValueError:
        return None
    return text if len(text) <= MAX_TEXT_LENGTH else None


def _encode(value, depth: int, seen: dict) -> str:
    """The JSON text of `value`. Each list or map is encoded once per call (`seen`, by identity)
    and joined from its items' texts with its size checked first, so a value that holds one list
    many times over (`set x to [x, x]` in a loop) costs time linear in its parts and is refused
    as soon as its text would pass MAX_TEXT_LENGTH, not after filling memory."""
    t = type(value)
    if t is str:
        return _json_string(value)
    if value is None:
        return "null"
    if t is bool:
        return "true" if value else "false"
    if t is int:
        return int_text(value)
    if t is float:
        if not math.isfinite(value):
            raise SynError(f"json_encode: {value!r} has no JSON form (JSON numbers are finite)")
        return repr(value)
    if t is Decimal:
        if not value.is_finite():
            raise SynError(f"json_encode: {decimal_text(value)} has no JSON form (JSON numbers are finite)")
        return decimal_text(value)
    if t is list or t is dict:
        if depth >= MAX_DEPTH:
            raise SynError(f"json_encode: the value is nested deeper than {MAX_DEPTH} levels")
        done = seen.get(id(value))
        if done is not None:
            return done
        done = _flat_json(value, t, depth)
        if done is not None:
            seen[id(value)] = done
            return done
        if t is list:
            parts = [_encode(item, depth + 1, seen) for item in value]
            opening, closing = "[", "]"
        else:
            parts = [_json_string(key) + ":" + _encode(item, depth + 1, seen)
                     for key, item in value.items()]
            opening, closing = "{", "}"
        done = seen[id(value)] = opening + joined("json_encode", parts, ",") + closing
        return done
    if t is bytes:
        import base64  # base64 and csv are imported where they are used, not by every run
        return '"' + base64.b64encode(value).decode("ascii") + '"'
    if type_name(value) == "secret":
        return '"[redacted]"'
    raise SynError(f"json_encode: a {type_name(value)} has no JSON form — encode data "
                   f"(text, numbers, bools, nothing, lists, maps) only")


@builtin("json_encode", 1)
def json_encode(rt, value):
    """A value as compact JSON text (maps keep their key order).

    Example: json_encode([1, true, nothing]) => "[1,true,null]"
    """
    return _encode(value, 0, {})


# ------------------------------------------------------------------ decode
def json_too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether JSON `text` nests arrays and objects deeper than `limit`, found in one linear
    pass before any recursive parser sees it (brackets inside strings do not count)."""
    if text.count("[") + text.count("{") <= limit:
        return False
    if "\\" not in text:
        return _too_deep_unescaped(text, limit)
    depth = 0
    for token in _NESTING.finditer(text):
        bracket = token.group(0)
        if bracket == "[" or bracket == "{":
            depth += 1
            if depth > limit:
                return True
        elif bracket == "]" or bracket == "}":
            depth -= 1
    return False


# Every byte but a quote and the four brackets (deleted by bytes.translate), and each bracket's
# step of the nesting depth, by byte.
_NOT_MARKS = bytes(b for b in range(256) if b not in b'"[]{}')
_DEPTH_STEP = [0] * 256
for _mark, _step in ((b"[", 1), (b"{", 1), (b"]", -1), (b"}", -1)):
    _DEPTH_STEP[_mark[0]] = _step


def _too_deep_unescaped(text: str, limit: int) -> bool:
    """json_too_deep of a text without a backslash: then every string runs from a quote to the
    next one (or to the end, unterminated), as _NESTING reads it, so what is outside strings is
    every other piece between quotes. The quotes and brackets are picked out in C (the UTF-8 of
    any other character is bytes >= 0x80 or another ASCII byte, deleted), and the deepest point is
    the largest running sum of the brackets' steps: no Python step per string or bracket."""
    marks = text.encode("utf-8", "surrogatepass").translate(None, _NOT_MARKS)
    outside = b"".join(marks.split(b'"')[::2])
    return max(accumulate(map(_DEPTH_STEP.__getitem__, outside)), default=0) > limit


def _check_depth(text: str) -> None:
    if json_too_deep(text):
        raise SynError(f"json_decode: the JSON is nested deeper than {MAX_DEPTH} levels")


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise SynError(f"json_decode: an integer has more than {MAX_INT_DIGITS:,} digits")
    return int(digits)


def _parse_float(digits: str) -> float:
    value = float(digits)
    if math.isinf(value):
        raise SynError(f"json_decode: the number {short(digits)} is out of range for a float")
    return value


def _refuse_constant(name: str):
    raise SynError(f"json_decode: {name} is not JSON — pass allow_nan = true to read it as a float")


_CONSTANTS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def _decode(text, allow_nan: bool):
    """The value of JSON `text`. Integers are read by the decoder itself while CPython's int↔text
    guard is MAX_INT_DIGITS (runtime.limits.install), which then refuses exactly the integers
    _parse_int refuses, with a ValueError: the text is then read again with _parse_int, which
    gives the language's error (a call per integer is the slow part of a big reply)."""
    if type(text) is not str:
        raise wrong_type("json_decode", "JSON text", text)
    _check_depth(text)
    constant = _CONSTANTS.__getitem__ if allow_nan else _refuse_constant
    try:
        if sys.get_int_max_str_digits() == MAX_INT_DIGITS:
            try:
                return json.loads(text, parse_float=_parse_float, parse_constant=constant)
            except json.JSONDecodeError:
                raise
            except ValueError:   # an integer past the guard: read again, for _parse_int's error
                pass
        return json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=constant)
    except json.JSONDecodeError as error:
        raise SynError(f"json_decode: invalid JSON at line {error.lineno} column {error.colno}: "
                       f"{error.msg} — json_decode(text, nothing) gives nothing instead of this error") from None
    except RecursionError:
        raise SynError(f"json_decode: the JSON is nested deeper than {MAX_DEPTH} levels") from None


@builtin("json_decode", 1, 2, named=("allow_nan",))
def json_decode(rt, text, default=_NO_DEFAULT, allow_nan=False):
    """Parse JSON text to Synsema values; with a `default`, any failure gives the default.

    Example: json_decode("[1, 2.5, null]") => [1, 2.5, nothing]
    Example: json_decode("oops", nothing) => nothing
    """
    if type(allow_nan) is not bool:
        raise SynError(f"json_decode: allow_nan must be true or false, got {short(allow_nan)}")
    if default is _NO_DEFAULT:
        return _decode(text, allow_nan)
    try:
        return _decode(text, allow_nan)
    except SynError:
        return default


# ------------------------------------------------------------------ JSON lines
def _jsonl_lines(text):
    if type(text) is not str:
        raise wrong_type("jsonl_parse", "JSON-lines text", text)
    return text.splitlines()


@builtin("jsonl_parse", 1, named=("allow_nan",))
def jsonl_parse(rt, text, allow_nan=False):
    """The values of JSON-lines text, one per non-blank line, as a list.

    A line that is not JSON is an error naming its line number.

    Example: jsonl_parse("{\\"a\\": 1}\\n[2]\\n") => [{a: 1}, [2]]
    """
    values = []
    for number, line in enumerate(_jsonl_lines(text), 1):
        if not line.strip():
            continue
        try:
            values.append(_decode(line, allow_nan))
        except SynError as error:
            problem = error.message.removeprefix("json_decode: ").replace(" at line 1 column", " at column")
            raise SynError(f"jsonl_parse: line {number}: {problem.split(' — json_decode(')[0]}") from None
    return values


@builtin("jsonl_decode", 1, named=("allow_nan",))
def jsonl_decode(rt, text, allow_nan=False):
    """Upstream's name for jsonl_parse: the values of JSON-lines text, one per non-blank line.

    Example: jsonl_decode("1\\n2\\n") => [1, 2]
    """
    return jsonl_parse(rt, text, allow_nan)


@builtin("jsonl_encode", 1)
def jsonl_encode(rt, values):
    """A list as JSON-lines text: each item compact JSON on its own line, ending in a newline.

    Example: split(jsonl_encode([[1, 2], nothing]), "\\n") => ["[1,2]", "null", ""]
    """
    if type(values) is not list:
        raise wrong_type("jsonl_encode", "a list", values)
    lines = []
    for item in values:
        try:
            lines.append(_encode(item, 0, {}) + "\n")
        except SynError as error:
            raise SynError("jsonl_encode: " + error.message.removeprefix("json_encode: ")) from None
    return joined("jsonl_encode", lines)


# ------------------------------------------------------------------ CSV
_CSV_PARSE_OPTIONS = ("headers", "delimiter", "numbers", "types")
_CSV_ENCODE_OPTIONS = ("headers", "delimiter", "eol")
_CSV_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def _options(fname: str, opts, known: tuple[str, ...]) -> dict:
    if opts is None:
        return {}
    if type(opts) is not dict:
        raise wrong_type(fname, "an options map", opts)
    for key in opts:
        if key not in known:
            raise SynError(f"{fname}: unknown option '{key}' (it accepts: {', '.join(known)})")
    return opts


def _delimiter(fname: str, opts: dict) -> str:
    delimiter = opts.get("delimiter", ",")
    if type(delimiter) is not str or len(delimiter) != 1 or delimiter in '"\r\n':
        raise SynError(f"{fname}: delimiter must be one character other than a quote or a line "
                       f"end, got {short(delimiter)}")
    return delimiter


def _flag(fname: str, opts: dict, key: str, default: bool) -> bool:
    value = opts.get(key, default)
    if type(value) is not bool:
        raise SynError(f"{fname}: option {key} must be true or false, got {short(value)}")
    return value


def _csv_cell(field: str, numbers: bool):
    if field == "":
        return None
    if numbers and _CSV_NUMBER.fullmatch(field):
        if re.fullmatch(r"[+-]?\d+", field) and len(field.lstrip("+-")) <= MAX_INT_DIGITS:
            return int(field)
        value = float(field)
        if math.isfinite(value):
            return value
    return field


def _typed_int(field: str):
    if re.fullmatch(r"[+-]?\d+", field) and len(field.lstrip("+-")) <= MAX_INT_DIGITS:
        return int(field)
    return None


def _typed_float(field: str):
    return float(field) if _CSV_NUMBER.fullmatch(field) else None


def _typed_decimal(field: str):
    return Decimal(field) if _CSV_NUMBER.fullmatch(field) else None


_CSV_BOOLS = {"true": True, "false": False}
# A column type of csv_parse's "types" option: the reader of one non-empty field (None: no fit).
_CSV_TYPES = {
    "int": _typed_int,
    "float": _typed_float,
    "decimal": _typed_decimal,
    "text": lambda field: field,
    "bool": lambda field: _CSV_BOOLS.get(field.lower()),
}


def _column_types(opts: dict, headers: bool) -> dict:
    """The "types" option checked: a map of column name to one of the _CSV_TYPES names."""
    types = opts.get("types", {})
    if type(types) is not dict:
        raise SynError(f"csv_parse: option types must be a map of column to type, got {short(types)}")
    if types and not headers:
        raise SynError('csv_parse: option types names columns, so it needs the header row '
                       '(drop {"headers": false})')
    for column, kind in types.items():
        if kind in ("date", "datetime"):
            raise SynError(f"csv_parse: column {short(column)}: this interpreter has no {kind} "
                           'values — read it as "text" and convert it with parse_time')
        if kind not in _CSV_TYPES:
            raise SynError(f"csv_parse: column {short(column)}: unknown type {short(kind)} (use "
                           f"{', '.join(_CSV_TYPES)})")
    return types


def _typed_cell(line: int, column: str, kind: str, field: str):
    if field == "":
        return None
    value = _CSV_TYPES[kind](field)
    if value is None:
        article = "an" if kind[0] in "aeiou" else "a"
        raise SynError(f"csv_parse: line {line}, column {short(column)}: {short(field)} is not "
                       f"{article} {kind}")
    return value


@builtin("csv_parse", 1, 2)
def csv_parse(rt, text, opts=None):
    """CSV text (RFC 4180) as a list of maps keyed by the header row.

    Empty fields are nothing; other fields stay text unless {"numbers": true}.
    {"types": {"col": "int"}} reads the named columns as "int", "float", "decimal", "bool" or
    "text" (an empty field stays nothing; a field that does not fit is an error naming it).
    {"headers": false} gives a list of lists; {"delimiter": ";"} changes the separator.
    Errors name the line: an unclosed quote, a row of the wrong width, a repeated header.

    Example: csv_parse("a,b\\n1,\\n") => [{a: "1", b: nothing}]
    Example: csv_parse("a;b\\n1;2", {"delimiter": ";", "numbers": true}) => [{a: 1, b: 2}]
    Example: csv_parse("id,ok\\n007,TRUE", {"types": {"id": "int", "ok": "bool"}}) => [{id: 7, ok: true}]
    """
    if type(text) is not str:
        raise wrong_type("csv_parse", "CSV text", text)
    opts = _options("csv_parse", opts, _CSV_PARSE_OPTIONS)
    delimiter = _delimiter("csv_parse", opts)
    headers = _flag("csv_parse", opts, "headers", True)
    numbers = _flag("csv_parse", opts, "numbers", False)
    types = _column_types(opts, headers)
    import csv
    reader = csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline=""), delimiter=delimiter,
                        strict=True)
    rows = []
    try:
        for row in reader:
            if row:
                rows.append((reader.line_num, row))
    except csv.Error as bad:
        problem = str(bad)
        if "EOF" in problem or "end of data" in problem:
            problem = "a quoted field is not closed"
        raise SynError(f"csv_parse: line {reader.line_num}: {problem}") from None
    if not headers:
        return [[_csv_cell(f, numbers) for f in row] for _, row in rows]
    if not rows:
        return []
    names = rows[0][1]
    seen = set()
    for name in names:
        if name in seen:
            raise SynError(f"csv_parse: line {rows[0][0]}: the header {short(name)} appears twice")
        seen.add(name)
    for column in types:
        if column not in seen:
            raise SynError(f"csv_parse: option types names the column {short(column)}, which the "
                           f"header does not have")
    result = []
    for line, row in rows[1:]:
        if len(row) != len(names):
            raise SynError(f"csv_parse: line {line}: {len(row)} fields, but the header has "
                           f"{len(names)}")
        result.append({name: _typed_cell(line, name, types[name], field) if name in types
                       else _csv_cell(field, numbers) for name, field in zip(names, row)})
    return result


def _csv_field(value) -> str:
    t = type(value)
    if t is str:
        return value
    if value is None:
        return ""
    if t is bytes:
        import base64
        return base64.b64encode(value).decode("ascii")
    if type_name(value) == "secret":
        return "[redacted]"
    if t is list or t is dict:
        raise SynError(f"csv_encode: a {type_name(value)} cannot be one CSV field — encode it "
                       "with json_encode first")
    if t in (bool, int, float, Decimal):
        return display(value)
    raise SynError(f"csv_encode: a {type_name(value)} has no CSV form")


@builtin("csv_encode", 1, 2)
def csv_encode(rt, rows, opts=None):
    """A list of maps (the first map's keys are the header) or of lists as CSV text.

    Fields are quoted only when needed; nothing is an empty field, bytes are base64, a
    secret is [redacted]. Options: {"headers": [..]} picks and orders the columns,
    {"delimiter": ";"}, {"eol": "\\n"} (the default is "\\r\\n").

    Example: split(csv_encode([{"a": 1, "b": nothing}]), "\\r\\n") => ["a,b", "1,", ""]
    """
    if type(rows) is not list:
        raise wrong_type("csv_encode", "a list of maps or of lists", rows)
    opts = _options("csv_encode", opts, _CSV_ENCODE_OPTIONS)
    delimiter = _delimiter("csv_encode", opts)
    eol = opts.get("eol", "\r\n")
    if eol not in ("\r\n", "\n"):
        raise SynError(f"csv_encode: eol must be \"\\r\\n\" or \"\\n\", got {short(eol)}")
    import csv
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator=eol)
    if rows and all(type(row) is dict for row in rows):
        columns = opts.get("headers", list(rows[0]))
        if type(columns) is not list or not all(type(c) is str for c in columns):
            raise SynError("csv_encode: headers must be a list of column names (text)")
        writer.writerow(columns)
        for row in rows:
            writer.writerow([_csv_field(row.get(c)) for c in columns])
    elif all(type(row) is list for row in rows):
        if "headers" in opts:
            raise SynError("csv_encode: the headers option applies to a list of maps")
        for row in rows:
            writer.writerow([_csv_field(v) for v in row])
    else:
        raise SynError("csv_encode: the rows must be all maps or all lists")
    return out.getvalue()
