"""The `secret` value: a credential a program can use but never read.

A `Secret` holds its plaintext and a name that is not sensitive (`STRIPE_KEY` for
`secret("STRIPE_KEY")`, the label of `as_secret(v, "label")`). Everything that shows a value
asks the value how it looks (`display` → `secret(NAME)`, `repr` the same, JSON `"[redacted]"`),
so no print, log, error message, template, prompt or traceback can carry the plaintext.
Everything that takes apart a value (length, indexing, slicing, `in`, ordering, text builtins,
hashing, `bytes`) finds no text or bytes here and refuses, so the characters cannot be read
one by one either.

What a secret carries besides its plaintext, none of it derived from the plaintext:
* `name`, how it shows (`A+B` for a join of two secrets);
* `sources`, the exact names of every secret it was derived from: `reveal` needs a grant for
  each, and a host binding (`--cap-set secret=NAME@host`) of any of them limits where it may go;
* `origin`, its identity: `secret("K")` read twice has one origin, each `as_secret` call makes a
  new one, a join or digest is identified by how it was made. `==` compares origin and name,
  never plaintexts, so `==` answers nothing about a secret's characters (0 bits);
* `bound`, an upper bound on its length known without reading it (the length of a default or
  sealed text, MAX_SECRET_LENGTH for an environment variable), so joining text to a secret is
  checked against the text limit without the check telling how long the secret is.

The plaintext leaves only through `expose`, which the few documented consumers call: `reveal`
(behind `require reveal("NAME")`), `hmac`'s key, `constant_time_eq`, and an HTTP header at the
socket. Concatenating text and a secret gives a secret (`"Bearer " + key`), so building a
credential does not reveal it.
"""

from __future__ import annotations

from synsema.lang.errors import SynError
from synsema.runtime.limits import MAX_TEXT_LENGTH, too_large

MAX_SECRET_LENGTH = 65_536   # characters of an environment variable read as a secret


class Secret:
    __slots__ = ("_plain", "name", "sources", "origin", "bound")

    def __init__(self, name: str, plain: str | bytes, sources: frozenset | None = None,
                 origin=None, bound: int | None = None):
        self.name = name
        self._plain = plain
        self.sources = frozenset((name,)) if sources is None else sources
        self.origin = object() if origin is None else origin
        self.bound = len(plain) if bound is None else bound

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
        """The same secret: one origin and one name (see the module docstring); no plaintext."""
        return type(other) is Secret and self.origin == other.origin and self.name == other.name

    def __ne__(self, other) -> bool:
        return not self == other

    __hash__ = None  # a secret is never a set member or a dict key of the host

    def __reduce__(self):
        raise TypeError("a secret cannot be serialized")

    def __bool__(self) -> bool:
        return True  # an empty secret must not be told apart by truthiness

    def derived(self, name: str, plain: str | bytes, how: tuple, bound: int) -> "Secret":
        """A secret made from this one (`bearer`, a digest, hex): same sources."""
        return Secret(name, plain, self.sources, (how, self.origin), bound)


def concatenated(a, b) -> Secret | None:
    """`a + b` where one side is a secret: a secret when both sides are text (or secrets of
    text), None when the pair cannot be joined (a secret of bytes, a number, …). Its size is
    checked with the sides' bounds, never their plaintext lengths."""
    parts = [x.expose() if type(x) is Secret else x for x in (a, b)]
    if any(type(p) is not str for p in parts):
        return None
    secrets = [x for x in (a, b) if type(x) is Secret]
    bound = sum(x.bound if type(x) is Secret else len(x) for x in (a, b))
    if bound > MAX_TEXT_LENGTH:
        raise too_large("`+`", f"a secret of up to {bound:,} characters (counting each secret at its "
                        "bound, not its length)", MAX_TEXT_LENGTH, "characters")
    names = [x.name for x in secrets]
    name = names[0] if len(names) == 1 or names[0] == names[1] else "+".join(names)
    origin = ("+",) + tuple(x.origin if type(x) is Secret else ("text", x) for x in (a, b))
    sources = secrets[0].sources.union(*(x.sources for x in secrets[1:]))
    return Secret(name, parts[0] + parts[1], sources, origin, bound)


def refuse_as_key(value) -> None:
    """A secret is no map key: two secrets of one name would collapse into one key."""
    raise SynError(f"{value.display()} is a secret and cannot be a map key — two secrets with one "
                   "name would share the key; key the map by a name you choose")
