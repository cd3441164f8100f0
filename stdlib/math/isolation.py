"""The parent side of the isolation boundary: run one request in a killable child (MATH.md §8).

`execute(tool, request)` sends the validated request to a fresh child forked by the helper of
`stdlib.math.forkserver`, waits at most the declaration's deadline, SIGKILLs the child when the
deadline passes, and re-validates the child's JSON against the result type before returning
it. At most one child per CPU core runs at a time; further calls queue. The helper starts on
the first call, so importing the library never loads a backend.

A deadline hit becomes the operation's declared `unknown` result when it has one (sat.solve,
smt.solve); otherwise it is an `execution_limit` error, never a mathematical answer.
"""

from __future__ import annotations

import atexit
import os
import selectors
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from .errors import MathError
from .tool import MathTool

STARTUP_TIMEOUT = 120.0
_CHUNK = 1 << 16


class _Helper:
    """The forkserver helper process and its control socket (started lazily, restarted if it
    died or if this process was forked since)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._socket: socket.socket | None = None
        self._process: subprocess.Popen | None = None
        self._owner = 0

    def fork_child(self, header: bytes, fds: list[int]) -> int:
        with self._lock:
            for attempt in (1, 2):
                if self._socket is None or self._owner != os.getpid():
                    self._start()
                try:
                    socket.send_fds(self._socket, [struct.pack("!I", len(header)) + header], fds)
                    reply = b""
                    while len(reply) < 8:
                        more = self._socket.recv(8 - len(reply))
                        if not more:
                            raise ConnectionError("forkserver closed the connection")
                        reply += more
                    return struct.unpack("!q", reply)[0]
                except OSError:
                    self._stop()
                    if attempt == 2:
                        raise
        raise AssertionError("unreachable")

    def _start(self) -> None:
        root = str(Path(__file__).resolve().parents[2])
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        code = "import sys; from stdlib.math.forkserver import serve; serve(int(sys.argv[1]))"
        try:
            process = subprocess.Popen(
                [sys.executable, "-P", "-c", code, str(theirs.fileno())],
                pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                start_new_session=True)
        finally:
            theirs.close()
        ours.settimeout(STARTUP_TIMEOUT)
        try:
            ready = ours.recv(1)
        except OSError:
            ready = b""
        if ready != b"R":
            ours.close()
            process.kill()
            process.wait()
            raise ConnectionError("the math worker did not start")
        ours.settimeout(None)
        self._socket, self._process, self._owner = ours, process, os.getpid()

    def _stop(self) -> None:
        if self._socket is not None:
            self._socket.close()
        if self._process is not None and self._owner == os.getpid():
            try:
                self._process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._socket = self._process = None

    def close(self) -> None:
        with self._lock:
            self._stop()


_HELPER = _Helper()
_SLOTS = threading.BoundedSemaphore(max(1, os.cpu_count() or 1))
atexit.register(_HELPER.close)


def execute(tool: MathTool, request: BaseModel) -> Any:
    """Run `tool` on a validated request in a fresh child; return the re-validated result."""
    header = b'{"identifier": "%s", "deadline": %r}' % (tool.identifier.encode(), tool.deadline)
    payload = request.model_dump_json().encode()
    with _SLOTS:
        request_r, request_w = os.pipe()
        result_r, result_w = os.pipe()
        try:
            try:
                pid = _HELPER.fork_child(header, [request_r, result_w])
            except OSError:
                for fd in (request_w, result_r):
                    os.close(fd)
                raise _fault(tool, "worker_unavailable",
                             "the math worker process could not be started") from None
        finally:
            os.close(request_r)
            os.close(result_w)
        started = time.monotonic()
        frame = _exchange(request_w, payload, result_r, started + tool.deadline)
        elapsed_ms = int((time.monotonic() - started) * 1000)
        if frame is None:
            try:
                os.kill(pid, 9)
            except ProcessLookupError:
                pass
    return _interpret(tool, request, frame, elapsed_ms)


def _exchange(write_fd: int, data: bytes, read_fd: int, deadline_at: float) -> bytes | None:
    """Feed the request to the child and collect its frame; None when the deadline passed."""
    selector = selectors.DefaultSelector()
    os.set_blocking(write_fd, False)
    selector.register(write_fd, selectors.EVENT_WRITE)
    selector.register(read_fd, selectors.EVENT_READ)
    pending, chunks = memoryview(data), []
    open_fds = {write_fd, read_fd}
    try:
        while True:
            remaining = deadline_at - time.monotonic()
            if remaining <= 0:
                return None
            for key, _ in selector.select(remaining):
                if key.fd == write_fd:
                    try:
                        pending = pending[os.write(write_fd, pending[:_CHUNK]):]
                    except BrokenPipeError:
                        pending = pending[:0]
                    if not pending:
                        selector.unregister(write_fd)
                        os.close(write_fd)
                        open_fds.discard(write_fd)
                else:
                    chunk = os.read(read_fd, _CHUNK)
                    if not chunk:
                        return b"".join(chunks)
                    chunks.append(chunk)
    finally:
        selector.close()
        for fd in open_fds:
            os.close(fd)


def _interpret(tool: MathTool, request: BaseModel, frame: bytes | None, elapsed_ms: int) -> Any:
    if frame is None:
        if tool.on_deadline is not None:
            return tool.on_deadline(request, tool.deadline_ms, elapsed_ms)
        raise MathError.build(
            "execution_limit", tool.identifier,
            [f"- limit deadline: the operation did not finish within {tool.deadline_ms} ms"],
            detail={"limit": "deadline", "limit_value": tool.deadline_ms,
                    "elapsed_ms": elapsed_ms})
    tag, body = frame[:1], frame[1:]
    if tag == b"K":
        try:
            return tool.result_adapter.validate_json(body)
        except ValidationError:
            raise _fault(tool, "result_revalidation_failed",
                         "the result did not re-validate against the result type") from None
    if tag == b"M":
        from .forkserver import MEMORY_LIMIT
        raise MathError.build(
            "execution_limit", tool.identifier,
            [f"- limit memory: the operation exceeded {MEMORY_LIMIT // 2**20} MiB"],
            detail={"limit": "memory", "limit_value": MEMORY_LIMIT, "elapsed_ms": elapsed_ms})
    if tag == b"F":
        code = body.decode(errors="replace")
        raise _fault(tool, code, "the backend broke the operation's contract")
    if tag == b"X":
        raise _fault(tool, "unexpected_exception",
                     f"unexpected {body.decode(errors='replace')} in the worker")
    raise _fault(tool, "worker_died", "the worker ended without a result (a crash, or a "
                 "memory or CPU limit inside native code)")


def _fault(tool: MathTool, code: str, explanation: str) -> MathError:
    return MathError.build("backend_fault", tool.identifier, [f"- {code}: {explanation}"],
                           detail={"code": code})
