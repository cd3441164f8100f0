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


def described(labels) -> str:
    """How a diagnostic names a value's label: `public`, or `private to a, b`."""
    return f"private to {', '.join(sorted(labels))}" if labels else "public"


def assignment_refusal(name: str, held: frozenset, pc: frozenset, declassified: bool) -> str:
    """Why `name`, labelled `held`, may not be assigned under the private `pc`, and the one fix
    that works from where the program stands: what it holds is described as it is, and a step
    the program already took (declaring it private, declassifying the value) is not suggested
    again. Declassifying the assigned value never helps: the decision to assign is the leak."""
    missing = sorted(pc - held)
    wrapped = "<its initial value>"
    for principal in missing:
        wrapped = f'private({wrapped}, "{principal}")'
    if held:
        fix = (f"it must be private to {', '.join(missing)} as well — where it is declared, wrap "
               f"its initial value (already private to {', '.join(sorted(held))}): let {name} be {wrapped}")
    else:
        fix = f"declare it private first (let {name} be {wrapped})"
    if declassified:
        fix += ("; declassify(…) of the assigned value publishes the value, not the branch that "
                "chose to assign it")
    return (f"cannot assign to '{name}' ({described(held)}) under private control flow "
            f"(pc = {shown(pc)}); {fix}")


def violation(message: str, span=None) -> SynError:
    """A refused flow. Under a private pc the message also says where control flow became private,
    since that condition — not the line refused — is usually what a newcomer must declassify."""
    st = LabelState.running
    if st is not None and st.pc and st.public_at is not None:
        at = st.public_at
        message += (f" (control flow became private at {at.file}:{at.line}; if what decided it may be known, "
                    f"publish it there: declassify(condition, \"why it may be public\"))")
    error = SynError(f"label_violation: {message}", span, code="label-violation")
    error.violation = True
    return error


def make_secret(error: SynError, labels: frozenset) -> SynError:
    """Mark `error` as depending on private data: it can no longer be caught, and its message is
    withheld. What it keeps is public: its kind (`code`), and where public control flow last was
    (`public_at`): its own position when it arose under a public pc, else the statement where the
    pc last went from public to private — the last statement that ran at a public pc."""
    if labels and error.catchable:
        if error.secret is None:
            st = LabelState.running
            error.public_at = st.public_at if st is not None and st.pc else PUBLIC_HERE
        error.secret = labels
        error.redacted = Labeled.redacted
    return error


def private_text(error: SynError, prefix: str, text: str, labels: frozenset) -> SynError:
    """`error` with `text` (words from outside the program, an MCP server's) private to
    `labels`: still catchable, `recover` binds its message as a private value, and uncaught it
    shows `prefix` and the redacted text."""
    error.message = prefix + Labeled.redacted
    error.private_message = Labeled(prefix + text, labels)
    return error


# `error.public_at` for an error that arose under a public pc: its own span, once it has one.
PUBLIC_HERE = "here"


class LabelState:
    """The label side of one run: the pc label, what the run touched, the host's label policy.

    `public_at` is the span of the last place the pc went from public to private, recorded by
    the label compiler at each such place; `running` is the state of the run in progress (one
    labelled run at a time per process, as the redacted text already assumes)."""

    running: "LabelState | None" = None

    def __init__(self, ceiling=None):
        LabelState.running = self
        self.public_at = None
        self.pc: frozenset = EMPTY
        self.give_taint: frozenset = EMPTY     # private branches that may `give`, in this task
        self.callback_labels: frozenset = EMPTY  # what callbacks of the running builtin returned
        self.data: frozenset = EMPTY            # the running builtin's argument labels: its
        #                                         callbacks run under them (a raised pc)
        self.touched: frozenset = EMPTY
        self.principals: frozenset = EMPTY      # declared in the source, fixed before the run
        self.ceiling = ceiling
        self.tainted: dict = {}                 # state name → principals of the private changes

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
                                f"the program (with no list of principals: a list only narrows)", span)

    def effect(self, what: str, changes: tuple, reads: tuple, labels: frozenset) -> frozenset:
        """The one gate of effects that outlive a branch (runtime.effects): `what` changes the
        states `changes` with data private to `labels` under the current pc, and reads `reads`.
        Refuses any private change of a "refuse" state, and any change of a "store" state under
        a private pc (its private data is the builtin's to keep with the value). A "taint" state
        changed from public control flow with private data keeps those principals; under a
        private pc it may only change if it is already that private (no-sensitive-upgrade, as
        for `set`: tainting it only in the branch that ran would itself tell the branch).
        Answers the principals that what it reads carries."""
        from synsema.runtime.effects import EFFECTS
        pc = self.pc
        private = pc | labels
        if private:
            for name in changes:
                effect = EFFECTS[name]
                if effect.rule == "store" and not pc:
                    continue   # the builtin stores the principals with the value
                held = self.tainted.get(name, EMPTY)
                if effect.rule != "taint" or not pc <= held:
                    how = (f"under private control flow (pc = {shown(pc)})" if pc
                           else f"from data private to {shown(labels)}")
                    raise violation(f"{what} would change {effect.state} {how}; a later public "
                                    "call would see the difference — make the call from public "
                                    "control flow" + (" with public arguments" if labels - pc else ""))
                self.tainted[name] = held | private
        found = EMPTY
        if self.tainted:
            for name in reads:
                found = found | self.tainted.get(name, EMPTY)
        return found

    def capability_check(self, name: str, span=None) -> None:
        """A capability check is recorded in the audit log, a public sink: refused under a
        private pc (audited or not, so a program behaves the same either way)."""
        if self.pc:
            raise violation(f"the {name} capability checked under private control flow (pc = "
                            f"{shown(self.pc)}); every check is an audit record, a public sink — "
                            "make the call from public control flow (declassify(…) the condition)",
                            span)

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

    def llm_allows(self, labels: frozenset, hosts: tuple[str, ...] | None) -> bool:
        """Whether every principal may reach the model's host: an item `llm=<p>@<host>` for each.

        `hosts` names the host a request goes to (replaying: the host the cassette was recorded
        against); None means nothing leaves the process (offline, a cassette naming no host),
        where any `llm=<p>@…` item of the principal allows it — so one command line runs live,
        records, replays and runs offline alike."""
        if self.ceiling is None or hosts == ():
            return False
        items = set(self.ceiling.items_named("llm"))
        if hosts is None:
            named = {item.partition("@")[0] for item in items if item and "@" in item}
            return labels <= named
        return all(any(f"{principal}@{host}" in items for host in hosts) for principal in labels)

    def llm_refusal(self, what: str, labels: frozenset, hosts: tuple[str, ...] | None, why: str, span=None):
        """The violation for sending data private to `labels` (`why` says which value carries
        them) to a model `llm_allows` refused, naming the ceiling items still missing — never one
        the host already gave."""
        items = set(self.ceiling.items_named("llm")) if self.ceiling is not None else set()
        if hosts:
            host = hosts[-1]
            missing = [p for p in sorted(labels) if not any(f"{p}@{h}" in items for h in hosts)]
            where, needed = f"the model at {host}", [f"llm={p}@{host}" for p in missing]
        else:
            named = {item.partition("@")[0] for item in items if "@" in item}
            missing = [p for p in sorted(labels) if p not in named]
            where, needed = "a model", [f"llm={p}@HOST" for p in missing]
            needed[-1:] = [f"{needed[-1]} (HOST: the model's host, e.g. api.anthropic.com; replaying, "
                           "the one the cassette was recorded against)"] if needed else []
        return violation(
            f"{what} would send data private to {', '.join(sorted(labels))} ({why}) to {where}, which "
            f"the host ceiling does not allow for it; the host must add {' and '.join(needed)} to "
            f"--cap-set, or the program must declassify(…) what it sends", span)


class WatchedLabelState(LabelState):
    """A LabelState that also remembers every principal its pc was raised by (`raised`), so
    `mcp serve --labels` can tell a call whose control flow a private value decided, even where
    the branch closed again before the answer (see runtime.mcp.serve)."""

    @property
    def pc(self) -> frozenset:
        return self.__dict__["pc"]

    @pc.setter
    def pc(self, value: frozenset) -> None:
        self.__dict__["pc"] = value
        if value:
            self.__dict__["raised"] = self.__dict__.get("raised", EMPTY) | value


def watch_branches(st: LabelState) -> None:
    """Turn `st` (already in use by compiled code) into a WatchedLabelState, `raised` empty."""
    st.__class__ = WatchedLabelState
    st.raised = EMPTY
