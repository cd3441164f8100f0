"""The worker side of the isolation boundary (MATH.md §8).

One long-lived helper process forks a fresh child for every `math.run`. The child limits its
own memory and CPU time, reads the request, validates it, calls exactly one domain function and
writes the typed result back as JSON. A fresh child per call means nothing leaks between calls
(z3 keeps process-global parameters, sympy keeps caches) and every call can be killed with
SIGKILL, which is the only thing that reliably stops z3, PySAT and sympy alike.

The helper starts lean: it imports neither the catalog nor Pydantic yet. Before it
forks the child of a call, it prepares that operation: imports its domain module and the
adapters it declares (`MathTool.adapters`), and so the backends behind them, and builds its
validators (`MathTool.build_validators`); later children inherit all of it, so each backend is
loaded and each validator built once per helper, by the first call that needs it, and an
operation that needs no backend (nt.integer.gcd) never loads sympy, z3 or PySAT (an
operation's `late_adapters` wait for the child that needs one, which reports them so that the
helper loads them before the next fork, or for a pre-warm). The parent
names the operation of its first call when it starts the helper, which prepares it before it
announces readiness, while the parent validates that call's request. A `load` request imports
the adapters of whole domains ahead of time (pre-warm). All of this happens in the helper,
outside the child's limits and before the parent starts the call's deadline clock; should an
import fail, the child imports it again and reports the failure as its frame.

The helper is started by `stdlib.math.isolation` as `python -I -S -c ...serve(fd)` (no site
step: the parent hands it its import path) rather than
through `multiprocessing`, whose forkserver children re-run the parent's main script.

Protocol on the control socket (one request in flight at a time, the parent holds a lock): the
parent sends a 4-byte length and a JSON header.
- {"run": identifier, "deadline": seconds} comes with two file descriptors (SCM_RIGHTS): the
  read end of the request pipe and the write end of the result pipe; the helper answers with
  the child's pid as 8 bytes. The child then reads the request JSON from its pipe until EOF and
  writes one tagged frame: K<result json>, M (memory limit), F<fault code> (a BackendFault),
  or X<exception class> (an unexpected exception), preceded by A<adapters>\n when the child
  imported adapters the helper did not hold (the parent hands them back in the next run's
  header as "adapters", and the helper loads them before that fork).
  With "plain": true the operation is one of stdlib.math.plain's: the child validates and runs
  it with that module's table and the operation's kernel, and never imports Pydantic.
- {"load": [domain, ...]} imports those domains' adapters, late ones included; the helper
  answers with a 4-byte length and the JSON list of the backends (`BACKENDS`) it has loaded by then.
- {"modules": true}: the same kind of answer, every module the helper has imported (tests
  check that the plain path keeps Pydantic and the backends out of it).

The helper imports neither the catalog nor Pydantic until an operation outside the plain path
asks for them.
"""

from __future__ import annotations

import importlib
import json
import math
import os
import resource
import signal
import _socket
import struct
import sys

MEMORY_LIMIT = 2 * 1024**3
# The libraries behind the adapters, as `math.prewarm` reports them.
BACKENDS = ("mpmath", "pysat", "sympy", "z3")
_ADAPTERS = "synsema.stdlib.math.adapters."


def serve(fd: int, expected: str = "") -> None:
    """Prepare the operation the parent expects to run first (`expected`, "" for none),
    announce readiness, then answer requests until the parent closes the control socket."""
    control = _socket.socket(fileno=fd)  # the C socket: socket's import is not needed
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if expected:
        _prepare(expected, expected in _plain().OPS)  # while the parent validates its request
    # Children are reaped by the kernel; the parent learns their fate through the pipes.
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    control.sendall(b"R")
    while True:
        try:
            data, fds = _receive_with_fds(control)
        except OSError:
            return
        if not data:
            return
        (length,) = struct.unpack("!I", data[:4])
        header = data[4:]
        while len(header) < length:
            more = control.recv(length - len(header))
            if not more:
                return
            header += more
        request = json.loads(header)
        if "load" in request or "modules" in request:
            if "load" in request:
                from . import catalog
                _load(a for tool in catalog.in_domains(request["load"])
                      for a in tool.adapters + tool.late_adapters)
                _ignore_interrupts()
                reply = [name for name in BACKENDS if name in sys.modules]
            else:
                reply = sorted(sys.modules)
            loaded = json.dumps(reply).encode()
            control.sendall(struct.pack("!I", len(loaded)) + loaded)
            continue
        _prepare(request["run"], request.get("plain", False), request.get("adapters", ()))
        pid = os.fork()
        if pid == 0:
            control.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            _child(request, fds[0], fds[1])
        for descriptor in fds:
            os.close(descriptor)
        control.sendall(struct.pack("!q", pid))


def _receive_with_fds(control) -> tuple[bytes, list[int]]:
    """One message and the (at most two) descriptors that came with it."""
    data, ancillary, _, _ = control.recvmsg(4096, _socket.CMSG_LEN(2 * 4))
    fds = []
    for level, kind, body in ancillary:
        if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
            fds.extend(struct.unpack(f"{len(body) // 4}i", body[:len(body) - len(body) % 4]))
    return data, fds


def _plain():
    from . import plain
    return plain


def _prepare(identifier: str, plain: bool, learned=()) -> None:
    """Import the operation's adapters and build its validators in the helper (on the plain
    path: import its kernel and problem finders), and the adapters earlier children reported
    importing (`learned`), so that every later child inherits them. A failure is left to the
    child, which meets it again inside its limits and reports it in its frame."""
    try:
        _load(learned)
        if plain:
            _plain().prepare(identifier)
            return
        from . import catalog
        tool = catalog.get(identifier)
        _load(tool.adapters)
        tool.build_validators()
    except Exception:
        pass
    finally:
        _ignore_interrupts()


def _ignore_interrupts() -> None:
    """Put SIGINT back to ignored after a backend's import: cypari2's cysignals installs a
    handler of its own, under which a SIGINT would end the helper (and its children would
    inherit it). The helper and its children are stopped by the parent (SIGKILL, or the
    control socket closing), never by an interrupt."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _load(adapters) -> None:
    """Import adapter modules into the helper, so that every later child inherits them. A
    failing import is left to the child, which imports the adapter again inside its limits
    and reports what went wrong in its frame."""
    for name in adapters:
        try:
            importlib.import_module(_ADAPTERS + name)
        except Exception:
            continue


def _child(header: dict, request_fd: int, result_fd: int) -> None:
    """Run one request and exit without returning to the server loop. When the run imported
    adapters the helper did not hold (an operation's late ones), the frame starts with
    A<their names, comma-separated>\n, so that the parent has the helper load them."""
    held = {m for m in sys.modules if m.startswith(_ADAPTERS)}
    try:
        frame = _run(header, request_fd)
    except BaseException as exc:  # the frame must be written whatever happened
        frame = b"X" + type(exc).__name__.encode()
    imported = [m[len(_ADAPTERS):] for m in sys.modules if m.startswith(_ADAPTERS)
                and m not in held]
    if imported:
        frame = b"A" + ",".join(imported).encode() + b"\n" + frame
    try:
        view = memoryview(frame)
        while view:
            view = view[os.write(result_fd, view):]
    finally:
        os._exit(0)


def _run(header: dict, request_fd: int) -> bytes:
    cpu = math.ceil(header["deadline"]) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    chunks = []
    while chunk := os.read(request_fd, 1 << 16):
        chunks.append(chunk)
    os.close(request_fd)
    from .errors import BackendFault
    try:
        if header.get("plain"):
            return b"K" + _plain().compute(header["run"], b"".join(chunks))
        from .catalog import get
        tool = get(header["run"])
        result = tool.function(tool.request.model_validate_json(b"".join(chunks)))
        return b"K" + tool.result_adapter.dump_json(result)
    except MemoryError:
        return b"M"
    except BackendFault as fault:
        return b"F" + fault.code.encode()
