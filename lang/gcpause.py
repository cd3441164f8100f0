"""Holding off Python's cyclic garbage collector while a large syntax tree is built or read.

Parsing a large file allocates hundreds of thousands of tokens and nodes that all stay alive,
and checking it allocates a reference, binding or finding per name. Every few hundred
allocations start a collection, and the rarer full ones look at the whole tree again: for a
large file that was a fifth to a third of the time. Neither job makes reference cycles, so
reference counting frees what they drop; the few cycles an error's traceback makes wait for
the next collection after the pause.

When the pause ends, what was made during it would all be young, and the first collection
after it would walk every one of those objects (then the next generation's would walk them
again). They are long-lived, so they are handed straight to the oldest generation instead:
`gc.freeze()` then `gc.unfreeze()` moves every tracked object there without visiting any.
That is skipped while the process holds objects frozen (`hold`: `synsema run`, `mcp serve` and
`eval` freeze what they loaded before running it), since unfreezing would release those too.
Whether it does is a flag kept here, not `gc.get_freeze_count()`, which counts the frozen
objects one by one: after a run froze its program, every pause ended with a walk of the whole
heap, which in a long-lived process holding a large heap (the test suite) made each in-process
run cost seconds. Objects some other code of the process froze are not seen; unfreezing them
moves them to the oldest generation, a matter of collection time only.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager


_held = False   # whether hold() froze objects that stay frozen


def hold() -> None:
    """Freeze every object the collector tracks now, for as long as the process lives: a loaded
    program, or what forked children should share instead of copying at their first collection."""
    global _held
    gc.freeze()
    _held = True


def release() -> None:
    """Undo `hold` (for a process that runs programs in process, one after another)."""
    global _held
    gc.unfreeze()
    _held = False


@contextmanager
def collector_paused():
    """No cyclic collection inside the block (nested uses are free; the collector comes back
    only if it was on)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        if not _held:
            gc.freeze()
            gc.unfreeze()
        gc.enable()
