"""The replies of `mcp serve` written straight from the event loop (runtime/mcp/stdio.py,
`Stdout`): only when the write cannot block — else a client that stops reading would stop the
server's loop, and with it every time limit and cancellation. Over real pipes, in process.

Each write that must not happen in the loop's thread is tried in a helper thread: were a guard
gone, that write would block on the full pipe, and the test fails when the thread does not
return (closing the pipe then ends it)."""

from __future__ import annotations

import fcntl
import io
import os
import threading
from io import TextIOWrapper

import anyio
import pytest

from synsema.runtime.mcp.stdio import Stdout

REPLY = '{"jsonrpc":"2.0","id":1,"result":{}}\n'


@pytest.fixture
def pipe():
    read, write = os.pipe()
    stdout = Stdout(TextIOWrapper(os.fdopen(write, "wb", closefd=False), encoding="utf-8"))
    yield read, write, stdout
    os.close(read)
    os.close(write)


def _fill(descriptor: int) -> None:
    """Write to the pipe until it holds no more."""
    flags = fcntl.fcntl(descriptor, fcntl.F_GETFL)
    fcntl.fcntl(descriptor, fcntl.F_SETFL, flags | os.O_NONBLOCK)
    try:
        while True:
            os.write(descriptor, b"x" * 4096)
    except BlockingIOError:
        pass
    finally:
        fcntl.fcntl(descriptor, fcntl.F_SETFL, flags)


def _returns(action) -> tuple[bool, object]:
    """Whether `action()` returns within its thread's deadline, and what it returned."""
    result = []
    thread = threading.Thread(target=lambda: result.append(action()), daemon=True)
    thread.start()
    thread.join(30)
    return (not thread.is_alive(), result[0] if result else None)


def _unread(descriptor: int) -> bytes:
    flags = fcntl.fcntl(descriptor, fcntl.F_GETFL)
    fcntl.fcntl(descriptor, fcntl.F_SETFL, flags | os.O_NONBLOCK)
    try:
        return os.read(descriptor, 1 << 20)
    except BlockingIOError:
        return b""
    finally:
        fcntl.fcntl(descriptor, fcntl.F_SETFL, flags)


@pytest.mark.skipif(not os.uname().sysname == "Linux", reason="the loop writes itself on Linux pipes only")
def test_a_reply_with_room_in_the_pipe_is_written_at_once_and_whole(pipe):
    read, _, stdout = pipe
    assert _returns(lambda: stdout._write_if_room(REPLY)) == (True, True)
    assert _unread(read) == REPLY.encode()


@pytest.mark.skipif(not os.uname().sysname == "Linux", reason="the loop writes itself on Linux pipes only")
def test_a_reply_of_a_page_is_written_at_once(pipe):
    read, _, stdout = pipe
    page = '{"text":"' + "y" * (4096 - 12) + '"}\n'
    assert len(page.encode()) == 4096
    assert _returns(lambda: stdout._write_if_room(page)) == (True, True)
    assert _unread(read) == page.encode()
    assert _returns(lambda: stdout._write_if_room(page.replace("y", "\u00e9", 1))) == (True, False)


def test_a_full_pipe_is_left_to_the_worker_thread(pipe):
    """A client that stopped reading: the loop writes nothing; the worker thread's write
    waits, and the reply is whole once the client reads again."""
    read, write, stdout = pipe
    _fill(write)
    assert _returns(lambda: stdout._write_if_room(REPLY)) == (True, False)

    async def write_then_drain():
        async with anyio.create_task_group() as group:
            group.start_soon(stdout.write, REPLY)
            await anyio.sleep(0)
            drained = await anyio.to_thread.run_sync(lambda: _drain(read, len(REPLY)))
        return drained

    assert anyio.run(write_then_drain).endswith(REPLY.encode())


def _drain(descriptor: int, tail: int) -> bytes:
    """Read until the pipe is empty after its last `tail` bytes came."""
    seen = bytearray()
    while not seen.endswith(b"\n"):
        seen += os.read(descriptor, 1 << 16)
    return bytes(seen[-tail:])


def test_a_reply_longer_than_a_page_is_left_to_the_worker_thread(pipe):
    """A long reply may not fit in the room a writable pipe has: not written in the loop."""
    read, write, stdout = pipe
    _fill(write)
    os.read(read, 4096)                      # one page free: writable, but not for 5 kB
    long = '{"jsonrpc":"2.0","id":1,"result":{"text":"' + "y" * 5000 + '"}}\n'
    assert _returns(lambda: stdout._write_if_room(long)) == (True, False)


def test_a_write_under_way_in_a_thread_is_not_interleaved(pipe):
    """The listing being written by the reader thread (the lock held): the loop does not write
    between its bytes."""
    read, _, stdout = pipe
    stdout._lock.acquire()
    try:
        assert _returns(lambda: stdout._write_if_room(REPLY)) == (True, False)
    finally:
        stdout._lock.release()
    assert _unread(read) == b""


def test_a_file_that_is_no_pipe_is_written_by_the_worker_thread():
    written = io.StringIO()
    stdout = Stdout(written)
    assert stdout._write_if_room(REPLY) is False
    anyio.run(stdout.write, REPLY)
    assert written.getvalue() == REPLY
