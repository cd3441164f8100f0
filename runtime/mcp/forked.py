"""Each script tool call of `mcp serve` in a process of its own.

Many clients may call at once, and a call is code an adversary may have steered: it can loop,
fill memory, or be abandoned by its client. So once the served scripts are loaded, the server
forks a *zygote* — a copy of itself holding the loaded programs and nothing running — which
keeps children forked and waiting; each call goes to a waiting child (which runs that one call
and exits) while the zygote forks the next:

* calls run concurrently, and a slow one never delays another;
* a call past the per-call time limit (`--time-limit`, default CALL_SECONDS) is killed, and so
  is a call its client abandoned (cancelled) or a call still running when the server stops:
  killing the process frees everything it held, even work stuck in C code;
* a call's memory is bounded by `--memory-limit` (default CALL_MEMORY), its own RLIMIT_DATA;
* a call's changes to the program's variables end with the call: every call starts from the
  state the program had when it finished loading, whoever called before.

The zygote is forked from the interpreter thread (which has the large stack deep Synsema
calls need) right after loading, before the protocol's event loop and its threads start, so
the processes it makes hold no lock another thread owned. A call's audit records go to the
same log (the descriptor is inherited); the child reports how many it wrote, and the server
counts them in its summary.

Protocol. The zygote forks each waiting child with a socket pair and sends the server its end
ahead of time, with the child's pid, over the control socket (SCM_RIGHTS, one datagram per
child); the child applies its limits and waits on its end. A call so reaches a process that is
already waiting: the server writes the request as a JSON line straight to the child, which
writes the `Outcome` as JSON before it exits — one process wake-up, not a relay through the
zygote. Each child the server takes, it asks the zygote for another (one byte), so SPARES
children wait whenever no more calls than that are starting at once.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import json
import os
import signal
import socket
import struct
import threading

from synsema.lang.gcpause import hold

CALL_SECONDS = 60.0      # the defaults of mcp serve's --time-limit and --memory-limit
CALL_MEMORY = 1024 ** 3
SPARES = 2               # children kept forked and waiting for a call
_PID = struct.Struct("!q")
_ANSWER_READ = 256 * 1024   # bytes of a call's answer read at once


class CallProcesses:
    """The zygote and the calls it runs; `call(name, arguments)` from the server's event loop."""

    def __init__(self, run_call, seconds: float | None, memory: int | None, audit=None,
                 after_fork=None):
        self._run_call = run_call      # (tool name, arguments) -> Outcome, run in the child
        self._after_fork = after_fork  # run in each child as it is forked, before its call comes
        self.seconds = seconds
        self.memory = memory
        self._audit = audit
        self._control: socket.socket | None = None
        self._zygote = 0
        self._send = threading.Lock()
        self._running: set[int] = set()
        self._spares: collections.deque = collections.deque()    # (pid, socket), waiting
        self._waiting: collections.deque = collections.deque()   # futures of calls without one
        self._loop: asyncio.AbstractEventLoop | None = None       # the loop reading _control

    # -- the server's side
    def start(self, warm=None) -> None:
        """Fork the zygote; call on the thread whose stack the calls should have. `warm()` runs
        first (imports every call needs, done once instead of in every child); what exists then
        is frozen out of the collector's walks, so children copy only the pages a call touches."""
        if warm is not None:
            warm()
        hold()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:
            try:
                ours.close()
                self._serve_forks(theirs)
            finally:
                os._exit(0)     # the zygote never returns into the server's code
        theirs.close()
        ours.setblocking(False)
        self._control, self._zygote = ours, pid

    async def call(self, name: str, arguments: dict, outcome_type):
        """Run one call in a waiting child; its Outcome (an error Outcome when it was stopped)."""
        request = json.dumps({"tool": name, "arguments": arguments}).encode() + b"\n"
        loop = asyncio.get_running_loop()
        pid = connection = None
        answered = False
        deferred = 0
        data = bytearray()
        try:
            async with asyncio.timeout(self.seconds):
                while connection is None:
                    spare = await self._take()
                    if spare is None:
                        return outcome_type(error=f"Runtime error: task '{name}' could not start: the "
                                                  "server's call processes are gone; restart the server")
                    pid, connection = spare
                    self._running.add(pid)
                    if self._spares:
                        deferred += 1
                    else:
                        self._replace()
                    connection.setblocking(False)
                    try:
                        await loop.sock_sendall(connection, request)
                    except ConnectionError:     # that child is gone (killed from outside): the next
                        connection.close()
                        self._running.discard(pid)
                        pid = connection = None
                while chunk := await loop.sock_recv(connection, _ANSWER_READ):
                    data += chunk
                answered = True     # it closed its end: it is exiting, and is not ours to kill
        except TimeoutError:
            return outcome_type(error=f"Runtime error: task '{name}' ran longer than the per-call "
                                      f"time limit of {self.seconds:g} s (--time-limit), so it was stopped",
                                stopped=True)
        except ConnectionError:
            data = bytearray()
        finally:
            for _ in range(deferred):
                self._replace()
            if connection is not None:
                connection.close()
            if pid is not None:
                self._running.discard(pid)
                if not answered:     # stopped, abandoned or broken: the process still runs
                    self._stop(pid)
        if not data:
            return outcome_type(error=f"Runtime error: task '{name}' ended without an answer (its "
                                      "process was stopped)", stopped=True)
        answer = json.loads(data)
        if self._audit is not None:
            self._audit.absorb(**answer.pop("audit"))
        else:
            answer.pop("audit")
        return outcome_type(**answer)

    async def _take(self) -> tuple[int, socket.socket] | None:
        """A waiting child (its pid and the server's end of its socket); None when the zygote
        is gone. Each child taken is replaced by one the zygote forks (`_replace`): at once when
        it was the last one waiting, else once its call has been answered, so that the fork does
        not compete with the call for the machine's cores."""
        loop = asyncio.get_running_loop()
        if self._control is not None and self._loop is not loop:
            if self._loop is not None and not self._loop.is_closed():
                self._loop.remove_reader(self._control.fileno())
            self._loop = loop
            loop.add_reader(self._control.fileno(), self._receive)
            self._receive()
        if self._spares:
            spare = self._spares.popleft()
        elif self._control is None:
            return None
        else:
            waiter = loop.create_future()
            self._waiting.append(waiter)
            try:
                spare = await waiter
            except asyncio.CancelledError:
                if waiter.done() and not waiter.cancelled() and waiter.result() is not None:
                    self._spares.appendleft(waiter.result())   # not used: the next call's
                raise
            if spare is None:
                return None
        return spare

    def _replace(self) -> None:
        """Ask the zygote for one more waiting child."""
        try:
            with self._send:
                self._control.send(b"s")
        except (OSError, AttributeError):
            pass    # the zygote is gone: the next call is told so

    def _receive(self) -> None:
        """The event loop's reader of the control socket: each datagram is one waiting child,
        handed to a call waiting for one or kept; the socket's end means the zygote is gone."""
        while self._control is not None:
            try:
                data, fds, _, _ = socket.recv_fds(self._control, _PID.size, 1)
            except BlockingIOError:
                return
            except OSError:
                data, fds = b"", []
            if len(data) != _PID.size or len(fds) != 1:
                for fd in fds:
                    os.close(fd)
                self._gone()
                return
            spare = (_PID.unpack(data)[0], socket.socket(fileno=fds[0]))
            while self._waiting and self._waiting[0].done():
                self._waiting.popleft()
            if self._waiting:
                self._waiting.popleft().set_result(spare)
            else:
                self._spares.append(spare)

    def _gone(self) -> None:
        """The zygote ended: no child will come; calls waiting for one are told so."""
        if self._loop is not None and self._control is not None and not self._loop.is_closed():
            self._loop.remove_reader(self._control.fileno())
        if self._control is not None:
            self._control.close()
            self._control = None
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(None)

    def _stop(self, pid: int) -> None:
        self._running.discard(pid)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def close(self) -> None:
        """Stop every call still running and the zygote; the waiting children end as their
        sockets close."""
        for pid in list(self._running):
            self._stop(pid)
        while self._spares:
            self._spares.popleft()[1].close()
        if self._control is not None:
            self._gone()

    # -- the zygote's side
    def _serve_forks(self, control: socket.socket) -> None:
        """The zygote: fork SPARES waiting children, then one more each time the server asks;
        exit when the server goes away."""
        signal.signal(signal.SIGCHLD, signal.SIG_IGN)    # children are reaped by the kernel
        signal.signal(signal.SIGINT, signal.SIG_IGN)     # Ctrl-C is the server's to handle
        for _ in range(SPARES):
            self._fork_spare(control)
        while True:
            try:
                message = control.recv(1)
            except OSError:
                os._exit(0)
            if not message:
                os._exit(0)
            self._fork_spare(control)

    def _fork_spare(self, control: socket.socket) -> None:
        """Fork a child waiting for its call, and send the server its end of the child's socket
        with the child's pid. The zygote keeps no end, so the next child holds none either."""
        ours, theirs = socket.socketpair()
        pid = os.fork()
        if pid == 0:
            control.close()
            ours.close()
            self._run_one(theirs)
        theirs.close()
        try:
            socket.send_fds(control, [_PID.pack(pid)], [ours.fileno()])
        except OSError:
            os._exit(0)         # the server is gone
        finally:
            ours.close()

    def _run_one(self, connection: socket.socket) -> None:
        """A child: wait for one call, write its Outcome back, then exit without running any
        cleanup of the server's (no audit summary, no flushing of the protocol's stdout). A
        socket closed before a request came (the server ended) ends it quietly."""
        code = 0
        try:
            if self._after_fork is not None:
                self._after_fork()
            if self.memory is not None:
                from synsema.runtime.resources import apply_memory_limit
                apply_memory_limit(self.memory)
            stream = connection.makefile("rb")
            line = stream.readline()
            if not line:
                os._exit(0)
            request = json.loads(line)
            before = _counts(self._audit)
            outcome = self._run_call(request["tool"], request["arguments"])
            answer = dataclasses.asdict(outcome)
            after = _counts(self._audit)
            answer["audit"] = {key: after[key] - before[key] for key in after}
            connection.sendall(json.dumps(answer, ensure_ascii=False).encode())
            # The end of the answer, before this process's exit tears its copy of the server
            # down (milliseconds the client would otherwise wait for).
            connection.shutdown(socket.SHUT_WR)
        except BaseException:
            code = 1
        finally:
            os._exit(code)


def _counts(audit) -> dict:
    if audit is None:
        return {"count": 0, "granted": 0, "denied": 0}
    return {"count": audit.count, "granted": audit.granted, "denied": audit.denied}
