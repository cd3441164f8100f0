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
"""

from __future__ import annotations

import json
import os
import sys

from synsema.lang.errors import SynError
from synsema.runtime.llm.exchange import Ask, Reply

# A miss shows the cassette line to add; past this many characters (a long conversation, many
# tool schemas) it is cut, and recording is the way to get it.
MAX_SHOWN_LINE = 2000

HEADER = {"synsema_cassette": 1,
          "note": "Scripted model replies for Synsema's replay provider: after this line, one "
                  "exchange per line, {key, request, reply}; the key is the hash of the request."}


class Replay:
    name = "replay"

    def __init__(self, path: str):
        self.path = path
        self._replies: dict[str, list[Reply]] = {}
        self._served: dict[str, int] = {}
        for number, entry in _entries(path):
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
            raise SynError(f"replay: no recorded reply for {ask.summary()} (request key {key}) in "
                           f"{self.path}; add this line to it with the reply you want, or record one "
                           f"with SYNSEMA_LLM_PROVIDER=record: {_line_to_add(ask)}")
        served = self._served.get(key, 0)
        self._served[key] = served + 1
        return replies[min(served, len(replies) - 1)]


class Record:
    name = "record"

    def __init__(self, inner, path: str):
        self.inner = inner
        self.path = path

    def complete(self, ask: Ask, stream: bool = False) -> Reply:
        return self._append(ask, self.inner.complete(ask, stream))

    def stream(self, ask: Ask, on_chunk) -> Reply:
        return self._append(ask, self.inner.stream(ask, on_chunk))

    def _append(self, ask: Ask, reply: Reply) -> Reply:
        entry = {"key": ask.key(), "request": ask.to_json(), "reply": reply.to_json()}
        try:
            with open(self.path, "a+b") as handle:
                handle.seek(0, os.SEEK_END)
                if handle.tell() == 0:
                    handle.write(_line(HEADER))
                else:
                    handle.seek(-1, os.SEEK_END)
                    if handle.read(1) != b"\n":  # a torn last line: start this one on its own line
                        handle.write(b"\n")
                handle.write(_line(entry))
        except OSError as failure:
            raise SynError(f"record: cannot append to cassette {self.path}: {failure.strerror}") from None
        return reply


def _entries(path: str):
    """(line number, exchange) for each exchange line; the header and blank lines are skipped.

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
        if isinstance(entry, dict) and "synsema_cassette" in entry:
            continue
        yield number, entry


def _line_to_add(ask: Ask) -> str:
    """The cassette line that would answer `ask`, its reply to be filled in; cut past MAX_SHOWN_LINE."""
    line = json.dumps({"request": ask.to_json(), "reply": {"kind": "text", "text": "…"}}, ensure_ascii=False)
    if len(line) <= MAX_SHOWN_LINE:
        return line
    return f"{line[:MAX_SHOWN_LINE]}… (cut: the line is {len(line)} characters; record it instead)"


def _line(data: dict) -> bytes:
    return (json.dumps(data, ensure_ascii=False) + "\n").encode("utf-8")
