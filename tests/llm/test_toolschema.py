"""synsema.lang.toolschema: the one input_schema derivation (SPEC §4), from signatures and from catalogs."""

import pytest

from synsema.lang.errors import SynError
from synsema.lang.toolschema import catalog_schema, input_schema, parse_param


def test_every_type_maps_as_spec_section_4_says():
    schema = input_schema([("n", "number", True), ("t", "text", True), ("b", "bool", True),
                           ("l", "list", True), ("m", "map", True), ("u", None, True)])
    assert schema["properties"] == {"n": {"type": "number"}, "t": {"type": "string"},
                                    "b": {"type": "boolean"}, "l": {"type": "array"},
                                    "m": {"type": "object"}, "u": {"type": "string"}}


def test_the_schema_is_a_closed_object_with_required_in_declaration_order():
    schema = input_schema([("b", "number", True), ("a", None, False), ("c", "text", True)])
    assert schema == {"type": "object",
                      "properties": {"b": {"type": "number"}, "a": {"type": "string"}, "c": {"type": "string"}},
                      "required": ["b", "c"], "additionalProperties": False}
    assert list(schema["properties"]) == ["b", "a", "c"]


def test_no_parameters_still_has_required():
    assert input_schema([]) == {"type": "object", "properties": {}, "required": [],
                                "additionalProperties": False}


def test_catalog_entry_from_tool_spec_gives_the_same_schema_as_the_signature():
    # the seed's tool_spec(add, …): params ["a: number", "b: number"], optional ["b"]
    assert catalog_schema(["a: number", "b: number"], ["b"]) == input_schema(
        [("a", "number", True), ("b", "number", False)])
    assert catalog_schema(["city"]) == input_schema([("city", None, True)])


def test_parse_param_tolerates_spacing():
    assert parse_param("a: number") == ("a", "number")
    assert parse_param("  a :number ") == ("a", "number")
    assert parse_param("city") == ("city", None)


@pytest.mark.parametrize("spec", ["", ": number", "a:", "a:  "])
def test_malformed_param_strings_are_language_errors(spec):
    with pytest.raises(SynError, match="malformed parameter"):
        parse_param(spec)


def test_an_unknown_type_is_an_error_naming_the_known_ones():
    with pytest.raises(SynError, match="unknown parameter type 'float'.*number, text, bool, list, map"):
        catalog_schema(["x: float"])


def test_lang_toolschema_imports_nothing_from_runtime_or_stdlib():
    import subprocess
    import sys
    code = ("import sys, synsema.lang.toolschema; "
            "bad = [m for m in sys.modules if m.startswith(('synsema.runtime', 'synsema.stdlib'))]; "
            "print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
