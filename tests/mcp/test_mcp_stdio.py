"""`mcp serve` over stdio: read and written on the event loop when stdin and stdout are pipes
(runtime/mcp/pipes.py), through the SDK's own threaded streams otherwise; the protocol is the
same either way, for messages of any length."""

from __future__ import annotations

import json
import subprocess
import sys

import anyio

from conftest import synsema_env
from mcp_support import served, text_of

SCRIPT = '''\
-- The length of a text.
task size(text: text)
    give length(text)

-- A text of n copies of "ab".
task copies(n: number)
    give join(apply((i) => "ab", range(n)), "")
'''

HELLO = [{"jsonrpc": "2.0", "id": 1, "method": "initialize",
          "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                     "clientInfo": {"name": "test", "version": "1"}}},
         {"jsonrpc": "2.0", "method": "notifications/initialized"}]


def test_messages_longer_than_a_pipe_buffer_both_ways(tmp_path):
    script = tmp_path / "sizes.syn"
    script.write_text(SCRIPT, encoding="utf-8")
    long_text = "é" * 300_000          # 600 kB of UTF-8 in one request line

    async def main():
        async with served(script, cwd=tmp_path) as session:
            with anyio.fail_after(60):     # a line split wrongly would never be answered
                sized = await session.call_tool("size", {"text": long_text})
                copied = await session.call_tool("copies", {"n": 200_000})
            return sized, copied

    sized, copied = anyio.run(main)
    assert sized.structuredContent == {"result": 300_000}, text_of(sized)
    assert copied.structuredContent == {"result": "ab" * 200_000}


def test_stdout_shared_with_stderr_is_served_through_the_sdk_streams(tmp_path):
    """stdout and stderr one pipe: asyncio must not make it non-blocking under stderr's
    writers, so the SDK's threaded streams serve; the answers are the same."""
    script = tmp_path / "sizes.syn"
    script.write_text(SCRIPT, encoding="utf-8")
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "size", "arguments": {"text": "abc"}}}
    server = subprocess.Popen([sys.executable, "-m", "synsema", "mcp", "serve", str(script)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              env=synsema_env(), cwd=tmp_path)
    try:
        server.stdin.write("".join(json.dumps(m) + "\n" for m in HELLO + [call]).encode())
        server.stdin.flush()
        replies = {}
        while 2 not in replies:
            line = server.stdout.readline()
            assert line, "the server ended without answering"
            if line.startswith(b"{"):
                message = json.loads(line)
                replies[message.get("id")] = message
    finally:
        server.stdin.close()
        server.wait(timeout=60)
    assert replies[2]["result"]["structuredContent"] == {"result": 3}
    assert server.returncode == 0
