"""`tools/list` over stdio answered from the listing rendered at start (runtime/mcp/stdio.py):
the same bytes the SDK's own handler writes, and the SDK still answering every line it would
answer differently.

The server is driven over a plain pipe, one JSON-RPC line at a time, so that the SDK's reply and
the listing's reply to the same request can be compared byte for byte: before the client's
`notifications/initialized` a `tools/list` goes to the SDK (its session counts as initialized
once it has answered `initialize`), after it the listing answers.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import select
import subprocess
import sys
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

    def send(self, message: dict | str) -> None:
        line = message if isinstance(message, str) else json.dumps(message)
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    def line(self, seconds: float = 60) -> bytes:
        deadline = time.monotonic() + seconds
        while not select.select([self.process.stdout], [], [], max(0.0, deadline - time.monotonic()))[0]:
            assert time.monotonic() < deadline, "no reply from the server"
        return self.process.stdout.readline()

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
