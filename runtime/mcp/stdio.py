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

Few thread hand-offs, since on a busy machine each is a wait for a core. Stdin, when it is a
pipe or socket, is read by the event loop itself, and a `tools/list` answered there on the spot;
other stdins are read line by line in a worker thread, as the SDK reads them. Replies are
written by the event loop itself when that cannot block (a Linux pipe with room for the whole
reply), else in one worker-thread hop (the SDK awaits `write` and `flush` as two): a client
that stops reading never stops the loop, and with it the time limits and cancellations of
calls. A lock keeps lines whole.
"""

from __future__ import annotations

import array
import codecs
import collections
import io
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
        is a Linux pipe with room for all of it (`_room_for`) and no other write is under way.
        Otherwise (a client not reading, a reply longer than the room) nothing is written, and
        the caller writes it in a worker thread, which may wait."""
        if self._pipe is None:
            return False
        data = memoryview(text.encode())
        if not self._lock.acquire(blocking=False):
            return False
        try:
            if not self._room_for(len(data)):
                return False
            while data:                         # one write: nothing can fill the room meanwhile
                data = data[os.write(self._pipe, data):]
            return True
        finally:
            self._lock.release()

    def _room_for(self, size: int) -> bool:
        """Whether the pipe takes `size` bytes at once: at most a page when it has a free page
        (what `select` reports as writable; such a write fills at most that page), or any size
        up to its capacity when it is empty."""
        if size <= _PAGE:
            return bool(select.select([], [self._pipe], [], 0)[1])
        import fcntl
        import termios
        unread = array.array("i", [0])
        fcntl.ioctl(self._pipe, termios.FIONREAD, unread)
        return unread[0] == 0 and size <= fcntl.fcntl(self._pipe, fcntl.F_GETPIPE_SZ)

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
    answers on `stdout` (once the client has sent `notifications/initialized`), answered on the
    spot. A pipe or socket is read by the event loop itself when it polls readable (one wake-up
    for a line, no thread); anything else line by line in a worker thread, as the SDK reads it.
    Either way no more is read while a line read is not yet taken, and the lines are the ones
    the SDK's own reader makes of the bytes (`Lines`)."""

    def __init__(self, file: TextIOBase, listing: Listing, stdout: Stdout):
        self._file = file
        self._listing = listing
        self._stdout = stdout
        self._initialized = False
        self._polled = _polled_descriptor(file)
        self._lines = Lines()
        self._read: collections.deque[str] = collections.deque()
        self._ended = False

    def __aiter__(self):
        return self

    async def __anext__(self) -> str:
        if self._polled is None:
            line = await anyio.to_thread.run_sync(self._next_line)
        else:
            line = await self._next_polled_line()
        if not line:
            raise StopAsyncIteration
        return line

    def _next_line(self) -> str:
        """In a worker thread: the next line for the SDK ("" at the end)."""
        while True:
            line = self._file.readline()
            if not line:
                return line
            reply = self._reply(line)
            if reply is None:
                return line
            self._stdout.write_now(reply)

    async def _next_polled_line(self) -> str:
        """In the event loop: the next line for the SDK ("" at the end)."""
        while True:
            while not self._read and not self._ended:
                await anyio.wait_readable(self._polled)
                data = os.read(self._polled, _READ)
                self._read.extend(self._lines.feed(data) if data else self._lines.end())
                self._ended = not data
            if not self._read:
                return ""
            line = self._read.popleft()
            reply = self._reply(line)
            if reply is None:
                return line
            await self._stdout.write(reply)

    def _reply(self, line: str) -> str | None:
        """The listing's reply to `line` when it answers it, else None (the line is the SDK's)."""
        if not self._initialized:
            self._initialized = _is_initialized_notification(line)
        elif '"tools/list"' in line:
            return self._listing.reply(line)
        return None


_READ = 64 * 1024   # bytes of stdin read at once


class Lines:
    """Bytes in, lines out, as the SDK's reader makes them (`TextIOWrapper(…, encoding="utf-8",
    errors="replace")`, whose `readline` it calls): UTF-8 with what does not decode replaced,
    `\r\n` and `\r` read as `\n`, the last line maybe without one. A line arriving in many
    pieces is joined once."""

    def __init__(self):
        self._decoder = io.IncrementalNewlineDecoder(codecs.getincrementaldecoder("utf-8")("replace"),
                                                     translate=True)
        self._parts: list[str] = []

    def feed(self, data: bytes) -> list[str]:
        return self._split(self._decoder.decode(data))

    def end(self) -> list[str]:
        lines = self._split(self._decoder.decode(b"", final=True))
        rest = "".join(self._parts)
        self._parts = []
        return lines + [rest] if rest else lines

    def _split(self, text: str) -> list[str]:
        if "\n" not in text:
            if text:
                self._parts.append(text)
            return []
        first, *lines = text.split("\n")
        last = lines.pop()
        whole = ["".join(self._parts) + first + "\n", *(line + "\n" for line in lines)]
        self._parts = [last] if last else []
        return whole


def _polled_descriptor(file: TextIOBase) -> int | None:
    """The descriptor of `file` if it is a pipe or a socket (which the event loop can poll),
    else None."""
    if sys.platform == "win32":
        return None
    try:
        descriptor = file.fileno()
        mode = os.fstat(descriptor).st_mode
    except (AttributeError, OSError, ValueError):
        return None
    return descriptor if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) else None


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
    ends quietly; what is left to flush at exit goes to /dev/null instead of failing again. (A
    stdin read in a worker thread — not a pipe or socket — keeps the server until it ends, as
    the SDK's own reader does; a polled one is let go at once.)"""
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, sys.stdout.fileno())
    os.close(quiet)
