"""The worker side of the isolation boundary (MATH.md §8).

One long-lived helper process imports the backends once and then forks a fresh child for every
`math.run`. The child limits its own memory and CPU time, reads the request, validates it,
calls exactly one domain function and writes the typed result back as JSON. A fresh child per
call means nothing leaks between calls (z3 keeps process-global parameters, sympy keeps caches)
and every call can be killed with SIGKILL, which is the only thing that reliably stops z3,
PySAT and sympy alike.

The helper is started by `stdlib.math.isolation` as `python -P -c ...serve(fd)` rather than
through `multiprocessing`, whose forkserver children re-run the parent's main script.

Protocol on the control socket (one request in flight at a time, the parent holds a lock):
parent -> helper: a 4-byte length, a JSON header {identifier, deadline}, and two file
descriptors (SCM_RIGHTS): the read end of the request pipe and the write end of the result
pipe; helper -> parent: the child's pid as 8 bytes. The child then reads the request JSON from
its pipe until EOF and writes one tagged frame: K<result json>, M (memory limit),
F<fault code> (a BackendFault), or X<exception class> (an unexpected exception).
"""

from __future__ import annotations

import importlib
import json
import math
import os
import resource
import signal
import socket
import struct

MEMORY_LIMIT = 2 * 1024**3
PRELOAD = ("sympy", "z3", "pysat.solvers", "stdlib.math.catalog",
           "stdlib.math.adapters.sympy_ntheory", "stdlib.math.adapters.sympy_poly",
           "stdlib.math.adapters.sympy_matrix", "stdlib.math.adapters.sympy_calculus",
           "stdlib.math.adapters.pysat_solver", "stdlib.math.adapters.z3_smt",
           "stdlib.math.adapters.root_isolation",
           "stdlib.math.adapters.sympy_lattice", "stdlib.math.adapters.sympy_arithmetic",
           "stdlib.math.adapters.sympy_galois")


def serve(fd: int) -> None:
    """Preload the backends, announce readiness, then fork one child per request until the
    parent closes the control socket."""
    control = socket.socket(fileno=fd)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in PRELOAD:
        importlib.import_module(name)
    # Children are reaped by the kernel; the parent learns their fate through the pipes.
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    control.sendall(b"R")
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(control, 4096, 2)
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
        pid = os.fork()
        if pid == 0:
            control.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            _child(json.loads(header), fds[0], fds[1])
        for descriptor in fds:
            os.close(descriptor)
        control.sendall(struct.pack("!q", pid))


def _child(header: dict, request_fd: int, result_fd: int) -> None:
    """Run one request and exit without returning to the server loop."""
    try:
        frame = _run(header, request_fd)
    except BaseException as exc:  # the frame must be written whatever happened
        frame = b"X" + type(exc).__name__.encode()
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
    from .catalog import get
    from .errors import BackendFault
    tool = get(header["identifier"])
    try:
        result = tool.function(tool.request.model_validate_json(b"".join(chunks)))
        return b"K" + tool.result_adapter.dump_json(result)
    except MemoryError:
        return b"M"
    except BackendFault as fault:
        return b"F" + fault.code.encode()
