"""`fetch`: one HTTP GET, behind the `net` capability of the URL's host and port.

The check names the port actually used (the URL's, or 80/443 from the scheme), so a scope such
as `net("api.x.com:8443")` means exactly that port. Redirects are followed by hand, up to a
limit, and every hop is checked like the first: a granted host cannot bounce a script to one
that is not. The host's proxy settings and `.netrc` credentials are deliberately not used
(httpx `trust_env=False`): a script's request carries only what the script wrote. Any status is
data (`{status, headers, body}`); failures to get a response are SynErrors naming the URL.
httpx is imported on first use so a program that never fetches does not pay for it.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from synsema.lang.errors import SynError
from synsema.runtime.limits import check_length
from synsema.runtime.sealed import Secret
from synsema.runtime.values import type_name
from synsema.stdlib.core import wrong_type
from synsema.stdlib.registry import builtin

DEFAULT_TIMEOUT = 30.0  # seconds, for connecting and for each read
MAX_REDIRECTS = 10
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")


def _net_scope(url: str) -> str:
    """`host:port` for the capability check; refuses what is not an absolute http(s) URL."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as bad:
        raise SynError(f"fetch: invalid URL {url!r}: {bad}") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise SynError(f"fetch: only http:// and https:// URLs can be fetched, got {url!r}")
    if not parts.hostname:
        raise SynError(f"fetch: the URL {url!r} has no host")
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{host}:{port or (443 if scheme == 'https' else 80)}"


def _request_headers(headers) -> tuple[dict[str, str], frozenset]:
    """The headers to send (text names, text or secret values) and the names of the secrets
    they carry. A secret is materialized here, at the socket, and nowhere else; no message
    below ever shows a header value."""
    if headers is None:
        return {}, frozenset()
    if type(headers) is not dict:
        raise wrong_type("fetch", "headers as a map of text", headers)
    sent = {}
    sources = frozenset()
    for name, value in headers.items():
        if type(value) is Secret:
            sources |= value.sources
            value = value.expose()
        if type(value) is not str:
            raise SynError(f"fetch: the header {name!r} must be text or a secret of text, got "
                           f"{type_name(value)}")
        if not _HEADER_NAME.fullmatch(name) or "\r" in value or "\n" in value:
            raise SynError(f"fetch: the header {name!r} is not a valid header name and value")
        sent[name] = value
    return sent, sources


@builtin("fetch", 1, named=("timeout", "headers"), cap="net")
def fetch(rt, url, timeout=DEFAULT_TIMEOUT, headers=None):
    """HTTP GET `url`: `{status, headers, body}`, headers with lower-case names, body as text.

    `headers = {…}` adds request headers. A secret value (`bearer(secret("KEY"))`) is the one
    documented way a secret leaves the program: its plaintext is written into the request and
    sent only to the URL's own host and port, never to a host a redirect leads to, and only
    to a host the secret is bound to when the host or program bound it (secret=NAME@host).

    Example: fetch("http://127.0.0.1:9/") => error: Capability not granted: net("127.0.0.1:9")
    """
    if type(url) is not str:
        raise wrong_type("fetch", "a URL as text", url)
    if type(timeout) not in (int, float) or not timeout > 0:
        raise SynError(f"fetch: timeout must be a number of seconds above 0, got {timeout!r}")
    sent, sources = _request_headers(headers)
    import httpx

    from synsema.runtime.concurrency import waiting

    target = url
    origin = _net_scope(url)
    if sources:
        rt.check_secret_destination(sources, origin)
    with httpx.Client(timeout=timeout, follow_redirects=False, trust_env=False) as client:
        for _ in range(MAX_REDIRECTS + 1):
            scope = _net_scope(target)
            rt.check_cap("net", scope)
            try:
                with waiting():   # parallel_map's other items run while this one waits
                    response = client.get(target, headers=sent if scope == origin else None)
            except httpx.TimeoutException:
                raise SynError(f"fetch {url}: timed out after {timeout:g} s") from None
            except httpx.ConnectError as failure:
                reason = re.sub(r"^\[Errno -?\d+\] ", "", str(failure)) or "connection failed"
                raise SynError(f"fetch {url}: cannot connect to {_net_scope(target)}: {reason}") from None
            except (httpx.HTTPError, httpx.InvalidURL) as failure:
                raise SynError(f"fetch {url}: {failure}") from None
            if response.next_request is None:
                body = response.text
                check_length("fetch", "text", len(body))
                return {"status": response.status_code, "headers": dict(response.headers.items()),
                        "body": body}
            target = str(response.next_request.url)
    raise SynError(f"fetch {url}: more than {MAX_REDIRECTS} redirects")
