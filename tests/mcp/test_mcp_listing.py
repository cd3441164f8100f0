"""`tools/list` over stdio answered from the listing rendered at start (runtime/mcp/stdio.py):
the same bytes the SDK's own handler writes, and the SDK still answering every line it would
answer differently.

The server is driven over a plain pipe, one JSON-RPC line at a time, so that the SDK's reply and
the listing's reply to the same request can be compared byte for byte: before the client's
`notifications/initialized` a `tools/list` goes to the SDK (its session counts as initialized
once it has answered `initialize`), after it the listing answers.
"""

from __future__ import annotations

import array
import contextlib
import fcntl
import json
import os
import select
import subprocess
import sys
import termios
import time

import pytest

from conftest import ROOT, synsema_env

from mcp_support import with_session
from synsema.runtime.mcp import serve
from synsema.runtime.mcp.stdio import Listing

TOOLS = '''\
-- Add two numbers.
task add(a: number, b: number = 1)
    give a + b

task shout(word: text)
    give upper(word)
'''

INITIALIZE = {"protocolVersion": "2025-06-18", "capabilities": {},
              "clientInfo": {"name": "test", "version": "1"}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


class Pipe:
    """`synsema mcp serve ARGS…` read and written as JSON-RPC lines."""

    def __init__(self, *args: str, stderr=subprocess.DEVNULL):
        self.process = subprocess.Popen([sys.executable, "-m", "synsema", "mcp", "serve", *args],
                                        cwd=str(ROOT), env=synsema_env(), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=stderr)
        self._stdout = self.process.stdout.fileno()
        self._unread = bytearray()

    def send(self, message: dict | str) -> None:
        line = message if isinstance(message, str) else json.dumps(message)
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    def line(self, seconds: float = 60) -> bytes:
        """The next line the server writes (b"" at its end). Lines are cut from this reader's own
        buffer, and the pipe is waited on only when that holds no whole line: replies the server
        wrote together arrive in one read, and a buffered file's `readline` would keep the later
        ones where `select` cannot see them (a CI run under load failed so)."""
        deadline = time.monotonic() + seconds
        while b"\n" not in self._unread:
            ready = select.select([self._stdout], [], [], max(0.0, deadline - time.monotonic()))[0]
            assert ready or time.monotonic() < deadline, "no reply from the server"
            if ready:
                chunk = os.read(self._stdout, 1 << 16)
                if not chunk:
                    break
                self._unread += chunk
        line, newline, rest = self._unread.partition(b"\n")
        self._unread = bytearray(rest)
        return bytes(line + newline)

    def wait_until_written(self, size: int, seconds: float = 60) -> None:
        """Wait, without reading, until the pipe holds `size` bytes the server wrote."""
        deadline = time.monotonic() + seconds
        waiting = array.array("i", [0])
        while fcntl.ioctl(self._stdout, termios.FIONREAD, waiting) == 0 and waiting[0] < size:
            assert time.monotonic() < deadline, f"the server wrote {waiting[0]} of {size} bytes"
            time.sleep(0.01)

    def ask(self, method: str, params: dict | None = None, id=1) -> bytes:
        self.send({"jsonrpc": "2.0", "id": id, "method": method,
                   **({} if params is None else {"params": params})})
        return self.line()

    def close(self) -> None:
        """Close stdin (the client goes away) and wait for the server; kill it if it stays."""
        with contextlib.suppress(BrokenPipeError):
            self.process.stdin.close()
        try:
            self.process.wait(timeout=60)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()


def _pipe(*args: str) -> Pipe:
    pipe = Pipe(*args)
    try:
        assert b'"result"' in pipe.ask("initialize", INITIALIZE, id=0)
    except BaseException:
        pipe.close()
        raise
    return pipe


REQUESTS = [(1, None), ("a \"quoted\" id \u2713", None), (0, None), (-7, None), (2**53 + 1, None),
            # params the SDK accepts; the list is one page, whatever the cursor
            (3, {"cursor": "x", "_meta": {"progressToken": 1}})]


def _sdk_and_listing_replies(pipe: Pipe) -> tuple[list[bytes], list[bytes]]:
    """The replies to REQUESTS before `notifications/initialized` (the SDK's) and after (the
    listing's)."""
    sdk = [pipe.ask("tools/list", params, id=id) for id, params in REQUESTS]
    pipe.send(INITIALIZED)
    return sdk, [pipe.ask("tools/list", params, id=id) for id, params in REQUESTS]


def test_the_listing_answers_with_the_bytes_the_sdk_writes(tmp_path):
    script = tmp_path / "tools.syn"
    script.write_text(TOOLS)
    pipe = _pipe(str(script))
    try:
        sdk, ours = _sdk_and_listing_replies(pipe)
    finally:
        pipe.close()
    assert ours == sdk
    assert [json.loads(line)["id"] for line in ours] == [id for id, _ in REQUESTS]
    assert [t["name"] for t in json.loads(ours[0])["result"]["tools"]] == ["add", "shout"]


def test_lines_the_sdk_answers_otherwise_still_go_to_it(tmp_path):
    script = tmp_path / "tools.syn"
    script.write_text(TOOLS)
    pipe = Pipe(str(script))
    try:
        # before initialize: the SDK's refusal, not the listing
        early = json.loads(pipe.ask("tools/list", id=1))
        assert "error" in early and "result" not in early
        assert b'"result"' in pipe.ask("initialize", INITIALIZE, id=2)
        pipe.send(INITIALIZED)
        # a malformed tools/list: the SDK's error
        bad = json.loads(pipe.ask("tools/list", {"cursor": 5}, id=3))
        assert bad["id"] == 3 and "error" in bad, bad
        # the method's name elsewhere in a line is not a tools/list
        called = json.loads(pipe.ask("tools/call", {"name": "tools/list", "arguments": {}}, id=4))
        assert called["result"]["isError"] is True, called
        assert "unknown tool 'tools/list'" in called["result"]["content"][0]["text"]
        # a line that is not JSON, then a call: no listing for the first, the call answered
        pipe.send('{"jsonrpc": "2.0", "id": 5, "method": "tools/list"')
        pipe.send({"jsonrpc": "2.0", "id": 6, "method": "tools/call",
                   "params": {"name": "add", "arguments": {"a": 2}}})
        replies = [json.loads(pipe.line())]
        while replies[-1].get("id") != 6:
            replies.append(json.loads(pipe.line()))
        assert replies[-1]["result"]["structuredContent"] == {"result": 3}
        assert not any("tools" in r.get("result", {}) for r in replies)
    finally:
        pipe.close()


def test_replies_written_together_are_each_read(tmp_path):
    """Two replies already in the pipe when the client reads: the client reads both. (Under
    load the server can write a reply before the client has read the one before it; a reader
    that lost the second in a buffered file's `readline` waited out its deadline, "no reply
    from the server".) The replies are the listing's, written in the reader thread in order."""
    script = tmp_path / "tools.syn"
    script.write_text(TOOLS)
    pipe = _pipe(str(script))
    try:
        pipe.send(INITIALIZED)
        size = len(pipe.ask("tools/list", id=1))
        pipe.send('{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}\n'
                  '{"jsonrpc": "2.0", "id": 3, "method": "tools/list"}')
        pipe.wait_until_written(2 * size)
        replies = [json.loads(pipe.line(seconds=10)) for _ in range(2)]
    finally:
        pipe.close()
    assert [r["id"] for r in replies] == [2, 3]
    assert all([t["name"] for t in r["result"]["tools"]] == ["add", "shout"] for r in replies)


def test_a_client_that_writes_everything_before_the_server_is_up_gets_every_reply(tmp_path):
    """Every line written at once, before the server has started reading: each request is
    answered once, by the SDK or the listing as if sent one at a time."""
    script = tmp_path / "tools.syn"
    script.write_text(TOOLS)
    pipe = Pipe(str(script))
    try:
        requests = [{"jsonrpc": "2.0", "id": 1, "method": "tools/list"},       # the SDK's refusal
                    {"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": INITIALIZE},
                    INITIALIZED,
                    {"jsonrpc": "2.0", "id": 3, "method": "tools/list"},
                    '{"jsonrpc": "2.0", "id": 4, "method": "tools/list"',      # not JSON: a log line
                    {"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                     "params": {"name": "add", "arguments": {"a": 2}}},
                    {"jsonrpc": "2.0", "id": 6, "method": "tools/list", "params": {"cursor": 5}},
                    {"jsonrpc": "2.0", "id": 7, "method": "tools/list"},
                    {"jsonrpc": "2.0", "id": 8, "method": "ping"}]
        pipe.send("\n".join(r if isinstance(r, str) else json.dumps(r) for r in requests))
        replies, notices = {}, []
        while len(replies) < 7:
            reply = json.loads(pipe.line())
            if "id" not in reply:
                notices.append(reply["method"])
                continue
            assert reply["id"] not in replies, reply
            replies[reply["id"]] = reply
    finally:
        pipe.close()
    assert sorted(replies) == [1, 2, 3, 5, 6, 7, 8]
    assert notices in ([], ["notifications/message"])
    assert "error" in replies[1] and "error" in replies[6]
    assert [t["name"] for t in replies[3]["result"]["tools"]] == ["add", "shout"]
    assert replies[7]["result"] == replies[3]["result"]
    assert replies[5]["result"]["structuredContent"] == {"result": 3}
    assert replies[8]["result"] == {}


@pytest.mark.parametrize("replier", ["listing", "sdk"])
def test_a_client_that_closes_stdout_ends_the_server_quietly(tmp_path, replier):
    """A reply meeting a closed pipe — the listing's or one the SDK writes — is the client gone:
    the server ends with status 0 and no traceback, as when the client only closes stdin."""
    script = tmp_path / "tools.syn"
    script.write_text(TOOLS)
    pipe = Pipe(str(script), stderr=subprocess.PIPE)
    try:
        if replier == "listing":
            assert b'"result"' in pipe.ask("initialize", INITIALIZE, id=0)
            pipe.send(INITIALIZED)
        pipe.process.stdout.close()
        with contextlib.suppress(BrokenPipeError):
            pipe.send({"jsonrpc": "2.0", "id": 1, "method": "tools/list" if replier == "listing"
                       else "initialize", **({} if replier == "listing" else {"params": INITIALIZE})})
            pipe.process.stdin.close()        # a client that is gone has closed both
        assert pipe.process.wait(timeout=60) == 0
    finally:
        pipe.close()
    errors = pipe.process.stderr.read().decode()
    assert "Traceback" not in errors and "Error" not in errors, errors


def test_math_listing_is_the_sdks_rendering_and_the_client_reads_it():
    """The whole `--math` listing: the SDK's reply and the listing's, byte for byte; the
    official client's parse of it equals the tools the server builds."""
    pipe = _pipe("--math", "examples/tool_calling.syn")
    try:
        if hasattr(fcntl, "F_GETPIPE_SZ"):   # Linux: the pipe holds the whole listing
            assert fcntl.fcntl(pipe.process.stdout.fileno(), fcntl.F_GETPIPE_SZ) > 200_000
        sdk, ours = _sdk_and_listing_replies(pipe)
    finally:
        pipe.close()
    assert ours == sdk and len(ours[0]) > 200_000

    async def body(session):
        return (await session.list_tools()).tools

    listed = with_session("--math", "examples/tool_calling.syn")(body)
    names = [t.name for t in listed]
    assert names[-1] == serve.MATH_RUN_MANY and len(names) == len(set(names)) > 40
    rendered = json.loads(Listing(listed).result)
    assert [t["name"] for t in rendered["tools"]] == names


def test_the_reader_answers_tools_list_once_initialized_and_passes_every_other_line_on():
    """In process, over text files: which lines reach the SDK and which the listing answers."""
    import io

    import anyio
    import mcp.types as types

    from synsema.runtime.mcp.stdio import Stdin, Stdout

    def request(id, method, params=None):
        return json.dumps({"jsonrpc": "2.0", "id": id, "method": method,
                           **({} if params is None else {"params": params})}) + "\n"

    lines = [request(0, "tools/list"),                       # before initialize: the SDK refuses it
             request(1, "initialize", INITIALIZE),
             request(2, "tools/list"),                       # initialized only for the SDK yet
             json.dumps(INITIALIZED) + "\n",
             request(3, "tools/list"),                       # the listing's
             request(4, "tools/call", {"name": "tools/list"}),
             request(5, "tools/list", {"cursor": 5}),        # the SDK's error
             request(6, "tools/list", {"cursor": "c"})]      # the listing's
    tool = types.Tool(name="add", inputSchema={"type": "object"})
    written = io.StringIO()
    stdin = Stdin(io.StringIO("".join(lines)), Listing([tool]), Stdout(written))

    async def read_all():
        return [line async for line in stdin]

    forwarded = anyio.run(read_all)
    assert forwarded == [lines[i] for i in (0, 1, 2, 3, 5, 6)]
    replies = [json.loads(line) for line in written.getvalue().splitlines()]
    assert [r["id"] for r in replies] == [3, 6]
    assert all(r["result"] == {"tools": [{"name": "add", "inputSchema": {"type": "object"}}]}
               for r in replies)
