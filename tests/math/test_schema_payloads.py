"""Schema-valid payloads give a typed result or a model rejection, never anything else.

Payloads are generated from each operation's exported request schema (hypothesis-jsonschema),
so they are exactly what a model reading the schema could send. Leaf schemas (integers, text
patterns, enums, arrays of leaves) go through hypothesis-jsonschema; objects are composed here
with `fixed_dictionaries`, because hypothesis-jsonschema 0.23.1 builds objects with a Hypothesis
internal (`many.more`) that hypothesis 6.170 no longer has. Every one must either be
rejected by the request model (`invalid_request`, with the same issues `check` reports) or run
to a result that re-validates against the declared result type. A `backend_fault`, an
`execution_limit` or a host exception fails the test. Few examples per operation keep the
suite fast; the schemas are large, so the health checks about slow generation are relaxed.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

import synsema.stdlib.math as math_api
from synsema.stdlib.math import catalog
from synsema.stdlib.math.errors import MathError

TOOLS = list(catalog.TOOLS.values())


def _has_object(schema) -> bool:
    if isinstance(schema, dict):
        return schema.get("type") == "object" or any(_has_object(v) for v in schema.values())
    if isinstance(schema, list):
        return any(_has_object(v) for v in schema)
    return False


def payloads(schema: dict):
    """A strategy for instances of `schema` (the provider subset of MATH.md §7.3)."""
    if not _has_object(schema):
        return from_schema(schema)
    if schema.get("type") == "object":
        required = set(schema.get("required", ()))
        props = schema["properties"]
        return st.fixed_dictionaries(
            {k: payloads(v) for k, v in props.items() if k in required},
            optional={k: payloads(v) for k, v in props.items() if k not in required})
    if schema.get("type") == "array":
        return st.lists(payloads(schema["items"]), min_size=schema.get("minItems", 0),
                        max_size=min(schema.get("maxItems", 8), 8))
    if "anyOf" in schema:
        return st.one_of([payloads(option) for option in schema["anyOf"]])
    raise AssertionError(f"unexpected schema node {schema}")


@pytest.mark.parametrize("tool", TOOLS, ids=lambda t: t.identifier)
def test_schema_valid_payloads_give_a_typed_result_or_a_model_rejection(tool):
    @settings(max_examples=10, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                     HealthCheck.data_too_large, HealthCheck.large_base_example])
    @given(payload=payloads(catalog.request_schema(tool)))
    def property_(payload):
        report = math_api.check(tool.identifier, payload)
        try:
            result = math_api.run(tool.identifier, payload)
        except MathError as error:
            assert error.kind == "invalid_request", str(error)
            assert not report.valid
            assert [i["code"] for i in error.issues] == [i.code for i in report.issues]
            return
        assert report.valid
        tool.result_adapter.validate_json(tool.result_adapter.dump_json(result))

    property_()
