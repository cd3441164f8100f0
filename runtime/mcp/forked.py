"""Each script tool call of `mcp serve` in a process of its own.

Many clients may call at once, and a call is code an adversary may have steered: it can loop,
fill memory, or be abandoned by its client. So once the served scripts are loaded, the server
forks a *zygote* — a copy of itself holding the loaded programs and nothing running — which
keeps one child forked and waiting; each call goes to the waiting child (which runs that one
call and exits) while the zygote forks the next:

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
counts them in its summary. Protocol: per call, the server sends the zygote one end of a new
socket pair; the child writes its pid as a line, reads the request as a JSON line, and writes
the `Outcome` as JSON before it exits.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import json
import os
import signal
import socket
import threading

CALL_SECONDS = 60.0      # the defaults of mcp serve's --time-limit and --memory-limit
CALL_MEMORY = 1024 ** 3


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

    # -- the server's side
    def start(self, warm=None) -> None:
        """Fork the zygote; call on the thread whose stack the calls should have. `warm()` runs
        first (imports every call needs, done once instead of in every child); what exists then
        is frozen out of the collector's walks, so children copy only the pages a call touches."""
        if warm is not None:
            warm()
        gc.freeze()
        ours, theirs = socket.socketpair()
        pid = os.fork()
        if pid == 0:
            try:
                ours.close()
                self._serve_forks(theirs)
            finally:
                os._exit(0)     # the zygote never returns into the server's code
        theirs.close()
        self._control, self._zygote = ours, pid

    async def call(self, name: str, arguments: dict, outcome_type):
        """Run one call in a new child; its Outcome (an error Outcome when it was stopped)."""
        ours, theirs = socket.socketpair()
        try:
            with self._send:
                socket.send_fds(self._control, [b"c"], [theirs.fileno()])
        except OSError:
            ours.close()
            return outcome_type(error=f"Runtime error: task '{name}' could not start: the server's "
                                      "call processes are gone; restart the server")
        finally:
            theirs.close()
        reader, writer = await asyncio.open_unix_connection(sock=ours)
        pid = None
        answered = False
        try:
            async with asyncio.timeout(self.seconds):
                pid = int(await reader.readline())
                self._running.add(pid)
                writer.write(json.dumps({"tool": name, "arguments": arguments}).encode() + b"\n")
                await writer.drain()
                data = await reader.read()
                answered = True     # it closed its end: it is exiting, and is not ours to kill
        except TimeoutError:
            return outcome_type(error=f"Runtime error: task '{name}' ran longer than the per-call "
                                      f"time limit of {self.seconds:g} s (--time-limit), so it was stopped",
                                stopped=True)
        except (ValueError, ConnectionError):
            data = b""
        finally:
            writer.close()
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

    def _stop(self, pid: int) -> None:
        self._running.discard(pid)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def close(self) -> None:
        """Stop every call still running and the zygote."""
        for pid in list(self._running):
            self._stop(pid)
        if self._control is not None:
            self._control.close()
            self._control = None

    # -- the zygote's side
    def _serve_forks(self, control: socket.socket) -> None:
        """The zygote: hand each socket received to a waiting child, then fork the next one;
        exit when the server goes away. A call so never waits for a fork."""
        signal.signal(signal.SIGCHLD, signal.SIG_IGN)    # children are reaped by the kernel
        signal.signal(signal.SIGINT, signal.SIG_IGN)     # Ctrl-C is the server's to handle
        spare = self._fork_spare(control)
        while True:
            try:
                message, fds, _, _ = socket.recv_fds(control, 1, 1)
            except OSError:
                os._exit(0)
            if not message or not fds:
                os._exit(0)
            try:
                socket.send_fds(spare, [b"c"], fds)
            except OSError:             # the waiting child is gone (killed from outside)
                spare.close()
                spare = self._fork_spare(control)
                socket.send_fds(spare, [b"c"], fds)
            os.close(fds[0])
            spare.close()
            spare = self._fork_spare(control)

    def _fork_spare(self, control: socket.socket) -> socket.socket:
        """A child waiting for its call's socket; the zygote's end of the line to it."""
        ours, theirs = socket.socketpair()
        if os.fork() == 0:
            control.close()
            ours.close()
            if self._after_fork is not None:
                self._after_fork()
            try:
                message, fds, _, _ = socket.recv_fds(theirs, 1, 1)
            except OSError:
                fds = []
            if not fds:
                os._exit(0)         # the zygote ended before a call came
            theirs.close()
            self._run_one(socket.socket(fileno=fds[0]))
        theirs.close()
        return ours

    def _run_one(self, connection: socket.socket) -> None:
        """A child: one call, its Outcome written back, then exit without running any cleanup
        of the server's (no audit summary, no flushing of the protocol's stdout)."""
        code = 0
        try:
            if self.memory is not None:
                from synsema.runtime.resources import apply_memory_limit
                apply_memory_limit(self.memory)
            connection.sendall(f"{os.getpid()}\n".encode())
            stream = connection.makefile("rb")
            request = json.loads(stream.readline())
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
