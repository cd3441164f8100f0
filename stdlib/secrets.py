"""Secrets: API keys an agent can use without being able to print them.

`secret("NAME")` reads the environment variable NAME behind `require secret("NAME")` (scoped by
name or a trailing-`*` prefix, like `env`) and gives a `secret` value (see `runtime.sealed`):
it shows as `secret(NAME)`, encodes as `"[redacted]"`, and offers nothing to read. The ways it
can be used are the consumers that never show it: `hmac`'s key, `constant_time_eq`, a header of
`fetch`, and `bearer`, which builds the `Bearer <token>` header value as another secret.
`as_secret(v, label?)` seals a value that arrives at run time (a tenant's key), with no
capability, since it only takes away. `reveal(s)` is the one escape hatch: it needs
`require reveal("NAME")` for the name or label of every secret the value was made from (a
scope `DEMO_*` still matches each name on its own, never a join's `A+B`), and each attempt is
a capability check, so `--audit` records it (never the value). A host (`--cap-set
secret=NAME@host`) or the program (`require secret("NAME@host")`) may bind a secret to the
hosts that may receive it; `fetch` then refuses to send it, or anything made from it, elsewhere.

Cost: each builtin is linear in the value it seals or reveals.
"""

from __future__ import annotations

import os
import re

from synsema.lang.errors import SynError
from synsema.runtime.sealed import MAX_SECRET_LENGTH, Secret
from synsema.runtime.values import type_name
from synsema.stdlib.core import short, wrong_type
from synsema.stdlib.registry import builtin

_NO_DEFAULT = object()
# Names and labels are shown in every redaction, so they are plain identifiers.
_LABEL = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]{0,63}")


@builtin("secret", 1, 2, cap="secret")
def secret(rt, name, default=_NO_DEFAULT):
    """The environment variable name as a secret: usable by hmac, constant_time_eq and fetch
    headers, never shown.

    When the variable is not set, a default (text) is sealed instead; without one it is an
    error, so a missing key is found where it is needed.

    Example: secret("SYNSEMA_DOC_UNSET_KEY", "dev-key") => secret(SYNSEMA_DOC_UNSET_KEY)
    """
    if type(name) is not str:
        raise wrong_type("secret", "a variable name as text", name)
    rt.check_cap("secret", name)
    value = os.environ.get(name)
    if value is not None:
        if len(value) > MAX_SECRET_LENGTH:
            raise SynError(f"secret: {name} is longer than {MAX_SECRET_LENGTH:,} characters, the "
                           "most a secret read from the environment may hold")
        return Secret(name, value, origin=("env", name), bound=MAX_SECRET_LENGTH)
    if default is _NO_DEFAULT:
        raise SynError(f"secret: {name} is not set — set it in the environment, or pass a "
                       f"default for development: secret(\"{name}\", default)")
    if type(default) is Secret:
        return default
    if type(default) is not str:
        raise wrong_type("secret", "a default as text", default)
    return Secret(name, default, origin=("default", name, default))


@builtin("as_secret", 1, 2)
def as_secret(rt, value, label="sealed"):
    """Seal a text or bytes value that arrived at run time as a secret shown as secret(label).

    A secret is given back unchanged.

    Example: as_secret("tenant-key", "tenant") => secret(tenant)
    """
    if type(label) is not str or not _LABEL.fullmatch(label):
        raise SynError(f"as_secret: the label must be a name (letters, digits, _ . -), got "
                       f"{short(label)}")
    if type(value) is Secret:
        return value
    if type(value) not in (str, bytes):
        raise SynError(f"as_secret: a secret holds text or bytes, got {type_name(value)} — seal "
                       "the sensitive field, not the whole structure")
    return Secret(label, value)


@builtin("bearer", 1)
def bearer(rt, token):
    """The header value "Bearer <token>" for a secret (or text) token, as a secret.

    Example: bearer(as_secret("t0k", "api")) => secret(api)
    """
    if type(token) is Secret:
        plain = token.expose()
        if type(plain) is not str:
            raise SynError(f"bearer: {token.display()} holds bytes; a header value is text")
        return token.derived(token.name, "Bearer " + plain, ("bearer",), token.bound + 7)
    if type(token) is str:
        return Secret("bearer", "Bearer " + token)
    raise wrong_type("bearer", "a secret or text token", token)


@builtin("reveal", 1, cap="reveal")
def reveal(rt, value):
    """The plaintext of a secret (text, or bytes for a sealed bytes value).

    It needs require reveal("NAME") for the exact name of every secret the value was made
    from (a join of two secrets needs both); every attempt is an audited capability check.

    Example: reveal(as_secret("abc", "demo")) => "abc"
    """
    if type(value) is not Secret:
        raise wrong_type("reveal", "a secret", value)
    for name in sorted(value.sources):
        rt.check_cap("reveal", name)
    return value.expose()
