"""Information-flow labels (`--labels`): labelled values, the pc label, and the sink rules.

A private value is a `Labeled(value, principals)`; labels may sit at any depth inside lists and
maps. Every operation's result carries the union of its operands' labels; branching on a
labelled value raises the *pc* label (the label of the control flow) for the code that branch
decides. Sinks refuse what would leak: stdout prints a redacted constant from public control
flow and refuses to print at all under a private pc; files, the network and processes refuse any
labelled value; a model may see a principal's data only where the host ceiling says so.

None of this exists in a run without `--labels`: the evaluator then compiles the plain closures
of `runtime.compiler` and never meets a `Labeled`. With `--labels` every program is compiled by
`runtime.label_compiler`, whatever its source says; `touched` (the principals of every private
value created so far) is what lets it skip work while nothing is private.
"""

from __future__ import annotations

from synsema.lang.errors import SynError

EMPTY: frozenset = frozenset()


class Labeled:
    """A value private to `labels` (a non-empty frozenset of principal names)."""

    __slots__ = ("value", "labels")
    redacted = "private()"   # set per run: `private(<the principals the program declares>)`

    def __init__(self, value, labels: frozenset):
        self.value = value
        self.labels = labels

    def display(self) -> str:
        """What any public output shows in the value's place: a constant, never the value."""
        return Labeled.redacted

    def type_name(self) -> str:
        from synsema.runtime.values import type_name
        return type_name(self.value)

    def __repr__(self) -> str:
        return f"Labeled({self.value!r}, {sorted(self.labels)})"


def wrap(value, labels: frozenset):
    """`value` additionally private to `labels` (unchanged when `labels` is empty)."""
    if not labels:
        return value
    if type(value) is Labeled:
        if labels <= value.labels:
            return value
        return Labeled(value.value, value.labels | labels)
    return Labeled(value, labels)


def unwrap(value):
    """(the value without its top-level label, that label) — nested labels stay."""
    if type(value) is Labeled:
        return value.value, value.labels
    return value, EMPTY


def strip(value, seen: dict | None = None):
    """(a copy of `value` with no labels at any depth, the union of every label removed).

    `seen` maps each container already stripped (by identity) to its answer, so a value that
    shares its lists is stripped in time linear in its distinct containers (runtime.limits),
    and a shared list stays shared in the copy."""
    t = type(value)
    if t is Labeled:
        inner, labels = strip(value.value, seen)
        return inner, labels | value.labels
    if t is list:
        found = EMPTY
        out = None
        for i, item in enumerate(value):
            if type(item) in _NESTING:
                if seen is None:
                    seen = {}
                clean, labels = _strip_known(item, seen)
                if labels:
                    found = found | labels
                    if out is None:
                        out = value[:i]
                if out is not None:
                    out.append(clean)
            elif out is not None:
                out.append(item)
        return (value if out is None else out), found
    if t is dict:
        found = EMPTY
        out = None
        for key, item in value.items():
            if type(item) in _NESTING:
                if seen is None:
                    seen = {}
                clean, labels = _strip_known(item, seen)
                if labels:
                    found = found | labels
                    if out is None:
                        out = {}
                        for k in value:
                            if k == key:
                                break
                            out[k] = value[k]
                if out is not None:
                    out[key] = clean
            elif out is not None:
                out[key] = item
        return (value if out is None else out), found
    return value, EMPTY


def _strip_known(value, seen: dict):
    answer = seen.get(id(value))
    if answer is None:
        answer = seen[id(value)] = strip(value, seen)
    return answer


_NESTING = (Labeled, list, dict)


def deep_labels(value) -> frozenset:
    return strip(value)[1]


def shown(labels) -> str:
    return "[" + ", ".join(sorted(labels)) + "]"


def violation(message: str, span=None) -> SynError:
    error = SynError(f"label_violation: {message}", span)
    error.violation = True
    return error


def make_secret(error: SynError, labels: frozenset) -> SynError:
    """Mark `error` as depending on private data: it can no longer be caught or shown."""
    if labels and error.catchable:
        error.secret = labels
        error.redacted = Labeled.redacted
    return error


class LabelState:
    """The label side of one run: the pc label, what the run touched, the host's label policy."""

    def __init__(self, ceiling=None):
        self.pc: frozenset = EMPTY
        self.give_taint: frozenset = EMPTY     # private branches that may `give`, in this task
        self.callback_labels: frozenset = EMPTY  # what callbacks of the running builtin returned
        self.touched: frozenset = EMPTY
        self.principals: frozenset = EMPTY      # declared in the source, fixed before the run
        self.ceiling = ceiling

    def declare_principals(self, principals) -> None:
        """Fix the principals (and so the redacted text) from what the program's source and its
        modules declare, before the program runs (a REPL entry may add more)."""
        self.principals = self.principals | frozenset(principals)
        Labeled.redacted = f"private({', '.join(sorted(self.principals))})"

    def sink(self, what: str, args, span=None) -> None:
        """Refuse a sink call under private control flow or with any labelled argument."""
        if self.pc:
            raise violation(f"{what} called under private control flow (pc = {shown(self.pc)}); "
                            f"it is a public sink — declassify(…) the condition first", span)
        for arg in args:
            labels = deep_labels(arg)
            if labels:
                raise violation(f"an argument of {what} is private to {', '.join(sorted(labels))}, "
                                f"the sink accepts (public); declassify(…) it first if it may leave "
                                f"the program", span)

    def stdout(self, what: str) -> None:
        if self.pc:
            raise violation(f"{what} called under private control flow (pc = {shown(self.pc)}); "
                            "stdout is public and the NUMBER of lines is not redacted — declassify(…) "
                            "the condition, or collect the output in a private value")

    def may_declassify(self, principals: frozenset) -> None:
        """Under a host ceiling, each principal published needs a `declassify=<principal>` item."""
        if self.ceiling is None:
            return
        allowed = set(self.ceiling.items_named("declassify"))
        missing = sorted(p for p in principals if p not in allowed and "*" not in allowed)
        if missing:
            raise violation(f"declassify of {', '.join(missing)} is not allowed by the host ceiling; "
                            f"the host must add declassify={missing[0]} to --cap-set")

    def llm_allows(self, labels: frozenset, hosts: tuple[str, ...]) -> bool:
        """Whether every principal may reach the configured model host (`llm=<p>@<host>`)."""
        if self.ceiling is None or not hosts:
            return False
        items = set(self.ceiling.items_named("llm"))
        return all(any(f"{principal}@{host}" in items for host in hosts) for principal in labels)
