"""When Python's cyclic garbage collector looks at what loading a program builds.

Loading a program (parse, then compile) builds hundreds of thousands of objects — nodes,
closures, their cells — and nearly all of them live exactly as long as the program. Every few
hundred allocations CPython starts a collection, and each older-generation one walks all of them
again: for a 10,000-line script collections were two thirds of the compile time and a quarter of
a second more once it had started to run. Compiling creates no garbage cycles of its own
(reference counting frees what it drops), so holding collections off while it runs loses
nothing, and in a process that runs one program the loaded objects can leave the collector's
sight for good.
"""

from __future__ import annotations

import gc

# No automatic collection inside the block; the collector's state is restored after it (a block
# nested in another paused one leaves it paused). The parser and `synsema check` use the same.
from lang.gcpause import collector_paused as paused


def settle() -> None:
    """Move every object alive now out of the collector's generations (`gc.freeze`), so later
    collections walk only what the program builds while it runs. For a process that loads one
    main program and then runs it (`synsema run`, `synsema serve`): the loaded code is never
    garbage before the process ends, and what it drops is still freed by reference counting."""
    gc.freeze()
