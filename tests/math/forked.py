"""`in_fork`: run a function in a forked child of a probe process and return what it returned.

The lean-worker probes (test_lazy_backends, test_lazy_catalog) run in a fresh interpreter and
need each check to start from the same process state, as the worker's children do: a fork per
check, its result sent back as JSON through a pipe. An exception becomes "failed: <repr>".
"""

from __future__ import annotations

import json
import os


def in_fork(action):
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            out = action()
        except BaseException as problem:
            out = "failed: " + repr(problem)
        os.write(write, json.dumps(out).encode())
        os._exit(0)
    os.close(write)
    data = b""
    while chunk := os.read(read, 1 << 16):
        data += chunk
    os.close(read)
    os.waitpid(pid, 0)
    return json.loads(data)
