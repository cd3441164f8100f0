"""Interrupt a thread's Python code after a number of seconds.

Some work has no time-out of its own: compiling a regex (the `regex` package parses a pattern
in Python, 37 s for a 1.3 MB one) or a call an MCP client made and then abandoned. `Deadline`
arms a timer that raises `DeadlineExceeded` *inside* the thread doing the work, at its next
Python instruction (CPython's asynchronous exceptions), so the work stops and unwinds through
its `finally` blocks, freeing what it held. Code running in C for a long stretch is interrupted
when it returns to Python.

`DeadlineExceeded` is a BaseException, so no `except Exception` on the way swallows it.
"""

from __future__ import annotations

import threading


class DeadlineExceeded(BaseException):
    """Raised in a thread whose Deadline passed."""


def interrupt(thread_id: int, exception: type[BaseException] = DeadlineExceeded) -> bool:
    """Raise `exception` in the thread `thread_id` at its next Python instruction."""
    import ctypes  # only when a deadline fires: most runs never need it
    done = ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), ctypes.py_object(exception))
    return done == 1


class Deadline:
    """`with Deadline(seconds):` — the block is interrupted with DeadlineExceeded when it runs
    longer than `seconds`. Leaving the block in time disarms it; an interruption decided just as
    the block ended is delivered before `__exit__` returns, never after it."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self._lock = threading.Lock()
        self._finished = False
        self._fired = False
        self._timer: threading.Timer | None = None
        self._thread = 0

    def __enter__(self) -> "Deadline":
        self._thread = threading.get_ident()
        self._timer = threading.Timer(self.seconds, self._fire)
        self._timer.daemon = True
        self._timer.start()
        return self

    def _fire(self) -> None:
        with self._lock:
            if not self._finished:
                self._fired = interrupt(self._thread)

    def __exit__(self, kind, value, traceback) -> bool:
        self._timer.cancel()
        with self._lock:
            self._finished = True
            fired = self._fired
        if fired and kind is None:
            try:
                while True:     # the pending exception arrives at the next instruction
                    pass
            except DeadlineExceeded:
                raise
        return False

    @property
    def fired(self) -> bool:
        return self._fired
