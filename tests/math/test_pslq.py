"""Preflight of nt.real.relations: known relations (Machin, pi^2 = 6 zeta(2), a minimal
polynomial), the negative claim bounded by norm and precision, the honest outcomes (too little
precision, a value that is not real, a value that is 0), and the request boundary. Relations
are re-checked here at three times the precision with mpmath."""

from __future__ import annotations

from math_support import rejected, run

ID = "nt.real.relations"


def relate(values, digits, bound) -> dict:
    return run(ID, {"values": values, "digits": digits, "norm_bound": bound})


def check_relation(values, relation, digits) -> None:
    import mpmath
    from synsema.stdlib.math.domains import expression
    from synsema.stdlib.math.adapters import mpmath_pslq
    with mpmath.workdps(3 * digits):
        xs = [mpmath_pslq.evaluate(expression.parse(v), 3 * digits) for v in values]
        assert abs(mpmath.fsum(m * x for m, x in zip(relation, xs))) < mpmath.mpf(10) ** -(
            2 * digits)
    assert any(relation)


def test_known_relations():
    machin = relate(["atan(1/5)", "atan(1/239)", "pi"], 50, 1000)
    assert machin["status"] == "candidate"
    assert machin["relation"] in ([-16, 4, 1], [16, -4, -1])
    assert machin["vanishing_digits"] >= 75
    check_relation(["atan(1/5)", "atan(1/239)", "pi"], machin["relation"], 50)
    basel = relate(["pi^2", "zeta(2)"], 30, 10)
    assert basel["relation"] in ([1, -6], [-1, 6])
    # 1, a^2, a^4 for a = sqrt 2 + sqrt 3: a^4 - 10 a^2 + 1 = 0
    quartic = relate(["1", "(sqrt(2)+sqrt(3))^2", "(sqrt(2)+sqrt(3))^4"], 40, 100)
    assert quartic["relation"] in ([1, -10, 1], [-1, 10, -1])


def test_negative_claims_are_bounded_by_norm_and_precision():
    apery = relate(["zeta(3)", "pi^3", "log(2)^3"], 100, 10**6)
    assert apery["status"] == "none_below" and apery["norm_bound"] > 10**6
    # a + b sqrt 6 has no relation with sqrt 2 + sqrt 3 of small norm
    none = relate(["sqrt(2)+sqrt(3)", "1", "sqrt(6)"], 40, 100)
    assert none["status"] == "none_below" and none["norm_bound"] > 100


def test_adversarial_too_little_precision_is_not_a_relation():
    # eight unrelated constants at 30 digits: PSLQ "finds" a relation that 60 digits refute;
    # a method that trusted its first hit would report it
    eight = ["zeta(3)", "pi^3", "log(2)^3", "pi^2*log(2)", "catalan", "euler", "sqrt(2)", "e"]
    low = relate(eight, 30, 10**12 - 1)
    assert low["status"] == "incomplete" and low["reason"] == "failed_at_double_precision"
    assert low["relation"] is not None
    high = relate(eight, 300, 10**12 - 1)  # the request bound: the negative claim holds
    assert high["status"] == "none_below" and high["norm_bound"] >= 10**12


def test_degenerate_values():
    assert relate(["log(0)", "pi"], 30, 10)["status"] == "undefined"
    assert relate(["sqrt(-1)", "pi"], 30, 10) == {"status": "undefined", "index": 0,
                                                   "message": "sqrt of that argument is not real"}
    assert relate(["1", "1/(1-1)"], 30, 10)["index"] == 1
    zero = relate(["sin(pi)", "pi"], 30, 10)
    assert zero["status"] == "incomplete" and zero["reason"] == "value_too_small"
    assert relate(["2", "3"], 20, 5)["relation"] in ([3, -2], [-3, 2])


def test_request_boundary():
    good = {"values": ["pi", "e"], "digits": 30, "norm_bound": 10}
    assert rejected(ID, {**good, "values": ["pi"]}) == ["too_short"]
    assert rejected(ID, {**good, "values": ["x"]}) != []
    assert rejected(ID, {**good, "values": ["pi", "x + 1"]}) == ["constant_grammar"]
    assert rejected(ID, {**good, "values": ["pi", "__import__('os')"]}) == ["constant_grammar"]
    assert rejected(ID, {**good, "values": ["pi"] * 9}) == ["too_long"]
    assert rejected(ID, {**good, "digits": 301}) == ["less_than_equal"]
    assert rejected(ID, {**good, "digits": 19}) == ["greater_than_equal"]
    assert rejected(ID, {**good, "norm_bound": 0}) == ["integer_out_of_range"]
    assert rejected(ID, {**good, "norm_bound": 10**12}) == ["integer_out_of_range"]
    assert rejected(ID, {**good, "norm_bound": 1.5}) == ["integer_type"]
