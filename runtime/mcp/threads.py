"""The two threads that bridge the synchronous interpreter and the asynchronous MCP SDK.

`InterpreterThread` is the one thread that runs Synsema code inside `mcp serve`: the
interpreter keeps per-run state (call depth, labels) that is not thread-safe, so every call is
queued to it in turn, and it has the large stack 3,000 nested Synsema calls need.
`LoopThread` is the one asyncio event loop of a `synsema run` that talks to MCP servers: the
interpreter hands it coroutines and waits for each with a bounded timeout, never forever.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import sys
import threading

BIG_STACK = 512 * 1024 * 1024


class InterpreterThread:
    """A single worker thread with a large stack; `submit(fn)` returns a concurrent Future."""

    def __init__(self):
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 200_000))
        previous = threading.stack_size(BIG_STACK)
        try:
            self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="synsema")
            self._pool.submit(lambda: None).result()   # the thread is created now, with the stack
        finally:
            threading.stack_size(previous)

    def submit(self, fn, *args) -> concurrent.futures.Future:
        return self._pool.submit(fn, *args)

    async def run(self, fn, *args):
        """Run `fn(*args)` on the interpreter thread and await its result from asyncio."""
        return await asyncio.wrap_future(self._pool.submit(fn, *args))


class LoopThread:
    """An asyncio event loop running in a daemon thread, for one process."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()

        def target():
            asyncio.set_event_loop(self.loop)
            self.loop.call_soon(ready.set)
            self.loop.run_forever()

        self._thread = threading.Thread(target=target, name="synsema-mcp", daemon=True)
        self._thread.start()
        ready.wait()

    def run(self, coro, timeout: float):
        """Run `coro` on the loop and wait at most `timeout` seconds for it.

        On timeout the coroutine is cancelled and `TimeoutError` is raised here.
        """
        future = asyncio.run_coroutine_threadsafe(coro, self.loop)
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise TimeoutError() from None

    def spawn(self, coro) -> concurrent.futures.Future:
        """Start `coro` on the loop without waiting for it."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop)
