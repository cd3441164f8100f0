"""List and map builtins, and the "intentional" operations that replace most loops.

Lists and maps are values, so every builtin here returns a new container and never touches
its arguments. Ordering uses the one total order of `runtime.values` (`SortKey`,
`sort_key_check`), equality its structural `equal`. The intentional operations (`apply`,
`where`, `reduce`, …) accept the list and the function in either order, because both reads
are natural (`apply(f, xs)` and `xs |> apply(f)`); callbacks go through `rt.call`, which is
permissive about arity the way host callbacks are.
"""

from __future__ import annotations

import math
from decimal import Decimal

from synsema.lang.errors import SynError
from synsema.runtime import operators
from synsema.runtime.limits import MAX_LIST_LENGTH, check_length
from synsema.runtime.values import SortKey, equal, map_key, sort_key_check, type_name
from synsema.stdlib.core import is_callable, short, wrong_type
from synsema.stdlib.registry import builtin

# A `range` list longer than this is refused; `each i in range(n)` stays lazy in the evaluator.
_MIX = "cannot mix decimal and float; convert with float(x) or decimal(...)"


# ------------------------------------------------------------------ argument helpers
def _list(fname: str, value, what: str = "a list") -> list:
    if type(value) is not list:
        raise wrong_type(fname, what, value)
    return value


def _map(fname: str, value, what: str = "a map") -> dict:
    if type(value) is not dict:
        raise wrong_type(fname, what, value)
    return value


def _integer(fname: str, value, what: str) -> int:
    """An integer argument; a whole float is accepted as it is for indexing (`xs[2.0]`)."""
    t = type(value)
    if t is int:
        return value
    if t is float and value.is_integer():
        return int(value)
    raise SynError(f"{fname}: {what} must be an integer, got {short(value)}")


def list_and_fn(fname: str, a, b) -> tuple[list, object]:
    """The list and the function of an intentional operation, given in either order."""
    if type(a) is list and is_callable(b):
        return a, b
    if is_callable(a) and type(b) is list:
        return b, a
    raise SynError(f"{fname} takes a list and a function — {fname}(list, fn) or {fname}(fn, list) — "
                   f"got {type_name(a)} and {type_name(b)}")


def _list_and_key(fname: str, a, b) -> tuple[list, object]:
    """Like list_and_fn, but the key may also be a field name (text)."""
    if type(a) is list and (is_callable(b) or type(b) is str):
        return a, b
    if (is_callable(a) or type(a) is str) and type(b) is list:
        return b, a
    raise SynError(f"{fname} takes a list and a key (a function or a field name) — "
                   f"{fname}(list, key) or {fname}(key, list) — got {type_name(a)} and {type_name(b)}")


def _keys_of(rt, fname: str, items: list, key) -> list:
    """The key of every item: a callback's result, or the named field of each map."""
    if type(key) is str:
        keys = []
        for i, item in enumerate(items):
            if type(item) is not dict or key not in item:
                raise SynError(f"{fname}: item {i} has no key '{key}'" if type(item) is dict else
                               f"{fname}: item {i} is {type_name(item)}, not a map with key '{key}'")
            keys.append(item[key])
        return keys
    call = rt.callback(key, 1)
    return [call(item) for item in items]


class ValueIndex:
    """Finds a value equal (by Synsema's `==`) to one seen before.

    Scalars are looked up by hash: Python's numeric equality and hashing are exact across int,
    float and Decimal, and `true` hashes like `1`, which is exactly Synsema's `==` — except
    that decimals and floats must never meet, which is checked here. Containers and other
    values fall back to a linear scan with `equal`.
    """

    __slots__ = ("_hashed", "_scanned", "_floats", "_decimals")

    def __init__(self):
        self._hashed: dict = {}
        self._scanned: list = []
        self._floats = False
        self._decimals = False

    def _key(self, value):
        t = type(value)
        if t is str:
            return ("t", value)
        if t is int or t is bool:
            return ("n", value)
        if value is None:
            return ("z", None)
        if t is float:
            self._floats = True
        elif t is Decimal:
            self._decimals = True
        else:
            return None
        if self._floats and self._decimals:
            raise SynError(_MIX)
        if value != value:
            return None  # NaN equals nothing, itself included: leave it to `equal`
        return ("n", value)

    def find(self, value):
        """The slot stored for an equal value, or None."""
        key = self._key(value)
        if key is not None:
            return self._hashed.get(key)
        for seen, slot in self._scanned:
            if equal(seen, value):
                return slot
        return None

    def add(self, value, slot) -> None:
        key = self._key(value)
        if key is not None:
            self._hashed[key] = slot
        else:
            self._scanned.append((value, slot))


# ------------------------------------------------------------------ building lists
@builtin("append", 2)
def append(rt, xs, item):
    """A new list: `xs` with `item` added at the end (`set xs to append(xs, item)` to keep it).

    Example: append([1, 2], 3) => [1, 2, 3]
    """
    return _list("append", xs, "a list as its first argument") + [item]


@builtin("insert", 3)
def insert(rt, xs, index, item):
    """A new list with `item` inserted before position `index` (negative counts from the end).

    Insert before position `index` (−len..len, negative counts from the end, as in Python).

    Example: insert([1, 3], 1, 2) => [1, 2, 3]
    """
    xs = _list("insert", xs, "a list as its first argument")
    i = _integer("insert", index, "the position")
    if not -len(xs) <= i <= len(xs):
        raise SynError(f"insert: position {i} is out of range for a list of length {len(xs)} "
                       f"(use {-len(xs)} to {len(xs)})")
    result = list(xs)
    result.insert(i, item)
    return result


def _range_bound(value) -> int:
    """A bound of range: an integer, or a float with an integral value (`range(2.0, 4)`)."""
    if type(value) is int:
        return value
    if type(value) is float and value.is_integer():
        return int(value)
    if type(value) is float:
        raise SynError(f"range: {short(value)} must be an integer — round it first with "
                       f"round(x), floor(x) or ceil(x)")
    raise SynError(f"range expects integers, got {type_name(value)} {short(value)} — "
                   f"convert with int(x)")


def range_numbers(*bounds) -> range:
    """The checked integers of range(end), range(start, end) or range(start, end, step), lazily:
    `each i in range(…)` walks this without building a list."""
    if not all(type(value) is int for value in bounds):
        bounds = tuple(_range_bound(value) for value in bounds)
    if len(bounds) == 3 and bounds[2] == 0:
        raise SynError("range: step cannot be 0")
    return range(*bounds)


@builtin("range", 1, 3)
def range_(rt, *bounds):
    """range(end), range(start, end) or range(start, end, step) as a list of integers (end excluded).

    Example: range(3) => [0, 1, 2]
    Example: range(1, 10, 4) => [1, 5, 9]
    """
    numbers = range_numbers(*bounds)
    if numbers[MAX_LIST_LENGTH:]:  # slicing a range is O(1) and, unlike len(), never overflows
        raise SynError(f"value too large: range would make a list of more than {MAX_LIST_LENGTH:,} "
                       "items (the limit is 10,000,000 items; see README, Limits) — loop over it with "
                       "each, which does not build the list")
    return list(numbers)


@builtin("enumerate", 1)
def enumerate_(rt, xs):
    """`[{index, item}, …]` for every item, the index starting at 0.

    Example: enumerate(["a", "b"]) => [{index: 0, item: "a"}, {index: 1, item: "b"}]
    """
    return [{"index": i, "item": x} for i, x in enumerate(_list("enumerate", xs))]


@builtin("flatten", 1)
def flatten(rt, xs):
    """One level of nesting removed: list items are spliced in, other items kept.

    Example: flatten([[1, 2], 3, [4]]) => [1, 2, 3, 4]
    """
    items = _list("flatten", xs)
    check_length("flatten", "list", sum(len(x) if type(x) is list else 1 for x in items))
    result = []
    for x in items:
        if type(x) is list:
            result.extend(x)
        else:
            result.append(x)
    return result


@builtin("reverse", 1)
def reverse(rt, value):
    """A list or text in reverse order.

    Example: reverse([1, 2, 3]) => [3, 2, 1]
    Example: reverse("abc") => "cba"
    """
    if type(value) is list or type(value) is str:
        return value[::-1]
    raise wrong_type("reverse", "a list or text", value)


@builtin("slice", 2, 3)
def slice_(rt, coll, start, end=None):
    """Python-style slice of a list, text or bytes: negatives count from the end, bounds clamp,
    and an `end` of `nothing` means "to the end".

    Example: slice([1, 2, 3, 4], 1, 3) => [2, 3]
    Example: slice("hello", -3) => "llo"
    """
    if type(coll) not in (list, str, bytes):
        raise wrong_type("slice", "a list, text or bytes", coll)
    i = start if start.__class__ is int else _integer("slice", start, "start")
    j = end if end is None or end.__class__ is int else _integer("slice", end, "end")
    return coll[i:j]


@builtin("unique", 1)
def unique(rt, xs):
    """First appearance of each value, by `==` (so 1, 1.0 and true are one value).

    Example: unique([1, 2, 1, 3]) => [1, 2, 3]
    """
    seen = ValueIndex()
    result = []
    for x in _list("unique", xs):
        if seen.find(x) is None:
            seen.add(x, True)
            result.append(x)
    return result


# ------------------------------------------------------------------ maps
@builtin("keys", 1)
def keys(rt, m):
    """A map's keys, in insertion order.

    Example: keys({b: 1, a: 2}) => ["b", "a"]
    """
    return list(_map("keys", m))


@builtin("values", 1)
def values(rt, m):
    """A map's values, in insertion order.

    Example: values({a: 1, b: 2}) => [1, 2]
    """
    return list(_map("values", m).values())


@builtin("items", 1)
def items(rt, m):
    """`[{key, value}, …]` for every entry of a map, in insertion order.

    Example: items({a: 1, b: 2}) => [{key: "a", value: 1}, {key: "b", value: 2}]
    """
    return [{"key": k, "value": v} for k, v in _map("items", m).items()]


@builtin("get", 2, 3)
def get(rt, coll, key, default=None):
    """`m[key]` or `xs[i]` without the error: `default` when the key is missing or the index out of range.

    m[k] or xs[i] without the error: a missing key or an index out of range gives the
    default (`nothing` when none is given).

    Example: get({a: 1}, "b", 0) => 0
    Example: get([1, 2], 5) => nothing
    """
    t = type(coll)
    if t is dict:
        return coll.get(key if type(key) is str else map_key(key), default)
    if t is list:
        i = _integer("get", key, "a list index")
        return coll[i] if -len(coll) <= i < len(coll) else default
    raise wrong_type("get", "a map or a list", coll)


@builtin("remove", 2)
def remove(rt, m, key):
    """The map without `key` (unchanged when the key is absent).

    Example: remove({a: 1, b: 2}, "a") => {b: 2}
    """
    _map("remove", m, "a map as its first argument")
    drop = key if type(key) is str else map_key(key)
    return {k: v for k, v in m.items() if k != drop}


@builtin("merge", 1, None)
def merge(rt, *maps):
    """All keys of all maps; for a key in several, the rightmost map wins.

    Example: merge({a: 1, b: 2}, {b: 3}) => {a: 1, b: 3}
    """
    result = {}
    for i, m in enumerate(maps):
        if type(m) is not dict:
            raise SynError(f"merge expects maps, but argument {i + 1} is {type_name(m)}")
        result.update(m)
    return result


@builtin("contains", 2)
def contains(rt, coll, item):
    """Whether a list holds an item (by `==`), a map has a key, or a text holds a piece: the function form of `in`.

    List element (by `==`), map key, substring, or byte(s): the function form of `in`.

    Example: contains([1, 2], 2) => true
    Example: contains("hello", "ell") => true
    Example: contains({a: 1}, "b") => false
    """
    t = type(coll)
    if t not in (list, dict, str, bytes):
        raise wrong_type("contains", "a list, a map or text", coll)
    if t is str and type(item) is not str:
        raise SynError(f"contains: text can only contain text, got {type_name(item)} — "
                       f"convert it with text(x)")
    if t is dict and type(item) is not str:
        item = map_key(item)
    if t is bytes and type(item) is int and not 0 <= item <= 255:
        return False  # no byte has that value
    return operators.contains(coll, item)


# ------------------------------------------------------------------ searching
@builtin("index_of", 2)
def index_of(rt, coll, target):
    """Position of an item (by `==`), of the first item a predicate accepts, or of a piece of text; `nothing` when absent.

    Never −1, which would index from the end.

    Example: index_of(["a", "b"], "b") => 1
    Example: index_of("hello", "z") => nothing
    """
    if type(coll) is str:
        found = coll.find(_text_piece(target))
        return None if found < 0 else found
    if is_callable(coll) and type(target) is list:
        coll, target = target, coll
    items = _list("index_of", coll, "a list or text")
    if is_callable(target):
        for i, x in enumerate(items):
            if rt.call(target, [x]):
                return i
        return None
    for i, x in enumerate(items):
        if equal(x, target):
            return i
    return None


def _text_piece(value) -> str:
    if type(value) is not str:
        raise SynError(f"index_of: text can only contain text, got {type_name(value)}")
    return value


@builtin("find_first", 2)
def find_first(rt, xs, fn):
    """The first item `fn` accepts, or `nothing`.

    Example: find_first([1, 5, 8], (x) => x > 3) => 5
    """
    xs, pred = list_and_fn("find_first", xs, fn)
    call = rt.callback(pred, 1)
    for x in xs:
        if call(x):
            return x
    return None


@builtin("every", 2)
def every(rt, xs, fn):
    """Whether `fn` accepts every item (true for an empty list).

    Example: every([2, 4], (x) => x % 2 == 0) => true
    """
    xs, pred = list_and_fn("every", xs, fn)
    call = rt.callback(pred, 1)
    return all(call(x) for x in xs)


@builtin("some", 2)
def some(rt, xs, fn):
    """Whether `fn` accepts at least one item.

    Example: some([1, 2], (x) => x > 1) => true
    """
    xs, pred = list_and_fn("some", xs, fn)
    call = rt.callback(pred, 1)
    return any(call(x) for x in xs)


@builtin("count_where", 2)
def count_where(rt, xs, fn):
    """How many items `fn` accepts.

    Example: count_where([1, 5, 8], (x) => x > 3) => 2
    """
    xs, pred = list_and_fn("count_where", xs, fn)
    call = rt.callback(pred, 1)
    return sum(1 for x in xs if call(x))


# ------------------------------------------------------------------ transforming
@builtin("apply", 2)
def apply(rt, xs, fn):
    """A new list of `fn(item)` for every item (map in other languages).

    Example: apply([1, 2, 3], (x) => x * 10) => [10, 20, 30]
    """
    xs, fn = list_and_fn("apply", xs, fn)
    call = rt.callback(fn, 1)
    return [call(x) for x in xs]


@builtin("where", 2)
def where(rt, xs, fn):
    """The items `fn` accepts, in order (filter in other languages).

    Example: where([1, 2, 3, 4], (x) => x % 2 == 0) => [2, 4]
    """
    xs, pred = list_and_fn("where", xs, fn)
    call = rt.callback(pred, 1)
    return [x for x in xs if call(x)]


@builtin("transform", 2, 3)
def transform(rt, xs, fn, pred=None):
    """Apply `fn` to the items `pred` accepts (every item without a predicate); the others stay as they are.

    Each item keeps its place in the list.

    Example: transform([1, 2, 3], (x) => x * 10, (x) => x > 1) => [1, 20, 30]
    """
    xs, fn = list_and_fn("transform", xs, fn)
    if pred is not None and not is_callable(pred):
        raise wrong_type("transform", "a predicate function as its third argument", pred)
    return [rt.call(fn, [x]) if pred is None or rt.call(pred, [x]) else x for x in xs]


@builtin("collect", 2)
def collect(rt, xs, field):
    """The named field of every map in the list.

    Example: collect([{name: "a"}, {name: "b"}], "name") => ["a", "b"]
    """
    _list("collect", xs, "a list as its first argument")
    if type(field) is not str:
        raise wrong_type("collect", "a field name (text) as its second argument", field)
    return _keys_of(rt, "collect", xs, field)


@builtin("reduce", 2, 3)
def reduce(rt, xs, fn, *init):
    """Fold the list with `fn(acc, item)`, starting from `init` (or the first item).

    Fold with `fn(acc, item)`; without an initial value the first item starts the fold.

    Example: reduce([1, 2, 3], (acc, x) => acc + x, 10) => 16
    """
    xs, fn = list_and_fn("reduce", xs, fn)
    if init:
        acc, rest = init[0], xs
    elif xs:
        acc, rest = xs[0], xs[1:]
    else:
        raise SynError("reduce of an empty list needs an initial value: reduce(list, fn, init)")
    call = rt.callback(fn, 2)
    for x in rest:
        acc = call(acc, x)
    return acc


@builtin("zip_with", 3)
def zip_with(rt, a, b, c):
    """Combine two lists pairwise with `fn(x, y)`, stopping at the end of the shorter one.

    The function may come first or last.

    Example: zip_with([1, 2], [10, 20], (x, y) => x + y) => [11, 22]
    """
    if type(a) is list and type(b) is list and is_callable(c):
        xs, ys, fn = a, b, c
    elif is_callable(a) and type(b) is list and type(c) is list:
        fn, xs, ys = a, b, c
    else:
        raise SynError(f"zip_with takes two lists and a function — zip_with(a, b, fn) or "
                       f"zip_with(fn, a, b) — got {type_name(a)}, {type_name(b)} and {type_name(c)}")
    call = rt.callback(fn, 2)
    return [call(x, y) for x, y in zip(xs, ys)]


@builtin("group_by", 2)
def group_by(rt, xs, key):
    """`[{key, items}, …]` in order of each key's first appearance; the key is a function or a
    field name. Keys compare with `==` (1, 1.0 and true are one group).

    Example: group_by([1, 2, 3], (x) => x % 2) => [{key: 1, items: [1, 3]}, {key: 0, items: [2]}]
    """
    xs, key = _list_and_key("group_by", xs, key)
    index = ValueIndex()
    groups: list[dict] = []
    for item, k in zip(xs, _keys_of(rt, "group_by", xs, key)):
        slot = index.find(k)
        if slot is None:
            index.add(k, len(groups))
            groups.append({"key": k, "items": [item]})
        else:
            groups[slot]["items"].append(item)
    return groups


# ------------------------------------------------------------------ ordering
def _desc(fname: str, desc) -> bool:
    if type(desc) is not bool:
        raise SynError(f"{fname}: desc must be true or false, got {short(desc)}")
    return desc


def _sorted_positions(keys: list, desc: bool) -> list[int]:
    """Positions of `keys` in stable sorted order; NaN then `nothing` go last either way."""
    native = _native_keys(keys)
    if native is not None:   # Python compares these exactly as the language orders them
        return sorted(range(len(keys)), key=native.__getitem__, reverse=desc)
    return _ordered_positions(keys, desc)


def _ordered_positions(keys: list, desc: bool) -> list[int]:
    """_sorted_positions for any keys: each comparison by the language's order (SortKey)."""
    sort_key_check(keys)
    last = ([i for i, k in enumerate(keys) if type(k) is float and math.isnan(k)]
            + [i for i, k in enumerate(keys) if k is None])
    ordered = [i for i, k in enumerate(keys) if not (k is None or (type(k) is float and math.isnan(k)))]
    ordered.sort(key=lambda i: SortKey(keys[i]), reverse=desc)
    return ordered + last


def _native_keys(keys: list) -> list | None:
    """`keys` as values Python's `<` orders exactly as values._order does, or None: all ints
    (no bools) or all texts as they are; lists whose items at each position are all ints or all
    texts as tuples (compared item by item, a shorter prefix first, as _order compares lists).
    With one kind per position no comparison can meet two kinds, so none could have failed."""
    if not keys:
        return None
    kind = type(keys[0])
    if kind is int or kind is str:
        return keys if all(type(k) is kind for k in keys) else None
    if kind is not list:
        return None
    kinds: list = []
    for key in keys:
        if type(key) is not list:
            return None
        for i, item in enumerate(key):
            t = type(item)
            if i == len(kinds):
                if t is not int and t is not str:
                    return None
                kinds.append(t)
            elif t is not kinds[i]:
                return None
    return [tuple(key) for key in keys]


@builtin("sort", 1, named=("desc",))
def sort(rt, xs, desc=False):
    """A sorted copy of the list (stable); `desc = true` for largest first.

    Stable sort in the total order: numbers, text by code point, false < true, lists
    lexicographically; mixing kinds is an error rather than an arbitrary order.

    Example: sort([3, 1, 2]) => [1, 2, 3]
    Example: sort(["b", "a"], desc = true) => ["b", "a"]
    """
    xs = _list("sort", xs)
    desc = _desc("sort", desc)
    if all(x.__class__ is int or (x.__class__ is float and x == x) for x in xs):
        return sorted(xs, reverse=desc)  # plain numbers: Python's stable sort is the same order
    return [xs[i] for i in _sorted_positions(xs, desc)]


@builtin("sort_by", 2, named=("desc",))
def sort_by(rt, xs, key, desc=False):
    """A copy sorted by a key function (called once per item) or a field name.

    The sort is stable: items with equal keys keep their order.

    Example: sort_by([{n: 2}, {n: 1}], "n") => [{n: 1}, {n: 2}]
    Example: sort_by(["bb", "a"], length) => ["a", "bb"]
    """
    xs, key = _list_and_key("sort_by", xs, key)
    desc = _desc("sort_by", desc)
    return [xs[i] for i in _sorted_positions(_keys_of(rt, "sort_by", xs, key), desc)]


def _extreme(fname: str, args: tuple, want_max: bool):
    """min/max of a list or of the arguments: `nothing` skipped, NaN wins, kinds not mixed."""
    candidates = args[0] if len(args) == 1 and type(args[0]) is list else list(args)
    present = [v for v in candidates if v is not None]
    if not present:
        raise SynError(f"{fname} of an empty list" if not candidates else
                       f"{fname}: every value is nothing")
    sort_key_check(present)
    for v in present:
        if type(v) is float and math.isnan(v):
            return v
    best = present[0]
    for v in present[1:]:
        if (SortKey(best) < SortKey(v)) if want_max else (SortKey(v) < SortKey(best)):
            best = v
    return best


@builtin("min", 1, None)
def min_(rt, *values):
    """The smallest of a list or of the arguments (`nothing` skipped; kinds are not mixed).

    Example: min([3, 9, 2]) => 2
    """
    return _extreme("min", values, want_max=False)


@builtin("max", 1, None)
def max_(rt, *values):
    """The largest of a list or of the arguments (`nothing` skipped; kinds are not mixed).

    Example: max([3, 9, 2]) => 9
    Example: max(3, 9, 2) => 9
    """
    return _extreme("max", values, want_max=True)

