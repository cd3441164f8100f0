"""The rows of `synsema eval --data DATA`: JSON lines or CSV, read before any row runs.

A row is (row id, its fields or the reason it cannot be used). A malformed row is kept as a
row with a problem — it becomes an error line in RESULTS, never the end of the eval — while a
DATA file that cannot be read at all is the caller's usage error (DataError).

Row ids: a row's `id` field when it has one (JSON text or number, a CSV `id` column), else its
1-based position among DATA's rows. The id is what `--resume` matches, so it must be stable
across runs over the same DATA; two rows with the same `id` are a problem of the second.
CSV cells are text; a cell is read as a number or a bool only when the task declares that
parameter `number` or `bool` (see `typed_cells`), since CSV itself carries no types.
"""

from __future__ import annotations

import csv
import io

from synsema.lang.errors import SynError


class DataError(Exception):
    """DATA cannot be read at all: a usage error (exit 2)."""


class Row:
    __slots__ = ("id", "fields", "problem")

    def __init__(self, row_id: str, fields: dict | None, problem: str | None = None):
        self.id = row_id
        self.fields = fields
        self.problem = problem


def read_rows(path: str) -> list[Row]:
    """DATA's rows: CSV when the file name ends in .csv, else JSON lines."""
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            text = handle.read()
    except UnicodeDecodeError:
        raise DataError(f"--data {path}: it is not UTF-8 text") from None
    except OSError as problem:
        raise DataError(f"--data {path}: cannot read it: {problem.strerror}") from None
    rows = _csv_rows(path, text) if path.lower().endswith(".csv") else _json_rows(path, text)
    return _unique_ids(rows)


def _json_rows(path: str, text: str) -> list[Row]:
    from synsema.stdlib.formats import json_decode
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        position = str(len(rows) + 1)
        try:
            value = json_decode(None, line)
        except SynError as problem:
            rows.append(Row(position, None, f"{path}:{number}: {problem.message}"))
            continue
        if type(value) is not dict:
            rows.append(Row(position, None, f"{path}:{number}: a row must be a JSON object of the task's "
                                            "arguments, like {\"question\": \"…\"}"))
            continue
        rows.append(_with_id(position, value))
    return rows


def _csv_rows(path: str, text: str) -> list[Row]:
    reader = csv.reader(io.StringIO(text))
    try:
        table = list(reader)
    except csv.Error as problem:
        raise DataError(f"--data {path}: not CSV: {problem}") from None
    table = [cells for cells in table if cells]
    if not table:
        return []
    header, rows = table[0], []
    for cells in table[1:]:
        position = str(len(rows) + 1)
        if len(cells) != len(header):
            rows.append(Row(position, None, f"{path}: row {position} has {len(cells)} cells; the header "
                                            f"has {len(header)}"))
            continue
        rows.append(_with_id(position, dict(zip(header, cells))))
    return rows


def _with_id(position: str, fields: dict) -> Row:
    given = fields.pop("id", None)
    if given is None:
        return Row(position, fields)
    if type(given) is bool or type(given) not in (str, int):
        return Row(position, None, f"row {position}: its id must be text or a whole number")
    return Row(str(given), fields)


def _unique_ids(rows: list[Row]) -> list[Row]:
    seen = set()
    for row in rows:
        if row.id in seen:
            row.problem = f"row id {row.id} appears twice in DATA; ids must be unique for --resume"
            row.fields = None
        seen.add(row.id)
    return rows


def typed_cells(fields: dict, declared: dict[str, str | None]) -> dict:
    """CSV text cells read as the declared `number` or `bool` where they spell one; any other
    cell stays text, for the task's own type check to accept or refuse."""
    out = dict(fields)
    for name, value in fields.items():
        kind = declared.get(name)
        if type(value) is not str:
            continue
        if kind == "number":
            for convert in (int, float):
                try:
                    out[name] = convert(value.strip())
                    break
                except ValueError:
                    continue
        elif kind == "bool" and value.strip().lower() in ("true", "false"):
            out[name] = value.strip().lower() == "true"
    return out
