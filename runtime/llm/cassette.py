"""The `replay` and `record` providers: agent scripts tested deterministically and for free.

A cassette is a JSON-lines file. Its first line is a header saying what the file is; every
other line is one exchange `{"key", "request", "reply"}` in the provider-neutral form of
`runtime.llm.exchange`. Replay indexes the exchanges by the hash of their *request*, computed on
load. `key` is that hash written out for people grepping; it is optional, so a line written by
hand needs none, and a key that is not its request's hash (a request edited after recording)
is refused with the right one — silently ignoring it would hide which of the two was meant.
A request that was never recorded is an error naming it and showing the line to add — a silent
placeholder would let a test pass against an answer nobody ever gave. Several replies to the
same request are served in recorded order, the last one repeating.

Record sends each request to the real provider and appends the exchange, one line written and
flushed per request, so an interrupted run keeps everything recorded before it.

The header keeps the host the cassette was recorded against (`"host": "api.anthropic.com"`, with
its port when the URL gave one). Under `--labels` a private prompt may reach a model only where
the ceiling says `llm=<principal>@<host>`; replaying, the host is the recorded one, so the command
line that recorded a cassette replays it unchanged (`Replay.host`). A cassette without a host
(written by hand, or recorded before hosts were kept) sends nothing anywhere, like offline.

A miss writes the whole line to add — the request, a reply to fill in — to a side file next to
the cassette (`agent.jsonl` → `agent.missing.jsonl`, `missing_path`), the first miss of a run
replacing what an earlier run left there; the message names that file and shows the line's
beginning. The side file is the host's (the program's file builtins cannot reach it, nor the
cassette: runtime.capabilities), so under `--labels`, where the message of a miss on a private
prompt is withheld, the host can still write the answer.
"""

from __future__ import annotations

import json
import os
import sys

from synsema.lang.errors import SynError
from synsema.runtime.llm.exchange import Ask, Reply

# A miss's message shows this many characters of the line to add; the whole line is in the side file.
SHOWN_PREFIX = 160

HEADER = {"synsema_cassette": 1,
          "note": "Scripted model replies for Synsema's replay provider: after this line, one "
                  "exchange per line, {key, request, reply}; the key is the hash of the request."}


class Replay:
    name = "replay"

    def __init__(self, path: str):
        self.path = path
        self.host: str | None = None     # the host the cassette was recorded against, if it says
        self._replies: dict[str, list[Reply]] = {}
        self._served: dict[str, int] = {}
        self._missed = False             # whether this run has written the side file yet
        for number, entry, header in _entries(path):
            if header:
                self.host = _header_host(path, number, entry)
                continue
            try:
                key = Ask.from_json(entry["request"]).key()
                reply = Reply.from_json(entry["reply"])
            except (KeyError, TypeError, ValueError) as bad:
                raise SynError(f"cassette {path} line {number} is not an exchange {{key, request, reply}}: "
                               f"{bad}") from None
            if "key" in entry and entry["key"] != key:
                raise SynError(f"cassette {path} line {number}: its key {json.dumps(entry['key'])} is not the "
                               f"key of its request, {key} (was the request edited?); the key is optional: "
                               f"delete it, or write {key}")
            self._replies.setdefault(key, []).append(reply)

    def stream(self, ask: Ask, on_chunk) -> Reply:
        """The recorded reply, its recorded pieces passed to `on_chunk` in order."""
        reply = self.complete(ask)
        for chunk in reply.chunks or ((reply.text,) if reply.kind == "text" else ()):
            on_chunk(chunk)
        return reply

    def complete(self, ask: Ask, stream: bool = False) -> Reply:
        key = ask.key()
        replies = self._replies.get(key)
        if not replies:
            raise self._miss(ask, key)
        served = self._served.get(key, 0)
        self._served[key] = served + 1
        return replies[min(served, len(replies) - 1)]

    def _miss(self, ask: Ask, key: str) -> SynError:
        """The error for a request never recorded, after writing its line to the side file."""
        line = json.dumps({"request": ask.to_json(), "reply": {"kind": "text", "text": "…"}}, ensure_ascii=False)
        side = missing_path(self.path)
        try:
            with open(side, "a" if self._missed else "w", encoding="utf-8") as handle:
                handle.write(line + "\n")
            self._missed = True
            where = (f"the line to add, with the reply you want, is in {side}: "
                     f"{line[:SHOWN_PREFIX]}{'…' if len(line) > SHOWN_PREFIX else ''}")
        except OSError as failure:
            where = f"(the line to add could not be written to {side}: {failure.strerror})"
        error = SynError(f"replay: no recorded reply for {ask.summary()} (request key {key}) in {self.path}; "
                         f"{where} — or record one with SYNSEMA_LLM_PROVIDER=record", code="cassette-miss")
        error.public = f"the line to add is in {side}"   # shown even when the message is withheld
        return error


class Record:
    name = "record"

    def __init__(self, inner, path: str, host: str | None = None):
        self.inner = inner
        self.path = path
        self.host = host   # kept in the header of a new cassette; an existing one must agree
        self._checked = False

    def complete(self, ask: Ask, stream: bool = False) -> Reply:
        self.check_host()
        return self._append(ask, self.inner.complete(ask, stream))

    def stream(self, ask: Ask, on_chunk) -> Reply:
        self.check_host()
        return self._append(ask, self.inner.stream(ask, on_chunk))

    def check_host(self) -> None:
        """Refuse, before the first request, to add to a cassette recorded against another host:
        its replay would then answer for a host the ceiling was never asked about. (The same
        host on another port is accepted: a local server's port changes between runs.)"""
        if self._checked:
            return
        self._checked = True
        if not os.path.exists(self.path) or os.path.getsize(self.path) == 0:
            return
        recorded = next((_header_host(self.path, number, entry) for number, entry, header in _entries(self.path)
                         if header), None)
        if recorded is not None and _hostname(recorded) != _hostname(self.host or ""):
            raise SynError(f"record: cassette {self.path} was recorded against {recorded}, not {self.host}; "
                           f"record into another cassette (replay checks llm=<principal>@<host> against "
                           f"the one host a cassette names)")

    def _append(self, ask: Ask, reply: Reply) -> Reply:
        entry = {"key": ask.key(), "request": ask.to_json(), "reply": reply.to_json()}
        try:
            with open(self.path, "a+b") as handle:
                handle.seek(0, os.SEEK_END)
                if handle.tell() == 0:
                    handle.write(_line({**HEADER, "host": self.host} if self.host else HEADER))
                else:
                    handle.seek(-1, os.SEEK_END)
                    if handle.read(1) != b"\n":  # a torn last line: start this one on its own line
                        handle.write(b"\n")
                handle.write(_line(entry))
        except OSError as failure:
            raise SynError(f"record: cannot append to cassette {self.path}: {failure.strerror}") from None
        return reply


def missing_path(path: str) -> str:
    """The side file a miss writes its line to: `agent.jsonl` → `agent.missing.jsonl`."""
    stem = path[:-len(".jsonl")] if path.endswith(".jsonl") else path
    return stem + ".missing.jsonl"


def _hostname(host: str) -> str:
    """`host:port` without its port (an IPv6 address keeps its brackets)."""
    if host.startswith("[") and "]" in host:
        return host[:host.index("]") + 1]
    return host.partition(":")[0]


def _header_host(path: str, number: int, header: dict) -> str | None:
    host = header.get("host")
    if host is not None and (not isinstance(host, str) or not host or "/" in host or "@" in host):
        raise SynError(f"cassette {path} line {number}: its \"host\" must be a host name such as "
                       f"\"api.anthropic.com\" (with :port if the URL gave one), got {json.dumps(host)}")
    return host


def _entries(path: str):
    """(line number, entry, whether it is the header) for each line; blank lines are skipped.

    A last line that is not JSON and has no newline is what a `record` killed mid-write leaves:
    it is skipped with a warning on stderr, so everything recorded before it still replays.
    """
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as failure:
        raise SynError(f"replay: cannot read cassette {path}: {failure.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as bad:
        line = data.count(b"\n", 0, bad.start) + 1
        raise SynError(f"replay: cassette {path} is not UTF-8 text (line {line} has the byte "
                       f"0x{data[bad.start]:02x}); re-record it or save it as UTF-8") from None
    lines = text.split("\n")  # not splitlines(): U+2028 inside a JSON string is no line break
    torn = lines[-1].strip() != ""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            if torn and number == len(lines):
                print(f"warning: cassette {path} line {number} is cut off (an interrupted record?); skipped",
                      file=sys.stderr)
                return
            raise SynError(f"cassette {path} line {number} is not JSON") from None
        yield number, entry, isinstance(entry, dict) and "synsema_cassette" in entry


def _line(data: dict) -> bytes:
    return (json.dumps(data, ensure_ascii=False) + "\n").encode("utf-8")
