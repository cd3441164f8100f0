"""Preflight of smt.nonlinear.solve: known verdicts (x^2 = 2 has no integer solution, x^2 < 0
no real one, the circle meets the hyperbola xy = 1/4 at algebraic points, the least x + y with
xy > 100), the degenerate empty query and zero rounds, the adversarial Fermat cubic (which must
come back unknown, never unsat: z3 cannot decide it and must not be made to look as if it did),
and the invariant: every model is checked here independently of z3 (rationals by exact
substitution, algebraic values with sympy's exact real roots), and every optimum against a
brute force; plus the request boundary."""

from __future__ import annotations

from fractions import Fraction

from math_support import rejected, run

ID = "smt.nonlinear.solve"


def solve(logic: str, script: str, **options):
    return run(ID, {"logic": logic, "script": script, **options})


def values(result) -> dict:
    """name -> Fraction, bool, or a sympy real algebraic number (CRootOf)."""
    from sympy import CRootOf, Poly, Symbol
    x = Symbol("x")
    out = {}
    for entry in result["model"]:
        v = entry["value"]
        if v["kind"] == "bool":
            out[entry["name"]] = v["value"]
        elif v["kind"] == "algebraic":
            p = Poly(v["polynomial"], x)
            out[entry["name"]] = CRootOf(p, v["index"] - 1)  # real roots come first, increasing
        else:
            out[entry["name"]] = Fraction(v["value"])
    return out


def exactly_zero(expr) -> bool:
    from sympy import Symbol, minimal_polynomial
    return minimal_polynomial(expr, Symbol("t")) == Symbol("t")


def test_known_verdicts():
    from sympy import Rational
    assert solve("QF_NIA", "(declare-const x Int)(assert (= (* x x) 2))") == {
        "status": "unsat", "logic": "QF_NIA"}
    assert solve("QF_NRA", "(declare-const x Real)(assert (< (* x x) 0))")["status"] == "unsat"
    result = solve("QF_NRA", "(declare-const x Real)(declare-const y Real)"
                             "(assert (= (+ (* x x) (* y y)) 1))(assert (= (* x y) (/ 1 4)))")
    assert result["status"] == "sat" and result["check"] == "z3_algebraic"
    v = values(result)
    assert exactly_zero(v["x"] ** 2 + v["y"] ** 2 - 1) and exactly_zero(v["x"] * v["y"] - Rational(1, 4))
    sqrt2 = solve("QF_NRA", "(declare-const x Real)(assert (= (* x x) 2))(assert (> x 0))")
    assert sqrt2["model"][0]["value"]["polynomial"] == [1, 0, -2]
    assert sqrt2["model"][0]["value"]["index"] == 2


def test_optimum_agrees_with_brute_force():
    script = ("(declare-const x Int)(declare-const y Int)(declare-const c Int)"
              "(assert (and (> x 0) (> y 0) (< x 60) (< y 60)))"
              "(assert (> (* x y) 100))(assert (= c (+ x y)))")
    result = solve("QF_NIA", script, objective={"sense": "minimize", "constant": "c"})
    best = min(a + b for a in range(1, 60) for b in range(1, 60) if a * b > 100)
    assert result["status"] == "optimal" and result["value"] == {"kind": "int", "value": best}
    v = values(result)
    assert v["x"] * v["y"] > 100 and v["c"] == best == v["x"] + v["y"]
    assert result["check"] == "exact"
    top = solve("QF_NIA", script, objective={"sense": "maximize", "constant": "c"})
    assert (top["status"], top["value"]["value"]) == ("optimal", 118)


def test_degenerate_queries():
    assert solve("QF_NIA", "(assert true)") == {"status": "sat", "model": [], "check": "exact"}
    assert solve("QF_NRA", "(assert false)")["status"] == "unsat"
    lazy = solve("QF_NIA", "(declare-const x Int)(assert (> (* x x) 4))",
                 objective={"sense": "minimize", "constant": "x"}, rounds=0)
    assert lazy["status"] == "feasible" and lazy["stopped"] == "rounds" and lazy["bound"] is None
    # unbounded below: never optimal; the best so far with its honest reason
    unbounded = solve("QF_NIA", "(declare-const x Int)(assert (> (* x x) 4))",
                      objective={"sense": "minimize", "constant": "x"}, rounds=5)
    assert unbounded["status"] == "feasible" and unbounded["bound"] is None


def test_adversarial_fermat_cubic_stays_unknown():
    result = solve("QF_NIA", "(declare-const x Int)(declare-const y Int)(declare-const z Int)"
                             "(assert (and (> x 0) (> y 0) (> z 0)))"
                             "(assert (= (+ (* x x x) (* y y y)) (* z z z)))")
    assert result["status"] == "unknown" and result["reason_kind"] == "resource_limit"
    assert result["resource_used"] is not None
    # the infimum of x over x > 0 is not attained: never called optimal
    inf = solve("QF_NRA", "(declare-const x Real)(assert (> (* x x x) 0))",
                objective={"sense": "minimize", "constant": "x"}, rounds=8)
    assert inf["status"] == "feasible" and Fraction(inf["value"]["value"]) > 0


def test_request_boundary():
    def codes(script, logic="QF_NIA", **options):
        return rejected(ID, {"logic": logic, "script": script, **options})
    assert codes("(declare-const x Int)(declare-const y Int)(assert (= (div x y) 1))") == [
        "smt_divisor"]
    assert codes("(declare-const x Real)(declare-const y Real)(assert (= (/ x y) 1))",
                 "QF_NRA") == ["smt_divisor"]
    assert codes("(declare-const x Int)(assert (forall ((y Int)) (> x y)))") == [
        "smt_quantifier"]
    assert codes("(set-option :timeout 1)(declare-const x Int)") == ["smt_command_not_allowed"]
    assert codes("(declare-fun f (Int) Int)(assert (= (f 1) 2))") == ["smt_not_in_logic"]
    assert codes("(declare-const x Real)(assert (> x 1))") == ["smt_not_in_logic"]
    assert codes("(declare-const x Int)", objective={"sense": "minimize", "constant": "y"}) == [
        "objective_not_declared"]
    assert codes("(declare-const b Bool)", objective={"sense": "minimize", "constant": "b"}) == [
        "objective_not_declared"]
    assert rejected(ID, {"logic": "QF_LIA", "script": ""}) == ["literal_error"]
    assert rejected(ID, {"logic": "QF_NIA", "script": "", "rounds": 65}) == ["less_than_equal"]
    assert rejected(ID, {"logic": "QF_NIA", "script": "",
                         "resource_limit": 10**7}) == ["less_than_equal"]
    # smt.solve keeps its linear logics
    assert rejected("smt.solve", {"logic": "QF_NIA", "script": ""}) == ["literal_error"]
    big = "".join(f"(declare-const x{i} Int)" for i in range(50))
    big += "(assert (= (* " + " ".join(f"x{i}" for i in range(50)) + ") 1))"
    assert solve("QF_NIA", big)["status"] in ("sat", "unknown")
    assert codes(big + "(declare-const extra Int)") == ["smt_limit"]
