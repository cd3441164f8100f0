"""`math.find` ranks by what a mathematician means (MATH.md §7.1, issue 15).

QUERIES are natural-language requests written for this test, each with the operation a
mathematician would expect first. The hit rates are asserted with a margin and printed (run
with -s to see them); the test also pins the ranking rules: weighted fields, vocabulary phrases,
deterministic ties by relevance.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import synsema.stdlib.math as math_api
from synsema.stdlib.math import catalog

QUERIES = [
    ("primality", "nt.prime.test"),
    ("is 1000003 a prime number", "nt.prime.test"),
    ("Miller-Rabin test", "nt.prime.test"),
    ("check whether n is composite", "nt.prime.test"),
    ("probable prime check for a large number", "nt.prime.test"),
    ("prime factorization of an integer", "nt.integer.factor"),
    ("factorise 360 into primes", "nt.integer.factor"),
    ("decompose a number into prime powers", "nt.integer.factor"),
    ("greatest common divisor", "nt.integer.gcd"),
    ("highest common factor of several integers", "nt.integer.gcd"),
    ("Bezout coefficients for 12 and 18", "nt.integer.gcd"),
    ("extended Euclidean algorithm", "nt.integer.gcd"),
    ("least common multiple", "nt.integer.lcm"),
    ("lowest common multiple of 4 and 6", "nt.integer.lcm"),
    ("inverse of 3 mod 7", "nt.modular.inverse"),
    ("modular multiplicative inverse", "nt.modular.inverse"),
    ("Chinese remainder theorem", "nt.crt.solve"),
    ("solve a system of congruences", "nt.crt.solve"),
    ("simultaneous congruences with moduli that are not coprime", "nt.crt.solve"),
    ("n choose k", "comb.binomial"),
    ("binomial coefficient C(100, 50)", "comb.binomial"),
    ("number of ways to choose 5 items from 20", "comb.binomial"),
    ("number of integer partitions of 100", "comb.partitions.count"),
    ("partition function p(n)", "comb.partitions.count"),
    ("factor a polynomial over the rationals", "poly.factor"),
    ("is x^4 + 1 irreducible", "poly.factor"),
    ("irreducible factors of a polynomial", "poly.factor"),
    ("roots of a polynomial", "poly.roots"),
    ("solve the polynomial equation x^2 - 2 = 0", "poly.roots"),
    ("real and complex zeros with multiplicities", "poly.roots"),
    ("isolate the real roots", "poly.roots"),
    ("gcd of two polynomials", "poly.gcd"),
    ("does x^2 + 1 divide x^4 - 1", "poly.gcd"),
    ("determinant of a matrix", "linalg.det"),
    ("is this matrix singular", "linalg.det"),
    ("rank of a matrix", "linalg.rank"),
    ("are these vectors linearly independent", "linalg.rank"),
    ("gaussian elimination", "linalg.rref"),
    ("reduced row echelon form", "linalg.rref"),
    ("kernel of a matrix", "linalg.nullspace"),
    ("null space basis", "linalg.nullspace"),
    ("solve the linear system Ax = b", "linalg.solve"),
    ("system of linear equations", "linalg.solve"),
    ("characteristic polynomial", "linalg.charpoly"),
    ("Cayley-Hamilton", "linalg.charpoly"),
    ("eigenvalues of a 3x3 matrix", "linalg.eigenvalues"),
    ("spectrum of an integer matrix with multiplicities", "linalg.eigenvalues"),
    ("antiderivative of a rational function", "calculus.integrate.rational"),
    ("integrate 1/(x^2 + 1)", "calculus.integrate.rational"),
    ("partial fractions integral", "calculus.integrate.rational"),
    ("satisfiability", "sat.solve"),
    ("is this boolean formula satisfiable", "sat.solve"),
    ("SAT solver with an unsat core", "sat.solve"),
    ("canonical form of a CNF", "sat.cnf.canonicalize"),
    ("remove tautologies and duplicate clauses", "sat.cnf.canonicalize"),
    ("verify that an assignment satisfies a CNF", "sat.assignment.check"),
    ("satisfiability modulo theories", "smt.solve"),
    ("linear integer arithmetic constraints", "smt.solve"),
    ("SMT-LIB query with bit-vectors", "smt.solve"),
    ("z3", "smt.solve"),
    ("invert the matrix [[2, 1], [1, 1]]", "linalg.inverse"),
    ("inverse of a 3x3 matrix", "linalg.inverse"),
    ("Euler phi of 360", "nt.function.evaluate"),
    ("sum of divisors of 28", "nt.function.evaluate"),
    ("Jacobi symbol (2/15)", "nt.function.evaluate"),
    ("primitive root modulo 23", "nt.function.evaluate"),
    ("continued fraction of sqrt(7)", "nt.continued_fraction.expand"),
    ("convergents of 355/113", "nt.continued_fraction.expand"),
    ("prove that 2^89 - 1 is prime with a certificate", "nt.prime.certify"),
    ("Pratt certificate", "nt.prime.certify"),
    ("discriminant of x^3 - x + 1", "poly.resultant"),
    ("resultant of two polynomials", "poly.resultant"),
    ("find a linear recurrence for 1, 1, 2, 3, 5, 8", "seq.recurrence.find"),
    ("rational generating function of a sequence", "seq.recurrence.find"),
    # phrased away from any declared vocabulary
    ("smallest number divisible by 4, 6 and 10", "nt.integer.lcm"),
    ("what is 7^-1 in Z/11Z", "nt.modular.inverse"),
    ("find x with x = 2 mod 3 and x = 3 mod 5", "nt.crt.solve"),
    ("how many subsets of size 3 does a 10-element set have", "comb.binomial"),
    ("volume scaling factor of a linear map", "linalg.det"),
    ("dimension of the column space", "linalg.rank"),
    ("solutions of a homogeneous system", "linalg.nullspace"),
    ("exact integral of 2x/(x^2 - 1) dx", "calculus.integrate.rational"),
    ("find integers x, y with 3x + 5y = 7 and x > 0", "smt.solve"),
    ("which primes divide 1001", "nt.integer.factor"),
]


def hit_rates() -> tuple[float, float]:
    top1 = top3 = 0
    for query, wanted in QUERIES:
        found = [entry.identifier for entry in math_api.find(query, limit=3)]
        top1 += found[:1] == [wanted]
        top3 += wanted in found
    return top1 / len(QUERIES), top3 / len(QUERIES)


def test_natural_queries_find_the_operation_a_mathematician_means():
    assert len(QUERIES) >= 40
    assert {wanted for _, wanted in QUERIES} <= set(catalog.TOOLS)
    top1, top3 = hit_rates()
    print(f"\nmath.find on {len(QUERIES)} queries: top-1 {top1:.0%}, top-3 {top3:.0%}")
    assert top1 >= 0.85 and top3 >= 0.95


def held_out(name: str) -> list[tuple[str, str]]:
    """The (query, operation) rows of tests/math/data/NAME (tab-separated, # comments)."""
    path = Path(__file__).parent / "data" / name
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]
    return [(query, wanted) for query, wanted in rows]


@pytest.mark.parametrize("name,top1_at_least", [("find_heldout.tsv", 0.9),
                                                 ("find_fresh.tsv", 0.8)])
def test_held_out_phrasings_rank_the_meant_operation_in_the_top_three(name, top1_at_least):
    # Issue 28: find_heldout.tsv (the issue's misses and others, written before the synonyms
    # and prefix matching, then used to tune them) and find_fresh.tsv (written after, never
    # tuned on). Measured at landing: 98%/100% and 85%/94% (top-1/top-3); 92%/100% and
    # 86%/96% before, 98%/100% and 86%/98% after "integers" stopped finding "integrate".
    rows = held_out(name)
    assert {wanted for _, wanted in rows} <= set(catalog.TOOLS) and len(rows) >= 30
    top1 = top3 = 0
    for query, wanted in rows:
        found = [entry.identifier for entry in math_api.find(query, limit=3)]
        top1 += found[:1] == [wanted]
        top3 += wanted in found
    print(f"\nmath.find on {name} ({len(rows)}): top-1 {top1 / len(rows):.0%}, "
          f"top-3 {top3 / len(rows):.0%}")
    assert top3 / len(rows) >= 0.9 and top1 / len(rows) >= top1_at_least


def test_prefixes_notation_and_the_named_field_decide():
    assert math_api.find("eigen")[0].identifier == "linalg.eigenvalues"  # prefix of a word
    assert math_api.find("factor a polynomial over GF(101)")[0].identifier == "poly.modp.compute"
    assert math_api.find("factor a polynomial over F_7")[0].identifier == "poly.modp.compute"
    assert math_api.find("factor a polynomial over the rationals")[0].identifier == "poly.factor"
    assert math_api.find("A^-1 of a 3x3 matrix")[0].identifier == "linalg.inverse"
    # a query word shorter than four letters is not a prefix: "ran" does not find "rank"
    assert "linalg.rank" not in [e.identifier for e in math_api.find("ran")]


def test_a_catalog_word_is_not_the_prefix_of_another():
    # "integers" (stem "integ") is a word of the catalog, so it does not find "integrate"
    # (stem "integr"); monomials such as 3x are not words; x > 0 states an inequality
    found = [e.identifier for e in math_api.find("find integers x, y with 3x + 5y = 7 and x > 0",
                                                 limit=3)]
    assert "smt.solve" in found and not any(f.startswith("calculus.") for f in found)
    assert not any(e.identifier.startswith("calculus.") for e in math_api.find("integers"))
    assert math_api.find("integrate 1/(x^2+1)")[0].identifier.startswith("calculus.")


@pytest.mark.parametrize("query,wanted", [
    ("primality", "nt.prime.test"), ("satisfiability", "sat.solve"),
    ("greatest common divisor", "nt.integer.gcd"), ("gaussian elimination", "linalg.rref"),
    ("kernel of a matrix", "linalg.nullspace"), ("factor polynomial", "poly.factor")])
def test_the_queries_the_issue_names_come_first(query, wanted):
    assert math_api.find(query)[0].identifier == wanted


def test_weighted_fields_and_phrases_decide_and_ties_go_by_relevance():
    # a whole vocabulary phrase beats its words scattered over other operations
    assert math_api.find("satisfiability modulo theories")[0].identifier == "smt.solve"
    assert math_api.find("satisfiability")[0].identifier == "sat.solve"
    # "matrix" is everywhere in linalg, so the rarer word decides
    assert math_api.find("matrix kernel")[0].identifier == "linalg.nullspace"
    # ranking is deterministic: the same query gives the same order every time
    order = [e.identifier for e in math_api.find("integer", limit=100)]
    assert order == [e.identifier for e in math_api.find("integer", limit=100)]
    assert math_api.find("zzzz-qqqq") == [] and math_api.find("the of and") == []


def test_the_operations_the_queries_ask_for_declare_a_vocabulary():
    # an operation without one is still found by its identifier, summary and claim; a new
    # operation should declare one (and add its queries above)
    for tool in {catalog.TOOLS[wanted] for _, wanted in QUERIES}:
        assert len(tool.vocabulary) >= 3, (
            f"{tool.identifier}: declare vocabulary=(...) in its MathTool, the words a "
            "mathematician would search it by (stdlib/math/README.md)")
