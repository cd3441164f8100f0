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
import json
import math
import os
import _socket
import select
import struct
import sys
import threading
import time

from .errors import MathError

# Importing this module stays cheap (`start_soon` runs before anything else loads): not even
# typing, whose import costs a first plain call more than its exchange with the worker.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

    from pydantic import BaseModel

    from .tool import MathTool

STARTUP_TIMEOUT = 120.0
_CHUNK = 1 << 16


class _Helper:
    """The forkserver helper process and its control socket (started lazily, restarted if it
    died or if this process was forked since). `_ready` is False between spawning the helper
    and its readiness byte, so a spawn can run ahead of the first request."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._socket: _socket.socket | None = None
        self._pid = 0                   # the helper's process id, 0 when there is none
        self._owner = 0
        self._ready = False
        self._learned: list[str] = []   # adapters a child imported, for the helper to load

    def start_soon(self, expected: str) -> None:
        """Spawn the helper without waiting for it, so that its start-up (preparing the
        operation `expected` first, if one is named) overlaps with this process validating the
        request of that call. A spawn that fails is left to that request, which starts the
        helper again and reports."""
        if not self._lock.acquire(blocking=False):
            return  # a request or a pre-warm is already starting or using it
        try:
            if self._socket is None or self._owner != os.getpid():
                self._spawn(expected)
        except OSError:
            pass
        finally:
            self._lock.release()

    def fork_child(self, header: dict, fds: list[int]) -> int:
        """Have the helper fork the child of one run (after loading its adapters, and the
        adapters earlier children had to import); its pid."""
        if self._learned:
            header = {**header, "adapters": self._learned}
            self._learned = []
        data = json.dumps(header).encode()
        return struct.unpack("!q", self._request(data, fds, lambda: self._receive(8)))[0]

    def learn(self, adapters: list[str]) -> None:
        """A child had to import these adapters (an operation's late ones): the helper loads
        them before it forks the next child, so no later child imports them again."""
        self._learned.extend(a for a in adapters if a not in self._learned)

    def load(self, domains: list[str]) -> list[str]:
        """Have the helper import the adapters of `domains`; the backends it has loaded."""
        return self._ask({"load": domains})

    def modules(self) -> list[str]:
        """Every module the helper has imported (tests: the plain path keeps it lean)."""
        return self._ask({"modules": True})

    def _ask(self, header: dict) -> list[str]:
        def reply() -> bytes:
            (length,) = struct.unpack("!I", self._receive(4))
            return self._receive(length)
        return json.loads(self._request(json.dumps(header).encode(), [], reply))

    def _request(self, header: bytes, fds: list[int], reply: Callable[[], bytes]) -> bytes:
        with self._lock:
            for attempt in (1, 2):
                if self._socket is None or self._owner != os.getpid():
                    self._spawn()
                if not self._ready:
                    self._await_ready()
                try:
                    message = struct.pack("!I", len(header)) + header
                    if fds:
                        rights = struct.pack(f"{len(fds)}i", *fds)
                        self._socket.sendmsg([message], [(_socket.SOL_SOCKET,
                                                          _socket.SCM_RIGHTS, rights)])
                    else:
                        self._socket.sendall(message)
                    return reply()
                except OSError:
                    self._stop()
                    if attempt == 2:
                        raise
        raise AssertionError("unreachable")

    def _receive(self, size: int) -> bytes:
        data = b""
        while len(data) < size:
            more = self._socket.recv(size - len(data))
            if not more:
                raise ConnectionError("forkserver closed the connection")
            data += more
        return data

    def _spawn(self, expected: str = "") -> None:
        # _socket, the C module under socket: socket's own import (enum conversions of every
        # constant) would cost a first plain call more than this whole exchange.
        ours, theirs = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_STREAM)
        code = ("import sys, json; where = json.loads(sys.argv[3]); sys.path[:] = where['path']; "
                "import synsema; synsema.__path__[:] = where['synsema']; "
                "from synsema.stdlib.math.forkserver import serve; "
                "serve(int(sys.argv[1]), sys.argv[2])")
        try:
            # -I -S: no site step, no environment variables, no current folder (the site step
            # alone cost more than the rest of a first plain call); this process's import path
            # instead, so the helper finds what this process finds. posix_spawn rather than
            # subprocess, whose import costs a first plain call more than the spawn itself:
            # the helper gets /dev/null as stdin, stdout and stderr, its end of the socket as
            # descriptor 3 (dup2 clears close-on-exec), and a session of its own.
            target = 3 if theirs.fileno() != 3 else 4
            null = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0) for fd in (0, 1, 2)]
            # -I drops PYTHONDONTWRITEBYTECODE and PYTHONPYCACHEPREFIX: their flags carry them.
            flags = (["-B"] if sys.flags.dont_write_bytecode else []) + (
                ["-X", f"pycache_prefix={sys.pycache_prefix}"] if sys.pycache_prefix else [])
            pid = os.posix_spawn(
                sys.executable, [sys.executable, "-I", "-S", *flags, "-c", code, str(target),
                                 expected, json.dumps(_import_path())], os.environ,
                # the socket first: were this process's stdin closed, it could be descriptor 0
                file_actions=[(os.POSIX_SPAWN_DUP2, theirs.fileno(), target)] + null,
                setsid=True)
        except OSError:
            ours.close()
            raise
        finally:
            theirs.close()
        self._socket, self._pid, self._owner, self._ready = ours, pid, os.getpid(), False

    def _await_ready(self) -> None:
        self._socket.settimeout(STARTUP_TIMEOUT)
        try:
            ready = self._socket.recv(1)
        except OSError:
            ready = b""
        if ready != b"R":
            self._socket.close()
            _reap(self._pid, 0)
            self._socket, self._pid = None, 0
            raise ConnectionError("the math worker did not start")
        self._socket.settimeout(None)
        self._ready = True

    def _stop(self) -> None:
        """Close the control socket and reap the helper: one that is serving ends on the
        closed socket; one still starting (its first call never came, e.g. the request was
        invalid) is killed rather than waited for while it prepares an operation."""
        if self._socket is not None:
            self._socket.close()
        if self._pid and self._owner == os.getpid():
            _reap(self._pid, 2 if self._ready else 0)
        self._socket, self._pid = None, 0
        self._ready = False

    def close(self) -> None:
        """Stop the helper at exit. A request still in flight (a background pre-warm, a call
        on a thread the time limit abandoned) keeps the lock; the helper then ends by itself
        when this process's end closes the control socket."""
        if self._lock.acquire(blocking=False):
            try:
                self._stop()
            finally:
                self._lock.release()


def _reap(pid: int, timeout: float) -> None:
    """Wait up to `timeout` seconds for the helper to end, then kill it; either way reap it."""
    ends = time.monotonic() + timeout
    try:
        while os.waitpid(pid, os.WNOHANG)[0] == 0:
            if time.monotonic() >= ends:
                os.kill(pid, 9)
                os.waitpid(pid, 0)
                return
            time.sleep(0.005)
    except (ChildProcessError, ProcessLookupError):
        pass  # reaped already


def _import_path() -> dict[str, list[str]]:
    """Where the helper imports from, without a site step: `path`, its sys.path (the folder
    holding the `synsema` package this process imported, then this process's path without its
    first entry when that is the script's folder or the current one), and `synsema`, the
    package's own search path (its folder, and the one holding the `stdlib` folder this process
    imports as synsema.stdlib, which an editable install maps there with a .pth hook)."""
    import synsema.stdlib
    package = os.path.dirname(os.path.abspath(synsema.__file__))
    root = os.path.dirname(package)
    own = sys.path if sys.flags.safe_path else sys.path[1:]
    search = [package, os.path.dirname(os.path.abspath(synsema.stdlib.__path__[0]))]
    return {"path": [root] + [entry for entry in own if entry and entry != root],
            "synsema": list(dict.fromkeys(search))}


_HELPER = _Helper()
_SLOTS = threading.BoundedSemaphore(max(1, os.cpu_count() or 1))
atexit.register(_HELPER.close)


def start_soon(expected: Any = None) -> None:
    """Spawn the worker now, ahead of the first request (see `_Helper.start_soon`); `expected`
    is the operation that request will run, if known. Only a declared identifier reaches the
    worker's command line."""
    from .index import DECLARED_IN
    _HELPER.start_soon(expected if type(expected) is str and expected in DECLARED_IN else "")


_PREWARM: list[threading.Thread] = []
_PREWARMED: list[str] = []      # the domains pre-warmed for this process


def forked() -> None:
    """In a process forked from one that may have used the helper (each `mcp serve` call runs
    in one): forget that helper — it belongs to the parent — and, when the parent pre-warmed
    domains, start this process's own helper loading them. The parent must not be pre-warming
    while it forks (`wait_for_prewarm`)."""
    global _HELPER
    _HELPER = _Helper()
    _PREWARM.clear()
    if _PREWARMED:
        load_in_background(list(_PREWARMED))


def wait_for_prewarm() -> None:
    """Wait for a background pre-warm to finish (before forking, so no lock is held)."""
    _after_prewarm()


def load_in_background(domains: list[str]) -> None:
    """`load(domains)` on a daemon thread (the command line's pre-warm). Every later request
    of this process waits for it first, so a program's first math call finds those backends
    loaded instead of racing the load. A failure is not reported here: the worker starts again
    for that request, which reports it."""
    def target() -> None:
        try:
            _HELPER.load(domains)
        except OSError:
            pass
    thread = threading.Thread(target=target, name="math-prewarm", daemon=True)
    _PREWARMED[:] = domains
    _PREWARM.append(thread)
    thread.start()


def _after_prewarm() -> None:
    for thread in _PREWARM:
        thread.join()


def load(domains: list[str]) -> list[str]:
    """Start the helper if it is not running, import the adapters of `domains` into it, and
    return the backends it holds (for every later call of this process)."""
    _after_prewarm()
    try:
        return _HELPER.load(domains)
    except OSError:
        raise MathError.build("backend_fault", None, [
            "- worker_unavailable: the math worker process could not be started"],
            verb="math.prewarm", detail={"code": "worker_unavailable"}) from None


def execute(tool: MathTool, request: BaseModel) -> Any:
    """Run `tool` on a validated request in a fresh child; return the re-validated result."""
    frame, elapsed_ms = _call(tool.identifier, tool.deadline, request.model_dump_json().encode())
    return _interpret(tool, request, frame, elapsed_ms)


def execute_plain(identifier: str, payload: dict) -> dict:
    """Run an operation of stdlib.math.plain on a payload its table validated, in a fresh child
    exactly as `execute` runs one; the result re-checked by the table and dumped (plain.result).
    Anything else -- a result the table cannot vouch for, a deadline, a fault -- goes to the
    Pydantic path's `_interpret`, which decides and words it as for any operation."""
    from . import plain
    frame, elapsed_ms = _call(identifier, plain.OPS[identifier]["deadline"],
                              json.dumps(payload).encode(), plain=True)
    if frame is not None and frame[:1] == b"K":
        value = plain.result(identifier, frame[1:])
        if value is not None:
            return value
    from . import catalog
    tool = catalog.get(identifier)
    # a deadline an operation answers itself (on_deadline) needs its request, as a model
    request = (tool.request.model_validate(payload)
               if frame is None and tool.on_deadline is not None else None)
    return _interpret(tool, request, frame, elapsed_ms).model_dump()


def _call(identifier: str, deadline: float, payload: bytes,
          plain: bool = False) -> tuple[bytes | None, int]:
    """Have a fresh child run one request; its frame (None when the deadline killed it) and
    the milliseconds it took."""
    header = {"run": identifier, "deadline": deadline, "plain": plain}
    _after_prewarm()
    with _SLOTS:
        request_r, request_w = os.pipe()
        result_r, result_w = os.pipe()
        try:
            try:
                pid = _HELPER.fork_child(header, [request_r, result_w])
            except OSError:
                for fd in (request_w, result_r):
                    os.close(fd)
                raise _fault(identifier, "worker_unavailable",
                             "the math worker process could not be started") from None
        finally:
            os.close(request_r)
            os.close(result_w)
        started = time.monotonic()
        frame = _exchange(request_w, payload, result_r, started + deadline)
        elapsed_ms = int((time.monotonic() - started) * 1000)
        if frame is not None and frame[:1] == b"A":  # A<adapters>\n, then the frame itself
            imported, _, frame = frame[1:].partition(b"\n")
            _HELPER.learn(imported.decode(errors="replace").split(","))
        if frame is None:
            try:
                os.kill(pid, 9)
            except ProcessLookupError:
                pass
    return frame, elapsed_ms


def _exchange(write_fd: int, data: bytes, read_fd: int, deadline_at: float) -> bytes | None:
    """Feed the request to the child and collect its frame; None when the deadline passed."""
    poller = select.poll()  # select's poll, not selectors: one import less for a first call
    os.set_blocking(write_fd, False)
    poller.register(write_fd, select.POLLOUT)
    poller.register(read_fd, select.POLLIN)
    pending, chunks = memoryview(data), []
    open_fds = {write_fd, read_fd}
    try:
        while True:
            remaining = deadline_at - time.monotonic()
            if remaining <= 0:
                return None
            for fd, _ in poller.poll(math.ceil(remaining * 1000)):
                if fd == write_fd:  # writable, or the child closed its end (the write says)
                    try:
                        pending = pending[os.write(write_fd, pending[:_CHUNK]):]
                    except BrokenPipeError:
                        pending = pending[:0]
                    if not pending:
                        poller.unregister(write_fd)
                        os.close(write_fd)
                        open_fds.discard(write_fd)
                else:
                    chunk = os.read(read_fd, _CHUNK)
                    if not chunk:
                        return b"".join(chunks)
                    chunks.append(chunk)
    finally:
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
    from pydantic import ValidationError
    tag, body = frame[:1], frame[1:]
    if tag == b"K":
        try:
            return tool.result_adapter.validate_json(body)
        except ValidationError:
            raise _fault(tool.identifier, "result_revalidation_failed",
                         "the result did not re-validate against the result type") from None
    if tag == b"M":
        from .forkserver import MEMORY_LIMIT
        raise MathError.build(
            "execution_limit", tool.identifier,
            [f"- limit memory: the operation exceeded {MEMORY_LIMIT // 2**20} MiB"],
            detail={"limit": "memory", "limit_value": MEMORY_LIMIT, "elapsed_ms": elapsed_ms})
    if tag == b"F":
        code = body.decode(errors="replace")
        raise _fault(tool.identifier, code, "the backend broke the operation's contract")
    if tag == b"X":
        raise _fault(tool.identifier, "unexpected_exception",
                     f"unexpected {body.decode(errors='replace')} in the worker")
    raise _fault(tool.identifier, "worker_died", "the worker ended without a result (a crash, or a "
                 "memory or CPU limit inside native code)")


def _fault(identifier: str, code: str, explanation: str) -> MathError:
    return MathError.build("backend_fault", identifier, [f"- {code}: {explanation}"],
                           detail={"code": code})
