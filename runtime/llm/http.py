"""The one HTTP client the providers share: JSON POSTs with a deadline and bounded retries, their
answers read whole or as server-sent events (httpx-sse parses the stream).

Model APIs shed load with 408, 429 and 5xx answers, and connections die under them (a reset, a
close without an answer, a proxy dropping a keep-alive connection as it is reused); a script
should ride those out without its author writing a retry loop, but never hang. So, as the
official SDKs do: at most `attempts` tries with exponential backoff, a server's
`x-should-retry: true|false` obeyed over the status, and a `Retry-After` longer than `max_wait`
ending the call at once (waiting minutes inside an agent step is worse than telling the script).
A streamed answer is retried only until its headers arrive; a stream that breaks later is a cut
answer, which the provider flags.

SYNSEMA_LLM_TIMEOUT bounds the whole call, retries and backoff included, from connecting to the
last byte: every network wait gets what is left of it, and once the answer's headers are in, a
watchdog shuts the socket at the deadline, so a reply trickled a byte at a time still ends on time.

Redirects (301, 302, 303, 307, 308) are followed, re-sending the same POST, only to the same host
and never from https down to http: the request carries the API key. A redirect elsewhere is an
error naming where it points, so the user can decide to configure that address.

Failures become language errors that name the provider and what went wrong — and never echo
request headers, which carry the API key, nor a password or token inside the URL.

httpx is imported here and only here, and this module is loaded on the first real LLM request,
so interpreter start-up never pays for it.
"""

from __future__ import annotations

import email.utils
import json
import socket
import threading
import time
from typing import Iterator

import httpx
from httpx_sse import EventSource

from synsema.lang.errors import SynError
from synsema.runtime import trace
from synsema.runtime.llm.config import redact_url
from synsema.runtime.llm.exchange import InvalidReply, clean_json

# What the official SDKs retry by status; `x-should-retry` overrides it either way.
RETRY_STATUSES = frozenset({408, 409, 429}) | frozenset(range(500, 600))
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
MAX_REDIRECTS = 5
# Transport failures worth another try: the connection could not be made, was reset or closed
# without a (whole) answer. Timeouts are not among them: the deadline they hit is the call's.
RETRIED_FAILURES = (httpx.ConnectError, httpx.ReadError, httpx.WriteError, httpx.RemoteProtocolError,
                    httpx.CloseError)


class StreamCut(Exception):
    """A streamed answer broke off after it started (the connection failed mid-stream)."""


class JsonClient:
    """POSTs JSON for one provider; one instance (and one connection pool) per process."""

    def __init__(self, provider: str, timeout: float, attempts: int = 3, backoff: float = 0.5,
                 max_wait: float = 30.0):
        self.provider = provider
        self.timeout = timeout
        self.attempts = attempts
        self.backoff = backoff
        self.max_wait = max_wait
        self._client = httpx.Client(timeout=timeout, follow_redirects=False)

    def post(self, url: str, headers: dict[str, str], body: dict) -> object:
        """The decoded JSON answer; raises SynError on transport failure or an error status.

        A 2xx answer whose body is not JSON raises `InvalidReply`: the server answered, but not
        with anything a model reply can be read from.
        """
        deadline = time.monotonic() + self.timeout
        response = self._answer(url, headers, body, deadline, whole=True)
        try:
            return clean_json(response.text)
        except ValueError:
            raise InvalidReply("the response body is not JSON") from None

    def events(self, url: str, headers: dict[str, str], body: dict) -> Iterator[tuple[str, str]]:
        """(event, data) of each server-sent event of a streamed answer, as they arrive.

        A 2xx answer that is not an event stream is read as JSON and yielded as one ("", data)
        event — an error body, typically. A connection that fails once events have started
        raises `StreamCut`; what arrived before it has been yielded.
        """
        deadline = time.monotonic() + self.timeout
        response = self._answer(url, {"accept": "text/event-stream", **headers}, body, deadline, whole=False)
        try:
            with _Watchdog(response, deadline):
                if "text/event-stream" not in response.headers.get("content-type", ""):
                    response.read()
                    yield "", response.text
                    return
                for event in EventSource(response).iter_sse():
                    yield event.event, event.data
                    if time.monotonic() >= deadline:
                        raise self._timeout(url)
        except (httpx.HTTPError, OSError):
            if time.monotonic() >= deadline:
                raise self._timeout(url) from None
            raise StreamCut() from None
        finally:
            response.close()

    def _answer(self, url: str, headers: dict[str, str], body: dict, deadline: float,
                whole: bool) -> httpx.Response:
        """The first 2xx response (`whole`: read to its end; else open at its headers), after
        following same-host redirects and retrying what may be retried, all within `deadline`."""
        attempt, hops = 1, 0
        while True:
            try:
                response = self._send(url, headers, body, deadline, whole)
            except RETRIED_FAILURES as failure:
                wait = self.backoff * 2 ** (attempt - 1)
                if attempt < self.attempts:
                    trace.event("llm.retry", {"error.type": type(failure).__name__, "synsema.attempt": attempt,
                                              "synsema.wait_seconds": wait})
                if attempt == self.attempts or not self._sleep(wait, deadline):
                    raise self._unreachable(url, failure, attempt) from None
                attempt += 1
                continue
            status = response.status_code
            if 200 <= status < 300:
                return response
            response.read()
            response.close()
            if status in REDIRECT_STATUSES and response.headers.get("location"):
                url = self._redirected(url, response, hops)
                hops += 1
                continue
            should = response.headers.get("x-should-retry", "").strip().lower()
            if should == "false" or (should != "true" and status not in RETRY_STATUSES):
                raise self._status_error(response, "")
            if attempt == self.attempts:
                raise self._status_error(response, f" after {attempt} attempts")
            wait = self._wait(response, attempt)
            trace.event("llm.retry", {"http.response.status_code": response.status_code,
                                      "synsema.attempt": attempt, "synsema.wait_seconds": wait})
            if not self._sleep(wait, deadline):
                raise self._status_error(response, f" after {attempt} attempts (no time left for another "
                                                   f"within SYNSEMA_LLM_TIMEOUT {self.timeout:g} s)")
            attempt += 1

    def _send(self, url: str, headers: dict[str, str], body: dict, deadline: float, whole: bool) -> httpx.Response:
        """One attempt: every wait bounded by what is left of `deadline`; raises the failures
        worth a retry as they are, any other as a SynError."""
        left = deadline - time.monotonic()
        if left <= 0:
            raise self._timeout(url)
        try:
            request = self._client.build_request(
                "POST", url, headers={"content-type": "application/json", **headers}, content=json.dumps(body),
                timeout=left)
            response = self._client.send(request, stream=True)
        except httpx.TimeoutException:
            raise self._timeout(url) from None
        except RETRIED_FAILURES:
            raise
        except (httpx.HTTPError, httpx.InvalidURL, UnicodeError) as failure:
            raise self._unreachable(url, failure, 0) from None
        if whole:
            try:
                with _Watchdog(response, deadline):
                    response.read()
            except (httpx.HTTPError, OSError) as failure:
                response.close()
                if time.monotonic() >= deadline or isinstance(failure, httpx.TimeoutException):
                    raise self._timeout(url) from None
                if isinstance(failure, RETRIED_FAILURES):
                    raise
                raise self._unreachable(url, failure, 0) from None
        return response

    def _redirected(self, url: str, response: httpx.Response, hops: int) -> str:
        """Where a redirect points, when it may be followed; else the error naming it."""
        target = response.url.join(response.headers["location"])
        here = httpx.URL(url)
        shown = f"HTTP {response.status_code} from {redact_url(url)} redirects to {redact_url(str(target))}"
        if target.host != here.host or (here.scheme == "https" and target.scheme != "https"):
            raise SynError(f"llm provider {self.provider}: {shown}, another host; the request (which carries "
                           f"the API key) is not sent there: set SYNSEMA_LLM_BASE_URL to that address if you "
                           f"trust it")
        if hops == MAX_REDIRECTS:
            raise SynError(f"llm provider {self.provider}: {shown}, more than {MAX_REDIRECTS} redirects in a row")
        return str(target)

    def _sleep(self, seconds: float, deadline: float) -> bool:
        """Wait `seconds` before a retry; False (without waiting) when that would pass the deadline."""
        if time.monotonic() + seconds >= deadline:
            return False
        time.sleep(seconds)
        return True

    def _unreachable(self, url: str, failure: Exception, attempts: int) -> SynError:
        detail = redact_url(str(failure).replace(url, redact_url(url)))
        after = f" after {attempts} attempts" if attempts > 1 else ""
        return SynError(f"llm provider {self.provider}: cannot reach {redact_url(url)}{after}: "
                        f"{type(failure).__name__}: {detail}")

    def _timeout(self, url: str) -> SynError:
        return SynError(f"llm provider {self.provider}: no answer within {self.timeout:g} s "
                        f"(SYNSEMA_LLM_TIMEOUT) from {redact_url(url)}")

    def _wait(self, response: httpx.Response, attempt: int) -> float:
        """Seconds before the next try: the server's Retry-After if given, else backoff."""
        asked = _retry_after(response.headers.get("retry-after"))
        if asked is None:
            return self.backoff * 2 ** (attempt - 1)
        if asked > self.max_wait:
            raise self._status_error(
                response, f"; it asks to retry after {asked:g} s, longer than the {self.max_wait:g} s "
                          f"this client waits")
        return asked

    def _status_error(self, response: httpx.Response, detail: str) -> SynError:
        reason = response.reason_phrase or ""
        return SynError(f"llm provider {self.provider}: HTTP {response.status_code} {reason}".rstrip()
                        + detail + _error_message(response))


class _Watchdog:
    """Shuts the response's socket at `deadline`, waking a read that would wait past it.

    httpx bounds each read, not the whole answer; the watchdog is what makes the deadline hold
    for an answer that arrives slowly but steadily."""

    def __init__(self, response: httpx.Response, deadline: float):
        stream = response.extensions.get("network_stream")
        self._socket = stream.get_extra_info("socket") if stream is not None else None
        self._timer = threading.Timer(max(0.0, deadline - time.monotonic()), self._expire)
        self._timer.daemon = True

    def _expire(self) -> None:
        try:
            self._socket.shutdown(socket.SHUT_RDWR)
        except (OSError, AttributeError):
            pass  # already closed, or no socket to shut

    def __enter__(self) -> "_Watchdog":
        if self._socket is not None:
            self._timer.start()
        return self

    def __exit__(self, *exc) -> None:
        self._timer.cancel()


def _retry_after(value: str | None) -> float | None:
    """Retry-After as seconds: either a number or an HTTP date (RFC 9110 §10.2.3)."""
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _error_message(response: httpx.Response) -> str:
    """`: <message>` from the `{"error": {"message": …}}` body both APIs use, else a short excerpt."""
    try:
        message = response.json()["error"]["message"]
    except (ValueError, KeyError, TypeError):
        message = response.text.strip()
    message = " ".join(str(message).split())[:300]
    return f": {message}" if message else ""
