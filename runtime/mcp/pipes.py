"""`mcp serve`'s stdin and stdout read and written on the event loop, for the SDK's stdio transport.

The SDK's `stdio_server` reads and writes through worker threads (anyio's file wrappers), so
each request and each answer passes between a thread and the event loop: two more waits for a
core per call, which on a busy machine is much of a call's time. `native_stdio` gives it the same
two streams as asyncio pipes instead: lines of text in (decoded as the SDK decodes them, UTF-8
with replacement; no length limit, as the SDK has none), text out, each written whole before
`flush` returns. Used only when stdin and stdout are pipes or sockets and stdout is not also
stderr: asyncio makes a pipe non-blocking, which is a property of the open file that every
descriptor of it shares, and nothing but the protocol writes to a stdout of its own.
"""

from __future__ import annotations

import asyncio
import os
import stat
import sys

_CHUNK = 1 << 16


def native_stdio() -> tuple[_Lines, _Writer] | None:
    """(stdin lines, stdout writer) for `mcp.server.stdio.stdio_server`, or None to keep the
    SDK's own threaded streams (stdin or stdout a terminal or a file, or stdout shared with
    stderr)."""
    try:
        ins, out = os.fstat(0), os.fstat(1)
        err = os.fstat(2)
    except OSError:
        return None
    pipe = lambda st: stat.S_ISFIFO(st.st_mode) or stat.S_ISSOCK(st.st_mode)  # noqa: E731
    if not (pipe(ins) and pipe(out)) or (out.st_dev, out.st_ino) == (err.st_dev, err.st_ino):
        return None
    return _Lines(), _Writer()


class _Lines:
    """stdin as an async iterator of text lines (each with its newline; the last one may lack
    it), read on the event loop."""

    def __aiter__(self):
        return self._lines()

    async def _lines(self):
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(loop=loop)
        transport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader, loop=loop),
            os.fdopen(os.dup(sys.stdin.fileno()), "rb", buffering=0))
        pending = bytearray()
        try:
            while chunk := await reader.read(_CHUNK):
                pending += chunk
                start = 0
                while (end := pending.find(b"\n", start)) >= 0:
                    yield pending[start:end + 1].decode("utf-8", errors="replace")
                    start = end + 1
                del pending[:start]
            if pending:
                yield pending.decode("utf-8", errors="replace")
        finally:
            transport.close()


class _Writer:
    """stdout as the SDK writes it: `write(text)` then `flush()`, which returns once the pipe
    has taken everything (so a client that stops reading holds up only the answers)."""

    def __init__(self) -> None:
        self._writer: asyncio.StreamWriter | None = None

    async def write(self, text: str) -> None:
        if self._writer is None:
            loop = asyncio.get_running_loop()
            transport, protocol = await loop.connect_write_pipe(
                asyncio.streams.FlowControlMixin,
                os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0))
            self._writer = asyncio.StreamWriter(transport, protocol, None, loop)
        self._writer.write(text.encode("utf-8"))

    async def flush(self) -> None:
        if self._writer is not None:
            await self._writer.drain()
