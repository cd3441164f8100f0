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
That is skipped while something else holds objects frozen (`synsema run` and `mcp serve`
freeze the loaded program before running it), since unfreezing would release those too.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager


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
        if gc.get_freeze_count() == 0:
            gc.freeze()
            gc.unfreeze()
        gc.enable()
