"""The bytes family: binary data, its text encodings, and the digests agents check.

`bytes` builds binary data from a list of integers 0–255, from text as UTF-8, or from hex or
base64 text; `decode` goes back, strict UTF-8 unless `"utf8_lossy"` is asked for. `sha256`,
`sha512` and `hmac` give raw digests as bytes (`hex(d)` or `decode(d, "hex")` shows them);
`constant_time_eq` compares credentials without a timing leak. A secret is accepted only where
it is consumed without being shown: as `hmac`'s key and on either side of `constant_time_eq`.
Hashing a secret or turning it into bytes is refused, since the digest of a short secret is
an offline guessing oracle; for the same reason `hmac` under a secret key gives a secret (of
bytes; `hex` of it a secret of text, for a signature header or `constant_time_eq`), and
`constant_time_eq` refuses two sides made from one secret (HMAC pads a short key with NUL
bytes, so `hmac(m, k + "\0")` against `hmac(m, k)` would tell the key's length).

What `constant_time_eq(secret, guess)` still tells, by design: whether the guess is the secret,
one yes/no per call. G guesses tell at most log2(G + 1) bits about a secret (none about its
length or characters beyond that); a 128-bit random key stays out of reach of any run.

Everything is pure (no capability) and propagates labels. Cost is linear in the input, and
every result is bounded by `MAX_BYTES` (runtime.limits' text limit) before it is built.
"""

from __future__ import annotations

import binascii
import re

from synsema.lang.errors import SynError
from synsema.runtime.limits import MAX_TEXT_LENGTH, check_length, too_large
from synsema.runtime.sealed import Secret
from synsema.runtime.values import type_name
from synsema.stdlib.core import short, wrong_type
from synsema.stdlib.registry import builtin

# The largest bytes value a builtin here builds: the text limit, which `bytes + bytes` also uses.
MAX_BYTES = MAX_TEXT_LENGTH
# Hex text as `hex` writes it: an optional 0x prefix, then pairs of digits.
_HEX = re.compile(r"(?:0[xX])?((?:[0-9a-fA-F]{2})*)")
# The digests offered, by the names hashlib and hmac know them by.
_DIGESTS = frozenset({"sha256", "sha512"})
_ENCODINGS = '"utf8", "hex" or "base64"'
# hashlib, base64 and hmac are imported by the builtins that use them, not by every run.


def _bounded(fname: str, size: int) -> None:
    if size > MAX_BYTES:
        raise too_large(fname, f"{size:,} bytes", MAX_BYTES, "bytes")


def _no_secret(fname: str, value, use: str) -> None:
    if type(value) is Secret:
        raise SynError(f"{fname}: {value.display()} is a secret; its plaintext never becomes a "
                       f"value — {use}")


def _data(fname: str, value) -> bytes:
    """Text (as UTF-8) or bytes: what the digests read."""
    _no_secret(fname, value, "pass a secret as hmac's key, or compare it with constant_time_eq")
    if type(value) is bytes:
        return value
    if type(value) is str:
        return value.encode("utf-8")
    raise wrong_type(fname, "text or bytes", value)


@builtin("bytes", 1, 2)
def bytes_(rt, value, encoding=None):
    """Binary data from a list of integers 0–255, from text as UTF-8, or from hex/base64 text.

    Example: bytes("Hi") => bytes(4869)
    Example: bytes("48690a", "hex") => bytes(48690a)
    Example: bytes(hex(bytes([0, 255])), "hex") => bytes(00ff)
    Example: bytes([256]) => error: bytes: every item must be an integer 0..=255
    """
    _no_secret("bytes", value, "use it with hmac or constant_time_eq")
    t = type(value)
    if t is bytes and encoding is None:
        return value
    if t is list and encoding is None:
        _bounded("bytes", len(value))
        for item in value:
            if type(item) is not int or not 0 <= item <= 255:
                raise SynError(f"bytes: every item must be an integer 0..=255, got {short(item)}")
        return bytes(value)
    if t is str:
        return _from_text(value, "utf8" if encoding is None else encoding)
    if encoding is not None and t in (bytes, list):
        raise SynError(f"bytes: an encoding applies to text only, got {type_name(value)} with "
                       f"{short(encoding)}")
    raise SynError(f"Cannot convert {type_name(value)} to bytes — bytes takes a list of integers "
                   "0..=255, text, or bytes")


def _from_text(text: str, encoding) -> bytes:
    if encoding in ("utf8", "utf-8"):
        _bounded("bytes", len(text))
        encoded = text.encode("utf-8", "surrogatepass")
        _bounded("bytes", len(encoded))
        return encoded
    if encoding == "hex":
        digits = _HEX.fullmatch(text)
        if digits is None:
            raise SynError(f"bytes: {short(text)} is not hex — it needs an even number of the "
                           "digits 0-9 and a-f (after an optional 0x), with nothing between them")
        return bytes.fromhex(digits.group(1))
    if encoding == "base64":
        import base64
        try:
            return base64.b64decode(text.encode("ascii"), validate=True)
        except (binascii.Error, UnicodeEncodeError):
            raise SynError(f"bytes: {short(text)} is not base64 (the alphabet A-Z a-z 0-9 + /, "
                           "with = padding to a multiple of 4)") from None
    raise SynError(f"bytes: unsupported encoding {short(encoding)} — use {_ENCODINGS}")


@builtin("decode", 1, 2)
def decode(rt, value, encoding="utf8"):
    """Bytes back to text: strict UTF-8, or "utf8_lossy", "hex" or "base64".

    With "utf8_lossy" an invalid byte becomes U+FFFD instead of an error.

    Example: decode(bytes("héllo")) => "héllo"
    Example: decode(bytes("Hello"), "base64") => "SGVsbG8="
    """
    if type(value) is not bytes:
        raise wrong_type("decode", "bytes", value)
    if encoding in ("utf8", "utf-8"):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError as bad:
            raise SynError(f"decode: the bytes are not valid UTF-8 (byte 0x{value[bad.start]:02x} at "
                           f"position {bad.start}) — decode(b, \"utf8_lossy\") replaces invalid bytes "
                           "with U+FFFD") from None
    if encoding == "utf8_lossy":
        return value.decode("utf-8", "replace")
    if encoding == "hex":
        return value.hex()
    if encoding == "base64":
        import base64
        return base64.b64encode(value).decode("ascii")
    raise SynError(f"decode: unsupported encoding {short(encoding)} — use \"utf8\", "
                   "\"utf8_lossy\", \"hex\" or \"base64\"")


@builtin("is_bytes", 1)
def is_bytes(rt, value):
    """Whether the value is bytes.

    Example: is_bytes(bytes("x")) => true
    """
    return type(value) is bytes


@builtin("hex", 1)
def hex_(rt, value):
    """A non-negative integer, or bytes two digits a byte, as lower-case hex text after 0x.

    `bytes(text, "hex")` reads the 0x back; `decode(b, "hex")` gives the digits alone.

    Example: hex(255) => "0xff"
    Example: hex(bytes([0, 255])) => "0x00ff"
    """
    t = type(value)
    if t is bytes:
        check_length("hex", "text", 2 + 2 * len(value))
        return "0x" + value.hex()
    if t is Secret and type(value.expose()) is bytes:
        # hex(hmac(body, key)): a signature, still sealed (see hmac)
        return value.derived(value.name, "0x" + value.expose().hex(), ("hex",), 2 + 2 * value.bound)
    if t is int:
        if value < 0:
            raise SynError(f"hex: {value} is negative — hex writes integers from 0 up; write "
                           f"\"-\" + hex(-x) if you mean a sign")
        return f"0x{value:x}"
    raise wrong_type("hex", "a non-negative integer or bytes", value)


def _digest(fname: str, value) -> bytes:
    import hashlib
    return hashlib.new(fname, _data(fname, value)).digest()


@builtin("sha256", 1)
def sha256(rt, value):
    """The SHA-256 digest (32 bytes) of text (as UTF-8) or bytes.

    Example: slice(hex(sha256("abc")), 2, 10) => "ba7816bf"
    """
    return _digest("sha256", value)


@builtin("sha512", 1)
def sha512(rt, value):
    """The SHA-512 digest (64 bytes) of text (as UTF-8) or bytes.

    Example: length(sha512("")) => 64
    """
    return _digest("sha512", value)


@builtin("hmac", 2, 3)
def hmac(rt, data, key, algorithm="sha256"):
    """The HMAC of data under key (text or bytes) as bytes; under a secret key, as a secret.

    The algorithm is "sha256" (the default) or "sha512".

    Example: slice(hex(hmac("msg", "key")), 2, 10) => "2d93cbc1"
    """
    return _mac("hmac", data, key, algorithm)


def _mac(fname: str, data, key, algorithm):
    """The HMAC as bytes, or as a secret of bytes under a secret key; errors name `fname`."""
    if type(algorithm) is not str or algorithm not in _DIGESTS:
        raise SynError(f"{fname}: unsupported algorithm {short(algorithm)} — use \"sha256\" or "
                       "\"sha512\" (SHA-1 and MD5 are not offered)")
    message = _data(fname, data)
    import hmac as hmac_lib  # the module, not the builtin
    if type(key) is Secret:
        digest = hmac_lib.new(key.exposed_bytes(), message, algorithm).digest()
        return key.derived(key.name, digest, ("hmac", algorithm, message), len(digest))
    if type(key) in (str, bytes):
        return hmac_lib.new(_data(fname, key), message, algorithm).digest()
    raise wrong_type(fname, "a key as text, bytes or a secret", key)


@builtin("hmac_sha256", 2)
def hmac_sha256(rt, data, key):
    """The HMAC-SHA256 of data under key as 64 lower-case hex digits (a signature header's form).

    Under a secret key the hex is a secret too, as with hmac: a MAC of known data under a short
    key would be an offline guessing oracle for it.

    Example: slice(hmac_sha256("msg", "key"), 0, 8) => "2d93cbc1"
    """
    mac = _mac("hmac_sha256", data, key, "sha256")
    if type(mac) is Secret:
        return mac.derived(mac.name, mac.expose().hex(), ("hex",), 2 * mac.bound)
    return mac.hex()


_SIGNATURE_PREFIX = re.compile(r"(?:sha256=|sha512=|0[xX])?")


def _signature(value, size: int) -> bytes:
    """A signature as sent: raw bytes, or text in hex (after an optional `sha256=` or 0x) or
    base64 (GitHub, Stripe and Shopify send these)."""
    if type(value) is bytes:
        return value
    if type(value) is not str:
        raise wrong_type("verify_hmac", "a signature as hex or base64 text, or bytes", value)
    digits = value.strip()[_SIGNATURE_PREFIX.match(value.strip()).end():]
    if len(digits) == 2 * size and _HEX.fullmatch(digits):
        return bytes.fromhex(digits)
    import base64
    try:
        return base64.b64decode(digits.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise SynError(f"verify_hmac: the signature {short(value)} is neither hex ({2 * size} "
                       "digits) nor base64") from None


@builtin("verify_hmac", 3, 4)
def verify_hmac(rt, data, signature, key, algorithm="sha256"):
    """Whether signature is the HMAC of data under key, compared in constant time.

    The signature is hex (a `sha256=` or 0x prefix is read past), base64 or bytes; the algorithm
    is "sha256" (the default) or "sha512". Like constant_time_eq, each call tells one yes/no.

    Example: verify_hmac("msg", hmac_sha256("msg", "key"), "key") => true
    Example: verify_hmac("msg", "sha256=" + hmac_sha256("msg", "other"), "key") => false
    """
    if type(signature) is Secret:
        raise SynError(f"verify_hmac: the signature is {signature.display()}; pass the signature "
                       "that arrived as text or bytes — the secret is the key")
    mac = _mac("verify_hmac", data, key, algorithm)
    expected = mac.exposed_bytes() if type(mac) is Secret else mac
    import hmac as hmac_lib
    return hmac_lib.compare_digest(expected, _signature(signature, len(expected)))


def _comparable(value) -> bytes:
    if type(value) is Secret:
        return value.exposed_bytes()
    if type(value) is bytes:
        return value
    if type(value) is str:
        return value.encode("utf-8")
    raise wrong_type("constant_time_eq", "text, bytes or a secret on each side", value)


@builtin("constant_time_eq", 2)
def constant_time_eq(rt, a, b):
    """Whether two credentials are equal, in time that does not depend on where they differ.

    Each side is text, bytes or a secret.

    Example: constant_time_eq("token", bytes("token")) => true
    """
    if type(a) is Secret and type(b) is Secret and a.sources & b.sources:
        shared = ", ".join(sorted(a.sources & b.sources))
        raise SynError(f"constant_time_eq: both sides are made from the secret {shared}; comparing "
                       "a secret with itself proves nothing a program needs and can tell its length "
                       "— compare it with the credential that arrived")
    import hmac as hmac_lib
    return hmac_lib.compare_digest(_comparable(a), _comparable(b))
