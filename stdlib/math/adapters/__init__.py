"""Private backend adapters: sympy, z3 and PySAT seen through the library's own values.

Only domain functions import these modules, and only inside their bodies, so the backends load
in the worker process and never when the library is imported or a request is validated.
Nothing here is public: callers see the typed values of `stdlib.math.primitives` and the
domain modules, never a backend object.
"""
