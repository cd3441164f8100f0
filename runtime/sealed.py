"""The `secret` value: a credential a program can use but never read.

A `Secret` holds its plaintext and a name that is not sensitive (`STRIPE_KEY` for
`secret("STRIPE_KEY")`, the label of `as_secret(v, "label")`). Everything that shows a value
asks the value how it looks (`display` → `secret(NAME)`, `repr` the same, JSON `"[redacted]"`),
so no print, log, error message, template, prompt or traceback can carry the plaintext.
Everything that takes apart a value (length, indexing, slicing, `in`, ordering, text builtins,
hashing, `bytes`) finds no text or bytes here and refuses, so the characters cannot be read
one by one either. Equality with another secret compares the plaintexts in constant time
(a different type is never equal, so comparing with text says nothing).

The plaintext leaves only through `expose`, which the few documented consumers call: `reveal`
(behind `require reveal("NAME")`), `hmac`'s key, `constant_time_eq`, and an HTTP header at the
socket. Concatenating text and a secret gives a secret (`"Bearer " + key`), so building a
credential does not reveal it.
"""

from __future__ import annotations



class Secret:
    __slots__ = ("_plain", "name")

    def __init__(self, name: str, plain: str | bytes):
        self.name = name
        self._plain = plain

    def expose(self) -> str | bytes:
        """The plaintext, for a documented consumer only (see the module docstring)."""
        return self._plain

    def exposed_bytes(self) -> bytes:
        plain = self._plain
        return plain.encode("utf-8") if type(plain) is str else plain

    def display(self) -> str:
        return f"secret({self.name})"

    def type_name(self) -> str:
        return "secret"

    __repr__ = display
    __str__ = display

    def __eq__(self, other) -> bool:
        if type(other) is not Secret:
            return False
        import hmac  # comparing secrets is rare: not an import of every run
        return hmac.compare_digest(self.exposed_bytes(), other.exposed_bytes())

    def __ne__(self, other) -> bool:
        return not self == other

    __hash__ = None  # a secret is never a set member or a dict key of the host

    def __reduce__(self):
        raise TypeError("a secret cannot be serialized")

    def __bool__(self) -> bool:
        return True  # an empty secret must not be told apart by truthiness


def concatenated(a, b) -> Secret | None:
    """`a + b` where one side is a secret: a secret when both sides are text (or secrets of
    text), None when the pair cannot be joined (a secret of bytes, a number, …)."""
    parts = [x.expose() if type(x) is Secret else x for x in (a, b)]
    if any(type(p) is not str for p in parts):
        return None
    names = [x.name for x in (a, b) if type(x) is Secret]
    name = names[0] if len(names) == 1 or names[0] == names[1] else "+".join(names)
    return Secret(name, parts[0] + parts[1])
