"""Private backend adapters: sympy, z3 and PySAT seen through the library's own values.

Only domain functions import these modules, and only inside their bodies, so the backends load
in the worker process and never when the library is imported or a request is validated.
Nothing here is public: callers see the typed values of `stdlib.math.primitives` and the
domain modules, never a backend object.
"""

import os

# sympy switches its integer and polynomial ground types to FLINT whenever python-flint is
# installed (it is, for poly.factor's adapter). The sympy adapters were written and measured
# against sympy's pure-Python ground types, and FLINT-backed polynomials change some of
# sympy's calling conventions, so sympy keeps its own types unless the user chose otherwise;
# flint_poly calls FLINT directly. This runs before any adapter imports sympy.
os.environ.setdefault("SYMPY_GROUND_TYPES", "python")
