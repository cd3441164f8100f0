"""Writes plain_ops.json, the table stdlib.math.plain validates with, from the Pydantic models.

    python -m synsema.stdlib.math.plain_table

Every operation declared with a `kernel` gets a row: its kernel,
its deadline, the adapters (backends) the kernel imports, and its request and result types read from the models' Pydantic core schemas
(the schemas Pydantic itself validates with), in a small vocabulary plain.py knows. A schema
part outside that vocabulary -- a validator that is not a `primitives.after` or `before` rule,
an alias, a default factory -- stops the build with its place named, so an operation
is either described exactly or not on the plain path at all. tests/math/test_plain.py checks
that the file is what this writes, and that both paths agree on examples and generated inputs.
"""

from __future__ import annotations

import json
import os
import sys

from . import catalog

TABLE_PATH = os.path.join(os.path.dirname(__file__), "plain_ops.json")  # TABLE_PATH

INT_KEYS = {"type", "ge", "le", "strict", "metadata", "ref"}
STR_KEYS = {"type", "pattern", "min_length", "max_length", "strict", "metadata", "ref"}


class Unsupported(Exception):
    """A schema part the plain table does not describe."""


def build() -> dict:
    """The table: operations with their request/result kinds, and the models they name."""
    models: dict[str, dict] = {}
    operations = {}
    for identifier, tool in catalog.TOOLS.items():
        if tool.kernel is None:
            continue
        tool.build_validators()
        walker = _Walker(models, identifier)
        operations[identifier] = {
            "kernel": f"{tool.kernel.__module__}:{tool.kernel.__qualname__}",
            "deadline": tool.deadline,
            "adapters": list(tool.adapters),
            "request": walker.kind(tool.request.__pydantic_core_schema__, "request"),
            "result": walker.kind(tool.result_adapter.core_schema, "result")}
    return {"operations": operations, "models": dict(sorted(models.items()))}


def text() -> str:
    """The table as the file holds it: one line per operation and per model."""
    table = build()
    parts = []
    for section in ("operations", "models"):
        rows = [f"  {json.dumps(name)}: {json.dumps(row)}" for name, row in table[section].items()]
        parts.append(f" {json.dumps(section)}: {{\n" + ",\n".join(rows) + "\n }")
    return "{\n" + ",\n".join(parts) + "\n}\n"


class _Walker:
    def __init__(self, models: dict, identifier: str) -> None:
        self.models, self.identifier, self.refs = models, identifier, {}

    def fail(self, where: str, what: str) -> Unsupported:
        return Unsupported(f"{self.identifier}: {where}: {what}")

    def kind(self, schema: dict, where: str) -> dict:
        t = schema["type"]
        if t == "definitions":
            for definition in schema["definitions"]:
                self.refs[definition["ref"]] = definition
            return self.kind(schema["schema"], where)
        if t == "definition-ref":
            return self.kind(self.refs[schema["schema_ref"]], where)
        if t == "int":
            if set(schema) - INT_KEYS:
                raise self.fail(where, f"int constraints {sorted(set(schema) - INT_KEYS)}")
            return {"k": "int", "ge": schema.get("ge"), "le": schema.get("le")}
        if t == "str":
            if set(schema) - STR_KEYS:
                raise self.fail(where, f"str constraints {sorted(set(schema) - STR_KEYS)}")
            return {"k": "str", "pattern": schema.get("pattern"),
                    "min": schema.get("min_length", 0), "max": schema.get("max_length")}
        if t == "bool":
            return {"k": "bool"}
        if t == "literal":
            values = schema["expected"]
            if not all(type(v) in (str, int, bool) for v in values):
                raise self.fail(where, f"literal values {values!r}")
            return {"k": "lit", "values": list(values)}
        if t == "list":
            if "items_schema" not in schema:
                raise self.fail(where, "a list of any value")
            return {"k": "list", "of": self.kind(schema["items_schema"], where + "[]"),
                    "min": schema.get("min_length", 0), "max": schema.get("max_length")}
        if t == "nullable":
            return {"k": "null", "of": self.kind(schema["schema"], where)}
        if t == "tagged-union":
            if not isinstance(schema["discriminator"], str):
                raise self.fail(where, "a discriminator that is not a field name")
            return {"k": "union", "tag": schema["discriminator"],
                    "choices": {tag: self.kind(choice, f"{where}<{tag}>")
                                for tag, choice in schema["choices"].items()}}
        if t == "function-plain":
            marker = getattr(schema["function"]["function"], "plain", None)
            if marker is None:
                raise self.fail(where, "a plain validator without a `plain` description")
            if marker["kind"] == "bigint":
                return {"k": "bigint", "digits": marker["digits"], "min": marker["minimum"],
                        "power": marker["power"], "pattern": marker["pattern"]}
            return {"k": "rat", "num": marker["num_digits"], "den": marker["den_digits"]}
        if t in ("model", "function-after", "function-before"):
            return self.model(schema, where)
        raise self.fail(where, f"schema type {t!r}")

    def model(self, schema: dict, where: str) -> dict:
        checks, before = [], []
        while schema["type"] in ("function-after", "function-before"):
            check = getattr(schema["function"]["function"], "plain", None)
            if check is None:
                raise self.fail(where, "a validator that is not a primitives.after/before rule")
            (checks if schema["type"] == "function-after" else before).insert(0, check)
            schema = schema["schema"]
        if schema["type"] != "model":
            raise self.fail(where, f"a validator around {schema['type']!r}")
        cls, config = schema["cls"], schema.get("config", {})
        if not config.get("strict") or config.get("extra_fields_behavior") != "forbid":
            raise self.fail(where, f"{cls.__name__} is not strict with extra fields forbidden")
        inner = schema["schema"]
        while inner["type"] == "function-before":  # a model's before validators wrap its fields
            check = getattr(inner["function"]["function"], "plain", None)
            if check is None:
                raise self.fail(where, "a before validator that is not a primitives.before rule")
            before.insert(0, check)
            inner = inner["schema"]
        if inner["type"] != "model-fields" or inner.get("computed_fields"):
            raise self.fail(where, f"{cls.__name__}: {inner['type']} with computed fields")
        name = f"{cls.__module__.rsplit('.', 1)[-1]}.{cls.__qualname__}"  # lp.Incomplete
        fields = []
        for field_name, field in inner["fields"].items():
            if set(field) - {"type", "schema", "metadata", "frozen"}:
                raise self.fail(where, f"{name}.{field_name}: {sorted(set(field))}")
            fields.append(self.field(field_name, field["schema"], f"{where}.{field_name}"))
        entry = {"fields": fields, "before": before, "checks": checks}
        if self.models.setdefault(name, entry) != entry:
            raise self.fail(where, f"two different models are named {name}")
        return {"k": "model", "name": name}

    def field(self, name: str, schema: dict, where: str) -> list:
        if schema["type"] != "default":
            return [name, self.kind(schema, where)]
        if "default_factory" in schema or set(schema) - {"type", "schema", "default", "metadata"}:
            raise self.fail(where, "a default other than a constant")
        default = schema["default"]
        if default is not None and type(default) not in (str, int, bool) and default != []:
            raise self.fail(where, f"default {default!r}")
        return [name, self.kind(schema["schema"], where), default]


def main() -> int:
    table = text()  # all of it before the file is opened: a build that fails leaves it as it was
    with open(TABLE_PATH, "w", encoding="utf-8") as handle:
        handle.write(table)
    print(f"wrote {TABLE_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
