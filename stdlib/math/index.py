"""Which domain module declares each public operation, known without importing any of them.

Importing a domain module creates its Pydantic models, so a call that names one operation
imports only the module that declares it (`catalog.get`); discovery, which shows every
operation, imports them all. This table is the only place the two facts meet: `catalog` checks
it against a module's `TOOLS` each time it imports one and refuses a mismatch, and
tests/math/test_catalog.py checks that every module of `domains/` with a `TOOLS` tuple is listed.
It imports nothing, so the parent can check an identifier before it starts the worker.
"""

from __future__ import annotations

# domain module (stdlib/math/domains/NAME.py) -> the identifiers its TOOLS tuple declares
MODULES: dict[str, tuple[str, ...]] = {
    "algebraic": ("nt.algebraic.minimal_polynomial",),
    "arithmetic": ("nt.function.evaluate",),
    "calculus": ("calculus.integrate.definite", "calculus.integrate.rational"),
    "certify": ("nt.prime.certify",),
    "contfrac": ("nt.continued_fraction.expand",),
    "cyclotomic": ("poly.cyclotomic",),
    "galois": ("poly.galois.group",),
    "holonomic": ("seq.holonomic.find",),
    "inverse": ("linalg.inverse",),
    "lattice": ("linalg.integer.normal_forms", "nt.integer.relations"),
    "lll": ("linalg.lattice.reduce",),
    "linalg": ("linalg.charpoly", "linalg.det", "linalg.eigenvalues", "linalg.nullspace",
               "linalg.rank", "linalg.rref", "linalg.solve"),
    "lp": ("opt.lp.solve",),
    "modp": ("poly.modp.compute",),
    "nt": ("comb.binomial", "comb.partitions.count", "nt.crt.solve", "nt.integer.factor",
           "nt.integer.gcd", "nt.integer.lcm", "nt.modular.inverse", "nt.prime.test"),
    "poly": ("poly.factor", "poly.gcd", "poly.roots"),
    "polysystem": ("poly.system.solve",),
    "pslq": ("nt.real.relations",),
    "resultant": ("poly.resultant",),
    "series": ("calculus.series.expand",),
    "sat": ("sat.assignment.check", "sat.cnf.canonicalize", "sat.solve"),
    "sequence": ("seq.recurrence.find",),
    "smt": ("smt.solve",),
    "smt_nonlinear": ("smt.nonlinear.solve",),
}

DECLARED_IN: dict[str, str] = {identifier: module for module, identifiers in MODULES.items()
                               for identifier in identifiers}
if len(DECLARED_IN) != sum(map(len, MODULES.values())):
    raise RuntimeError("an operation identifier is listed twice in stdlib/math/index.py")
IDENTIFIERS: tuple[str, ...] = tuple(sorted(DECLARED_IN))
DOMAINS: tuple[str, ...] = tuple(sorted({i.split(".", 1)[0] for i in IDENTIFIERS}))


def domain_modules(domains) -> list[str]:
    """The modules that declare an operation of one of `domains`, in table order."""
    return [module for module, identifiers in MODULES.items()
            if any(i.split(".", 1)[0] in domains for i in identifiers)]
