"""Fan-out inside a run: `parallel_map`'s items overlap their waiting, never their computing.

The evaluator is not thread-safe, and does not need to be: while any `parallel_map` runs, one
lock (`_EVAL`) admits a single thread to Synsema code at a time. A thread lets go of it only
around a blocking wait that touches no interpreter state — a model request, a fetch, an MCP or
math-worker call (`waiting()`) — so those waits overlap across items while computation runs
one item at a time, exactly as the sequential loop computes it.

What belongs to one flow of control — the call depth, the capability frames of `call_tool`, the
label pc and the `give` taint, the running builtin's call site, where output goes — is swapped
with the lock (`Runtime.flow` / `Runtime.resume`), so each item sees the state the caller had
when the map started and nothing of its siblings'. Each item's output, stdout and stderr, goes to
a buffer of its own that the caller writes out in input order, so a run prints what the
sequential `each` loop prints; audit records are kept in order the same way.

With no map running, `waiting()` costs one test of a module global.
"""

from __future__ import annotations

import contextvars
import threading

_EVAL = threading.Lock()
_active = 0          # maps running now; `waiting()` is a no-op while it is 0
_runtime = None      # the run's Runtime, while a map runs
_local = threading.local()

# A worker's stack, and the calls an item may nest: the main program's thread reserves 512 MB for
# 3,000 nested calls (runtime.cli.on_big_stack); an item's thread 128 MB, so an item may nest
# a quarter as deep before `maximum recursion depth exceeded`.
WORKER_STACK = 128 * 1024 * 1024
ITEM_DEPTH = 700
DEFAULT_LIMIT = 8
MAX_LIMIT = 64


class Cancelled(BaseException):
    """Raised in an item whose map already failed on an earlier item (never seen by a script)."""


class waiting:
    """`with waiting():` around a blocking wait that runs no Synsema code: other items may run
    meanwhile. The flow's state is saved before the lock is let go and put back once it is held
    again."""

    __slots__ = ("_saved",)

    def __init__(self):
        self._saved = None

    def __enter__(self):
        if _active and getattr(_local, "holds", False):
            self._saved = _runtime.flow()
            _local.holds = False
            _EVAL.release()
        return self

    def __exit__(self, *problem):
        saved = self._saved
        if saved is not None:
            _EVAL.acquire()
            _local.holds = True
            _runtime.resume(saved)
            if getattr(_local, "cancelled", None) is not None and _local.cancelled.is_set():
                raise Cancelled()
        return False


class _Buffer:
    """One item's output, written out by the caller in input order."""

    __slots__ = ("parts",)

    def __init__(self):
        self.parts: list[tuple[str, str]] = []

    def out(self, text: str) -> None:
        self.parts.append(("out", text))

    def err(self, text: str) -> None:
        self.parts.append(("err", text))


def parallel_map(rt, fn, items: list, limit: int) -> list:
    """Call `fn(item)` for every item, at most `limit` at a time; the results in input order.

    The first error in input order is raised, after every earlier item has finished (their
    output written, as the sequential loop would have written it); later items are cancelled at
    their next wait and their output is dropped.
    """
    global _active, _runtime
    count = len(items)
    if count == 0:
        return []
    results: list = [None] * count
    errors: dict[int, BaseException] = {}
    buffers = [_Buffer() for _ in range(count)]
    cancelled = threading.Event()
    pending = iter(range(count))
    done = threading.Condition(_EVAL)
    returned = [frozenset()]
    start = rt.flow()
    outer_holds = getattr(_local, "holds", False)

    def run_items():
        _EVAL.acquire()
        _local.holds = True
        _local.cancelled = cancelled
        try:
            for index in pending:
                if cancelled.is_set() and index > min(errors, default=count):
                    continue
                rt.resume(start.for_item(buffers[index], ITEM_DEPTH))
                try:
                    results[index] = rt.call(fn, [items[index]])
                except Cancelled:
                    pass
                except BaseException as problem:  # noqa: BLE001 (re-raised by the caller, in order)
                    errors[index] = problem
                    cancelled.set()
                labels = rt.flow().labels
                if labels is not None:   # what the item's callback returned, for the map's result
                    returned[0] = returned[0] | labels[2]
        finally:
            _local.holds = False
            done.notify_all()
            _EVAL.release()

    if not outer_holds:
        _EVAL.acquire()
        _local.holds = True
    _active += 1
    _runtime = rt
    workers = []
    try:
        workers = _start_workers(run_items, min(limit, count))
        if workers:
            # wait (the lock let go) until every worker has ended, not only every item: a caller
            # that is itself an item holds the lock again after this, and a worker still waiting
            # for the lock at its start would otherwise never get it
            while any(worker.is_alive() for worker in workers):
                done.wait(0.05)
        else:
            _run_here(run_items)
    finally:
        _active -= 1
        if not outer_holds:
            _local.holds = False
            _EVAL.release()
        for worker in workers:
            worker.join()
        rt.resume(start)
    if rt.labels is not None:
        rt.labels.callback_labels = rt.labels.callback_labels | returned[0]
    first = min(errors, default=None)
    audit = rt.caps.audit
    for index in range(count if first is None else first + 1):
        for stream, part in buffers[index].parts:
            if stream == "audit":
                audit.replay(part)
            else:
                (rt.write_out if stream == "out" else rt.write_err)(part)
    if first is not None:
        raise errors[first]
    return results


def _start_workers(run_items, wanted: int) -> list[threading.Thread]:
    """Up to `wanted` worker threads running `run_items`. A host with no room for another thread
    (its address space or thread limit reached) gets fewer: the items then overlap less, and
    none at all when not even one starts — the results and the output are the same."""
    workers = []
    stack = threading.stack_size(WORKER_STACK)
    try:
        for number in range(wanted):
            context = contextvars.copy_context()   # trace spans nest under the caller's
            worker = threading.Thread(target=context.run, args=(run_items,), daemon=True,
                                      name=f"synsema-item-{number}")
            try:
                worker.start()
            except RuntimeError:   # "can't start new thread"
                break
            workers.append(worker)
    finally:
        threading.stack_size(stack)
    return workers


def _run_here(run_items) -> None:
    """Run every item in the calling thread (no worker could start), one after another, as the
    workers would have: the lock let go for `run_items` to take, and the caller's own
    cancellation (when it is itself an item) put back after."""
    own = getattr(_local, "cancelled", None)
    _local.holds = False
    _EVAL.release()
    try:
        run_items()
    finally:
        _EVAL.acquire()
        _local.holds = True
        _local.cancelled = own
