"""Preflight of poly.system.solve: known solution sets with multiplicities, degenerate systems
(one unknown, a constant equation, a single rational point), the cases a weaker method gets
wrong (pairing the roots of separate eliminants, dropping multiplicity, a first candidate t
that does not separate), the honest refusals, and the request boundary. Every result is
re-checked by math_support.check_system (exact substitution modulo p in Fractions, the counts,
the solutions numerically against the equations and the basis)."""

from __future__ import annotations

from math_support import check_system, largest_inputs, rejected, run

ID = "poly.system.solve"


def poly(*terms) -> dict:
    """poly((c, [e1, e2]), ...) -> the wire polynomial."""
    return {"terms": [{"coefficient": c, "exponents": list(e)} for c, e in terms]}


def solve(variables, *equations) -> dict:
    payload = {"variables": list(variables), "equations": list(equations)}
    result = run(ID, payload)
    check_system(payload, result)
    return result


def shape(result) -> list:
    return sorted((f["polynomial"]["coefficients"], f["multiplicity"])
                  for f in result["solutions"])


def test_known_answers():
    circle = solve("xy", poly((1, [2, 0]), (1, [0, 2]), (-1, [0, 0])),
                   poly((1, [1, 0]), (-1, [0, 1])))
    assert circle["count_with_multiplicity"] == circle["distinct"] == 2
    assert shape(circle) == [([2, 0, -1], 1)]
    lines = solve("xy", poly((1, [1, 0]), (1, [0, 1]), (-3, [0, 0])),
                  poly((1, [1, 0]), (-1, [0, 1]), (-1, [0, 0])))
    assert [f["point"] for f in lines["solutions"]] == [["2", "1"]]
    assert lines["groebner_basis"] == [poly(("1", [1, 0]), ("-2", [0, 0])),
                                       poly(("1", [0, 1]), ("-1", [0, 0]))]
    cubic = solve("x", poly((1, [3]), (-1, [1])))
    assert sorted(f["point"][0] for f in cubic["solutions"]) == ["-1", "0", "1"]


def test_degenerate_systems():
    constant = solve("xy", poly((5, [0, 0])), poly((1, [1, 0])))
    assert constant == {"status": "inconsistent", "groebner_basis": [
        {"terms": [{"coefficient": "1", "exponents": [0, 0]}]}]}
    inconsistent = solve("xy", poly((1, [1, 1]), (-1, [0, 0])), poly((1, [1, 1]), (-2, [0, 0])))
    assert inconsistent["status"] == "inconsistent"
    origin = solve("xy", poly((1, [2, 0])), poly((1, [0, 2])))
    assert origin["count_with_multiplicity"] == 4 and origin["distinct"] == 1
    assert origin["solutions"][0]["point"] == ["0", "0"]
    assert origin["solutions"][0]["multiplicity"] == 4
    single = solve("x", poly(("2/3", [1]), (1, [0])))
    assert single["solutions"][0]["point"] == ["-3/2"]


def test_adversarial_pairing_multiplicity_and_separation():
    # x^2 = 2, y^2 = 2, xy = 2: pairing the roots of the two eliminants gives 4 points, the
    # system has 2: (sqrt 2, sqrt 2) and (-sqrt 2, -sqrt 2)
    paired = solve("xy", poly((1, [2, 0]), (-2, [0, 0])), poly((1, [0, 2]), (-2, [0, 0])),
                   poly((1, [1, 1]), (-2, [0, 0])))
    assert paired["count_with_multiplicity"] == paired["distinct"] == 2
    # x^2 = 2, y^2 = 3: t = x does not separate (sqrt 2, +-sqrt 3); one family of degree 4
    field = solve("xy", poly((1, [2, 0]), (-2, [0, 0])), poly((1, [0, 2]), (-3, [0, 0])))
    assert field["distinct"] == 4 and [len(f["polynomial"]["coefficients"])
                                       for f in field["solutions"]] == [5]
    assert field["separating"] != [1, 0]
    # the parabola meets its tangent twice at the origin: multiplicity 2, not a simple point
    tangent = solve("xy", poly((1, [0, 1]), (-1, [2, 0])), poly((1, [0, 1])))
    assert shape(tangent) == [([1, 0], 2)]
    # a triple root beside a simple one: (x - 1)^3 (x + 2) = 0, y = x
    mixed = solve("xy", poly((1, [4, 0]), (-1, [3, 0]), (-3, [2, 0]), (5, [1, 0]), (-2, [0, 0])),
                  poly((1, [0, 1]), (-1, [1, 0])))
    assert sorted((f["point"], f["multiplicity"]) for f in mixed["solutions"]) == [
        (["-2", "-2"], 1), (["1", "1"], 3)]


def test_positive_dimensional_systems_are_refused_with_evidence():
    line = solve("xy", poly((1, [1, 0]), (-1, [0, 1])), poly((2, [1, 0]), (-2, [0, 1])))
    assert line["status"] == "positive_dimensional" and line["unbounded"] == ["y"]
    assert "solutions" not in line
    axes = solve("xyz", poly((1, [1, 1, 0])), poly((1, [0, 1, 1])), poly((1, [1, 0, 1])))
    assert axes["status"] == "positive_dimensional"


def test_invariants_on_three_unknowns():
    sphere = solve("xyz", poly((1, [2, 0, 0]), (1, [0, 2, 0]), (1, [0, 0, 2]), (-3, [0, 0, 0])),
                   poly((1, [1, 0, 0]), (-1, [0, 1, 0])), poly((1, [1, 1, 0]), (-1, [0, 0, 1])))
    assert sphere["count_with_multiplicity"] == 4
    solve("xyz", poly((1, [2, 0, 0]), ("-1/2", [0, 1, 0]), (3, [0, 0, 0])),
          poly((1, [0, 2, 0]), (-2, [0, 0, 1]), (1, [1, 0, 0])),
          poly((1, [0, 0, 2]), (1, [1, 0, 0]), (-7, [0, 0, 0])))


def test_request_boundary():
    good = {"variables": ["x", "y"], "equations": [poly((1, [2, 0]), (-1, [0, 0])),
                                                    poly((1, [0, 2]), (-1, [0, 0]))]}
    assert run(ID, good)["count_with_multiplicity"] == 4
    assert rejected(ID, {**good, "variables": ["x", "x"]}) == ["system_variables"]
    assert rejected(ID, {**good, "equations": good["equations"][:1]}) == ["system_bezout"]
    assert rejected(ID, {**good, "equations": [poly((1, [5, 0])), poly((1, [0, 5]))]}) == [
        "system_bezout"]
    assert rejected(ID, {**good, "equations": [poly((1, [2])), poly((1, [0, 2]))]}) == [
        "system_terms"]
    assert rejected(ID, {**good, "equations": [poly((1, [2, 0]), (2, [2, 0])),
                                               poly((1, [0, 2]))]}) == ["system_terms"]
    assert rejected(ID, {**good, "equations": [poly((0, [2, 0])), poly((1, [0, 2]))]}) == [
        "system_terms"]
    assert rejected(ID, {**good, "equations": [poly((1, [9, 0])), poly((1, [0, 1]))]}) != []
    assert rejected(ID, {**good, "equations": [poly((1.5, [2, 0])), poly((1, [0, 2]))]}) == [
        "rational_type"]
    assert rejected(ID, {"variables": ["x", "y", "z", "w", "v"], "equations": []}) != []
    largest = next(p for _, i, p in largest_inputs() if i == ID)  # four unknowns, degree 8
    result = run(ID, largest)
    assert result["status"] == "finite"
    check_system(largest, result)
