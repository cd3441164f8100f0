"""Pydantic-free computations of the operations that need no backend (issue 31).

Each kernel takes the validated request -- any object with the request's fields as attributes:
the Pydantic model, or `stdlib.math.plain.Record` -- and returns the result as plain data in the
result type's shape (dicts, lists, ints, `Fraction`s, text). A declaration names its kernel
(`MathTool.kernel`): the Pydantic path validates the kernel's data against the result type, and
the plain path (`stdlib.math.plain`) runs it in the worker without loading Pydantic at all.
A rule only a validator can check is a problem finder here too: `finder(value)` returns
`(code, message, loc)` or None, and the Pydantic model rejects with exactly that problem.
"""
