"""The stdio transport of `synsema mcp serve`: the SDK's own `stdio_server`, given the stdin and
stdout it reads and writes, so that a `tools/list` costs the server almost nothing.

A server's tool list never changes while it runs, yet the SDK builds every reply to `tools/list`
anew: its handler's `Tool` models become dicts, the dicts a `JSONRPCResponse`, that JSON text.
With `--math` the list is 49 tools and about 220 kB, and that rebuilding was most of the server's
part of a `tools/list` (issue 31). Here the reply's `result` is rendered once, when the server
starts, by the same SDK models and the same dump options the SDK uses (`Listing`), and a
`tools/list` request is answered with it, its `id` set in front, as soon as its line is read.

What goes to the SDK unchanged: every other line, and a `tools/list` line the SDK would treat
differently — before the client's `notifications/initialized` (the SDK refuses requests before
initialization), or one that is not a valid request (the SDK answers those with an error).
So a client sees the same bytes it would see from the SDK (tests/mcp/test_mcp_listing.py compares
them), sooner.

A `tools/list` is answered in the worker thread that read its line, without waking the event
loop. The SDK's own replies are written by the event loop itself when that cannot block (a
short reply, a Linux pipe with room for it), else in one worker-thread hop (the SDK awaits
`write` and `flush` as two): a client that stops reading never stops the loop, and with it the
time limits and cancellations of calls. A lock keeps lines whole.
"""

from __future__ import annotations

import os
import select
import stat
import sys
import threading
from io import TextIOBase, TextIOWrapper

import anyio
import mcp.types as types
from pydantic import ValidationError
from pydantic_core import to_json

# The dump options the SDK's session and stdio writer use for every message.
_DUMP = {"by_alias": True, "exclude_none": True}


class Listing:
    """The `tools/list` reply of one server, rendered once; `reply(line)` is the whole reply
    line for a request line the SDK would answer with it, else None."""

    def __init__(self, tools: list[types.Tool]):
        self.result = types.ServerResult(types.ListToolsResult(tools=tools)).model_dump_json(**_DUMP)

    def reply(self, line: str) -> str | None:
        try:
            message = types.JSONRPCMessage.model_validate_json(line)
            request = message.root
            if not isinstance(request, types.JSONRPCRequest) or request.method != "tools/list":
                return None
            types.ClientRequest.model_validate(request.model_dump(mode="json", **_DUMP))
        except ValidationError:
            return None
        return f'{{"jsonrpc":"2.0","id":{to_json(request.id).decode()},"result":{self.result}}}\n'


class Stdout:
    """A text file as the SDK's writer uses it (`write`, then `flush`): a write is written and
    flushed at once — in the event loop's own thread when that cannot block (`_write_if_room`),
    else in a worker thread; `flush` has nothing left to do. `write_now` is the same for a
    thread: one line at a time, whoever writes it."""

    def __init__(self, file: TextIOBase):
        self._file = file
        self._lock = threading.Lock()
        self._pipe = _pipe_descriptor(file)

    async def write(self, text: str) -> None:
        if not self._write_if_room(text):
            await anyio.to_thread.run_sync(self.write_now, text)

    def write_now(self, text: str) -> None:
        with self._lock:
            self._file.write(text)
            self._file.flush()

    def _write_if_room(self, text: str) -> bool:
        """Write `text` now, without a thread's hop and wake-ups, if that cannot block: stdout
        is a Linux pipe, no other write is under way, `text` is at most a page, and the pipe
        has a free page (what `select` reports as writable). Such a write fills at most that
        page and returns whole. Otherwise (a client not reading, a long reply) nothing is
        written, and the caller writes it in a worker thread, which may wait."""
        if self._pipe is None or len(text) > _PAGE:      # a character is at least one byte
            return False
        data = text.encode()
        if len(data) > _PAGE or not self._lock.acquire(blocking=False):
            return False
        try:
            if not select.select([], [self._pipe], [], 0)[1]:
                return False
            os.write(self._pipe, data)      # whole: at most PIPE_BUF bytes, and room for them
            return True
        finally:
            self._lock.release()

    async def flush(self) -> None:
        return None


# A pipe's page, which is also PIPE_BUF on Linux: a write of at most this many bytes is atomic.
_PAGE = 4096


def _pipe_descriptor(file: TextIOBase) -> int | None:
    """The descriptor of `file` if it is a pipe on Linux (where a pipe that polls writable has a
    free page), else None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        descriptor = file.fileno()
        return descriptor if stat.S_ISFIFO(os.fstat(descriptor).st_mode) else None
    except (AttributeError, OSError, ValueError):
        return None


class Stdin:
    """The lines of `file` for the SDK's reader, less the `tools/list` requests that `listing`
    answers on `stdout` (once the client has sent `notifications/initialized`). Lines are read
    in a worker thread, as the SDK reads them, and a `tools/list` is answered there on the spot:
    the event loop never wakes for it."""

    def __init__(self, file: TextIOBase, listing: Listing, stdout: Stdout):
        self._file = file
        self._listing = listing
        self._stdout = stdout
        self._initialized = False

    def __aiter__(self):
        return self

    async def __anext__(self) -> str:
        line = await anyio.to_thread.run_sync(self._next_line)
        if not line:
            raise StopAsyncIteration
        return line

    def _next_line(self) -> str:
        while True:
            line = self._file.readline()
            if not line:
                return line
            if not self._initialized:
                self._initialized = _is_initialized_notification(line)
            elif '"tools/list"' in line:
                reply = self._listing.reply(line)
                if reply is not None:
                    self._stdout.write_now(reply)
                    continue
            return line


def _is_initialized_notification(line: str) -> bool:
    """Whether the SDK's session, reading `line`, becomes initialized (it validates it so)."""
    try:
        message = types.JSONRPCMessage.model_validate_json(line).root
        if not isinstance(message, types.JSONRPCNotification):
            return False
        notification = types.ClientNotification.model_validate(message.model_dump(mode="json", **_DUMP))
    except ValidationError:
        return False
    return isinstance(notification.root, types.InitializedNotification)


def _hold_a_reply(stream, size: int) -> None:
    """Let the pipe `stream` writes to hold `size` bytes (Linux: F_SETPIPE_SZ), so that the
    listing is written in one go instead of 64 kB at a time, each waiting for the client to read
    the last. Left as it is when it holds that much already, or is no pipe, or the system
    refuses (a per-user limit on pipe memory)."""
    try:
        import fcntl
        fd = stream.fileno()
        if fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ) < size:
            fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, size)
    except (ImportError, AttributeError, OSError, ValueError):
        return


async def serve_stdio(server, tools: list[types.Tool]) -> None:
    """Run `server` (the SDK's low-level Server) over stdin/stdout until the client goes away
    (closes stdin, or stdout: a reply that meets a closed pipe ends the server quietly)."""
    from mcp.server.stdio import stdio_server
    listing = Listing(tools)
    _hold_a_reply(sys.stdout, len(listing.result.encode()) + 100)   # + the envelope and the id
    stdout = Stdout(TextIOWrapper(sys.stdout.buffer, encoding="utf-8"))
    stdin = Stdin(TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"), listing, stdout)
    try:
        async with stdio_server(stdin, stdout) as (read, write):
            await server.run(read, write, server.create_initialization_options())
    except* BrokenPipeError:
        _client_gone()


def _client_gone() -> None:
    """A reply met a closed stdout: the client went away (as when it closes stdin), so the server
    ends quietly once stdin is closed too; what is left to flush at exit goes to /dev/null
    instead of failing again. (A client that closes stdout alone keeps the server, as the SDK's
    reader waits in a thread that only the end of stdin releases.)"""
    import os
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, sys.stdout.fileno())
    os.close(quiet)
