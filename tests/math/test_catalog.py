"""The composition catalog test (MATH.md §9.1): every declaration, every published example.

Each example payload must validate, run through the real `run` path (a forked worker), and its
result must re-validate against the declared result type. The exported request schemas must
stay inside the JSON-Schema subset that model providers accept, and every validator-only rule
a declaration lists must be stated in its schema.
"""

from __future__ import annotations

import json
import re

import jsonschema
import pytest

import synsema.stdlib.math as math_api
from synsema.stdlib.math import catalog
from synsema.stdlib.math.errors import MathError

TOOLS = list(catalog.TOOLS.values())
EXAMPLES = [(tool, i) for tool in TOOLS for i in range(len(tool.examples))]

# The provider-safe subset of MATH.md §7.3 plus the structural keywords it implies.
ALLOWED_KEYWORDS = {"type", "properties", "required", "additionalProperties", "items", "anyOf",
                    "enum", "const", "minimum", "maximum", "minItems", "maxItems", "maxLength",
                    "pattern", "description", "default"}
TWO_PART = re.compile(r"^(Compute|Decide|Evaluate) [^;]+; \S.*[.]$")


TIER_A = ["nt.integer.factor", "nt.prime.test", "nt.integer.gcd", "nt.integer.lcm",
          "nt.modular.inverse", "nt.crt.solve", "comb.binomial", "comb.partitions.count",
          "poly.factor", "poly.roots", "poly.gcd", "linalg.det", "linalg.rank", "linalg.rref",
          "linalg.nullspace", "linalg.solve", "linalg.charpoly", "linalg.eigenvalues",
          "calculus.integrate.rational", "sat.cnf.canonicalize", "sat.assignment.check",
          "sat.solve", "smt.solve"]
# The operations added by issue 15 (MATH.md's instrument for investigating conjectures).
ADDED = ["linalg.inverse", "nt.function.evaluate", "nt.continued_fraction.expand",
         "nt.prime.certify", "poly.resultant", "seq.recurrence.find", "poly.modp.compute",
         "linalg.integer.normal_forms", "nt.integer.relations", "opt.lp.solve"]
# The operations added by issue 28.
# One identifier a line: several engineers add operations at once.
ADDED_28 = [
    "poly.cyclotomic",
    "linalg.lattice.reduce",
    "poly.galois.group",
    "calculus.integrate.definite",
    "nt.algebraic.minimal_polynomial",
    "seq.holonomic.find",
    "poly.system.solve",
    "smt.nonlinear.solve",
    "calculus.series.expand",
    "nt.real.relations",
]


def test_the_catalog_exposes_the_tier_a_and_the_added_operations():
    assert len(TIER_A) == 23
    assert sorted(catalog.TOOLS) == sorted(TIER_A + ADDED + ADDED_28)


def test_identifiers_and_tool_names_are_unique_and_well_formed():
    names = [t.identifier.replace(".", "_") for t in TOOLS]
    assert len(set(names)) == len(names)
    for tool in TOOLS:
        assert re.fullmatch(r"^[a-z]+(\.[a-z_]+)+$", tool.identifier)
        assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", tool.identifier.replace(".", "_"))


def test_domain_modules_export_immutable_tuples():
    from synsema.stdlib.math.domains import calculus, linalg, nt, poly, sat, smt
    for module in (nt, poly, linalg, calculus, sat, smt):
        assert isinstance(module.TOOLS, tuple) and module.TOOLS
    with pytest.raises(AttributeError):
        TOOLS[0].deadline = 99  # frozen declarations


@pytest.mark.parametrize("tool", TOOLS, ids=lambda t: t.identifier)
def test_example_descriptions_state_the_computation_then_the_precondition(tool):
    for example in tool.examples:
        assert TWO_PART.match(example.description), example.description


@pytest.mark.parametrize("tool,index", EXAMPLES,
                         ids=lambda v: v.identifier if hasattr(v, "identifier") else str(v))
def test_every_published_example_runs_and_its_result_revalidates(tool, index):
    payload = tool.examples[index].payload
    tool.request.model_validate(payload)
    result = math_api.run(tool.identifier, payload)
    again = tool.result_adapter.validate_json(tool.result_adapter.dump_json(result))
    assert again == result
    # the published result schema describes what the wire actually carries
    jsonschema.validate(json.loads(tool.result_adapter.dump_json(result)),
                        catalog.result_schema(tool))


@pytest.mark.parametrize("tool", TOOLS, ids=lambda t: t.identifier)
def test_schemas_are_self_contained_with_no_dangling_references(tool):
    for schema in (catalog.request_schema(tool), catalog.result_schema(tool)):
        text = json.dumps(schema)
        assert "$ref" not in text and "#/$defs" not in text and "$defs" not in text
        assert "discriminator" not in text and "oneOf" not in text
        jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("identifier", ["linalg.det", "linalg.charpoly", "linalg.eigenvalues"])
def test_square_matrix_operations_show_a_square_example_matrix(identifier):
    tool = catalog.TOOLS[identifier]
    matrix = catalog.request_schema(tool)["properties"]["matrix"]
    shown = json.loads(re.search(r"Example: (\{.*\})", matrix["description"]).group(1))
    assert shown["nrows"] == shown["ncols"] == len(shown["rows"]) == 2
    assert "square" in matrix["description"].lower()
    assert math_api.check(identifier, {"matrix": shown}).valid


def test_exact_integers_are_json_integers_of_any_size_or_text_in_schema_and_validator():
    tool = catalog.TOOLS["nt.integer.gcd"]
    schema = catalog.request_schema(tool)
    entry = schema["properties"]["values"]["items"]
    assert "read exactly at any size" in entry["description"]
    assert "must be text" not in json.dumps(schema)
    big = 2**53 + 1  # = 3 * 107 * 28059810762433; a float64 layer would make it 2^53
    for value in (big, str(big)):
        jsonschema.validate({"values": [value, 3]}, schema)
        assert math_api.check("nt.integer.gcd", {"values": [value, 3]}).valid
        assert math_api.run("nt.integer.gcd", {"values": [value, 3]}).gcd == 3
    # out of range: the schema's text pattern and the validator agree
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"values": ["1" + "0" * 300]}, schema)
    assert not math_api.check("nt.integer.gcd", {"values": [10**300]}).valid


def _keywords(node, found: set) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            found.add(key)
            if key == "properties":
                for sub in value.values():
                    _keywords(sub, found)
            elif key not in ("enum", "const", "default", "description", "pattern"):
                _keywords(value, found)
    elif isinstance(node, list):
        for item in node:
            _keywords(item, found)


def _descriptions(node) -> str:
    if isinstance(node, dict):
        own = node.get("description", "") if isinstance(node.get("description"), str) else ""
        return own + " " + " ".join(_descriptions(v) for k, v in node.items()
                                    if k != "description")
    if isinstance(node, list):
        return " ".join(_descriptions(v) for v in node)
    return ""


@pytest.mark.parametrize("tool", TOOLS, ids=lambda t: t.identifier)
def test_request_schemas_stay_in_the_provider_subset_and_state_every_rule(tool):
    schema = catalog.request_schema(tool)
    found: set = set()
    _keywords(schema, found)
    assert found <= ALLOWED_KEYWORDS, found - ALLOWED_KEYWORDS
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    jsonschema.Draft202012Validator.check_schema(schema)
    for example in tool.examples:
        jsonschema.validate(example.payload, schema)
    text = _descriptions(schema)
    assert "Example: " in schema["description"]
    for rule in tool.rules:
        assert rule.text in text, f"{tool.identifier}: rule {rule.code} is not in the schema"


def test_find_ranks_exact_identifier_then_prefix_then_overlap():
    ids = [e.identifier for e in math_api.find("linalg")]
    assert ids == sorted(ids) and all(i.startswith("linalg.") for i in ids)
    assert math_api.find("linalg.det")[0].identifier == "linalg.det"
    assert math_api.find("eigenvalues")[0].identifier == "linalg.eigenvalues"
    assert [e.identifier for e in math_api.find("", domain="sat")] == [
        "sat.assignment.check", "sat.cnf.canonicalize", "sat.solve"]
    assert len(math_api.find(limit=100)) == len(TIER_A + ADDED + ADDED_28)
    assert math_api.find("zzzz-qqqq") == []


def test_find_full_detail_and_describe_carry_schemas_examples_and_bounds():
    full = math_api.find("sat.solve", detail="full", limit=1)[0]
    assert full == math_api.describe("sat.solve")
    assert full.outcomes == ["sat", "unsat", "unknown"]
    assert full.params == ["cnf: map", "assumptions: list", "conflict_budget",
                           "solver: text"]
    assert full.optional == ["assumptions", "conflict_budget", "solver"]
    assert full.examples[0].payload == {"cnf": {"num_vars": 2, "clauses": [[-1, 2], [1, 2]]}}
    assert full.bounds.computation and full.deadline_ms == 10000
    assert full.input_schema == catalog.request_schema(catalog.TOOLS["sat.solve"])
    assert "$defs" not in json.dumps(full.input_schema)


def test_find_and_describe_reject_bad_arguments_with_a_message():
    with pytest.raises(MathError) as info:
        math_api.find(detail="everything")
    assert info.value.kind == "invalid_argument" and "detail" in str(info.value)
    with pytest.raises(MathError):
        math_api.find(limit=0)
    with pytest.raises(MathError) as info:
        math_api.find(domain="topology")
    assert f"domains: {', '.join(catalog.DOMAINS)}" in str(info.value)
    assert {"calculus", "comb", "linalg", "nt", "poly", "sat", "smt"} <= set(catalog.DOMAINS)
    with pytest.raises(MathError) as info:
        math_api.describe("linalg.determinant")
    assert str(info.value).startswith("math.describe linalg.determinant: unknown_operation\n"
                                      "- did you mean: linalg.det")
