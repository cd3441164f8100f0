"""Fan-out: `parallel_map` (upstream's name and order, `parallel_map(task, list, limit)`) and
`chunk`. The scheduling — which waits overlap, what each item sees, the order output comes out
in — is runtime.concurrency's; this module only checks the arguments."""

from __future__ import annotations

from synsema.lang.errors import SynError
from synsema.runtime.limits import MAX_LIST_LENGTH
from synsema.runtime.values import type_name
from synsema.stdlib.collections import list_and_fn
from synsema.stdlib.registry import builtin


@builtin("parallel_map", 2, 3)
def parallel_map(rt, fn, xs, limit=None):
    """`fn(item)` for every item, up to `limit` at a time (default 8), the results in input order.

    The same results, output, capability checks, audit records and labels as
    `apply(xs, fn)`: items overlap only while they wait (a model call, a fetch, an MCP or math
    call), computing one at a time, and each item's printing comes out in input order when the
    map ends. The first failing item (in input order) raises its error once every earlier item
    has finished; later items stop at their next wait, and their output is dropped. An item may
    nest 700 calls deep. Either order of the list and the task is accepted, as for `apply`.

    Example: parallel_map((x) => x * 10, [1, 2, 3], 2) => [10, 20, 30]
    """
    from synsema.runtime import concurrency
    xs, fn = list_and_fn("parallel_map", fn, xs)
    if limit is None:
        limit = concurrency.DEFAULT_LIMIT
    if type(limit) is not int or not 1 <= limit <= concurrency.MAX_LIMIT:
        raise SynError(f"parallel_map: limit must be a whole number from 1 to {concurrency.MAX_LIMIT}, "
                       f"got {limit if type(limit) is int else type_name(limit)}")
    return concurrency.parallel_map(rt, fn, xs, limit)


@builtin("chunk", 2)
def chunk(rt, xs, size):
    """The list cut into lists of `size` items (the last may be shorter).

    Example: chunk([1, 2, 3, 4, 5], 2) => [[1, 2], [3, 4], [5]]
    """
    if type(xs) is not list:
        raise SynError(f"chunk expects a list first, got {type_name(xs)}")
    if type(size) is not int or size < 1:
        raise SynError(f"chunk: size must be a whole number of at least 1, got "
                       f"{size if type(size) is int else type_name(size)}")
    if len(xs) > MAX_LIST_LENGTH:
        raise SynError("chunk: the list is too long")
    return [xs[i:i + size] for i in range(0, len(xs), size)]
