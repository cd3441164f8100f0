"""The one HTTP client the providers share: JSON POSTs with a timeout and bounded retries, their
answers read whole or as server-sent events (httpx-sse parses the stream).

Model APIs shed load with 429 and 5xx answers; a script should ride those out without its
author writing a retry loop, but never hang: at most `attempts` tries, exponential backoff,
and a `Retry-After` longer than `max_wait` ends the call at once (waiting minutes inside an agent
step is worse than telling the script). Failures become language errors that name the provider
and what went wrong — and never echo request headers, which carry the API key, nor a password
or token inside the URL.

httpx is imported here and only here, and this module is loaded on the first real LLM request,
so interpreter start-up never pays for it.
"""

from __future__ import annotations

import email.utils
import json
import time
from typing import Iterator

import httpx
from httpx_sse import EventSource

from synsema.lang.errors import SynError
from synsema.runtime import trace
from synsema.runtime.llm.config import redact_url
from synsema.runtime.llm.exchange import InvalidReply

RETRY_STATUSES = frozenset({429}) | frozenset(range(500, 600))


class JsonClient:
    """POSTs JSON for one provider; one instance (and one connection pool) per process."""

    def __init__(self, provider: str, timeout: float, attempts: int = 3, backoff: float = 0.5,
                 max_wait: float = 30.0):
        self.provider = provider
        self.timeout = timeout
        self.attempts = attempts
        self.backoff = backoff
        self.max_wait = max_wait
        self._client = httpx.Client(timeout=timeout)

    def post(self, url: str, headers: dict[str, str], body: dict) -> object:
        """The decoded JSON answer; raises SynError on transport failure or an error status.

        A 2xx answer whose body is not JSON raises `InvalidReply`: the server answered, but not
        with anything a model reply can be read from.
        """
        response = self._answer(url, headers, body, stream=False)
        try:
            return response.json()
        except ValueError:
            raise InvalidReply("the response body is not JSON") from None

    def events(self, url: str, headers: dict[str, str], body: dict) -> Iterator[tuple[str, str]]:
        """(event, data) of each server-sent event of a streamed answer, as they arrive.

        Retries happen only before the stream starts. A 2xx answer that is not an event stream
        is read as JSON and yielded as one ("", data) event — an error body, typically.
        """
        response = self._answer(url, {"accept": "text/event-stream", **headers}, body, stream=True)
        try:
            if "text/event-stream" not in response.headers.get("content-type", ""):
                response.read()
                yield "", response.text
                return
            for event in EventSource(response).iter_sse():
                yield event.event, event.data
        except httpx.TimeoutException:
            raise self._timeout(url) from None
        except httpx.HTTPError as failure:
            raise SynError(f"llm provider {self.provider}: the stream from {redact_url(url)} broke: "
                           f"{type(failure).__name__}") from None
        finally:
            response.close()

    def _answer(self, url: str, headers: dict[str, str], body: dict, stream: bool) -> httpx.Response:
        """The first 2xx response (streamed: still open), retrying 429/5xx a bounded number of times."""
        attempt = 1
        while True:
            response = self._send(url, headers, body, stream)
            if 200 <= response.status_code < 300:
                return response
            response.read()
            response.close()
            if response.status_code not in RETRY_STATUSES:
                raise self._status_error(response, "")
            if attempt == self.attempts:
                raise self._status_error(response, f" after {attempt} attempts")
            wait = self._wait(response, attempt)
            trace.event("llm.retry", {"http.response.status_code": response.status_code,
                                      "synsema.attempt": attempt, "synsema.wait_seconds": wait})
            time.sleep(wait)
            attempt += 1

    def _send(self, url: str, headers: dict[str, str], body: dict, stream: bool) -> httpx.Response:
        try:
            request = self._client.build_request(
                "POST", url, headers={"content-type": "application/json", **headers}, content=json.dumps(body))
            return self._client.send(request, stream=stream)
        except httpx.TimeoutException:
            raise self._timeout(url) from None
        except (httpx.HTTPError, httpx.InvalidURL, UnicodeError) as failure:
            detail = str(failure).replace(url, redact_url(url))
            raise SynError(f"llm provider {self.provider}: cannot reach {redact_url(url)}: "
                           f"{type(failure).__name__}: {redact_url(detail)}") from None

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
