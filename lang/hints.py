"""The hints that name a fix, written once for every front end.

`synsema run` (the evaluator), `synsema check` (`lang.lint`) and the language server build
their messages for the same mistake here, so a user sees the same words, and the same fix,
wherever the mistake is found: the name Synsema uses for a Python or JavaScript habit, the
nearest defined name (never a tier-C builtin, which would fail too), the way to call a task or
builtin with the wrong arguments, and the Synsema form of a method call or property.

A `Fix` is the mechanical rewrite of a mistake, when there is one: the language server offers
it as a quick fix and `check --format json` lists it. Its edits use the positions of spans:
1-based lines, 1-based code-point columns, the end column exclusive.
"""

from __future__ import annotations

from collections.abc import Container, Iterable

from synsema.lang.suggest import did_you_mean, nearest


class Edit:
    """Replace the text from (line, col) up to (end_line, end_col) with `text`.

    A tree keeps where a node starts, not where it ends, so an edit built from one (`xs.length`
    at 2:7) says what it `expects` to replace; `applies` checks that against the source, and a
    fix whose edits do not all apply is not offered."""

    __slots__ = ("line", "col", "end_line", "end_col", "text", "expects")

    def __init__(self, line: int, col: int, end_line: int, end_col: int, text: str, expects: str | None = None):
        self.line, self.col, self.end_line, self.end_col, self.text = line, col, end_line, end_col, text
        self.expects = expects

    def applies(self, lines: list[str]) -> bool:
        """Whether the edit's range exists in `lines` (and holds what it expects)."""
        whole_last_line = self.end_line == len(lines) + 1 and self.end_col == 1  # up to the end of the text
        if not (0 < self.line <= self.end_line and (self.end_line <= len(lines) or whole_last_line)):
            return False
        if self.expects is None:
            return True
        if self.line != self.end_line:
            return False
        return lines[self.line - 1][self.col - 1:self.end_col - 1] == self.expects

    def as_dict(self) -> dict:
        return {"line": self.line, "col": self.col, "end_line": self.end_line, "end_col": self.end_col,
                "text": self.text}

    def __repr__(self) -> str:
        return f"Edit({self.line}:{self.col}-{self.end_line}:{self.end_col} -> {self.text!r})"


class Fix:
    """A named rewrite: `title` is what an editor shows ("Replace 'null' with 'nothing'")."""

    __slots__ = ("title", "edits")

    def __init__(self, title: str, edits: Iterable[Edit]):
        self.title = title
        self.edits = tuple(edits)

    def applies(self, lines: list[str]) -> bool:
        return all(edit.applies(lines) for edit in self.edits)

    def as_dict(self) -> dict:
        return {"title": self.title, "edits": [e.as_dict() for e in self.edits]}

    def __repr__(self) -> str:
        return f"Fix({self.title!r}, {list(self.edits)!r})"


def replace(span, old: str, text: str, title: str | None = None) -> Fix:
    """The fix that writes `text` over `old`, which starts at `span` (on one line)."""
    return Fix(title or f"Replace '{old}' with '{text}'",
               [Edit(span.line, span.col, span.line, span.col + len(old), text, old)])


# Names Python and JavaScript programmers reach for: (what Synsema calls it, the name that
# replaces it when the rewrite is the name alone, else None).
FOREIGN_NAMES: dict[str, tuple[str, str | None]] = {
    "True": ("true", "true"), "False": ("false", "false"),
    "None": ("nothing", "nothing"), "null": ("nothing", "nothing"), "nil": ("nothing", "nothing"),
    "undefined": ("nothing", "nothing"),
    "len": ("length(x)", "length"), "str": ("text(x)", "text"), "float": ("number(x)", "number"),
    "input": ("read_line()", "read_line"), "filter": ("where(xs, predicate)", "where"),
    "map": ("apply(fn, xs)", "apply"),
    "self": ("a parameter (Synsema has no methods)", None),
    "this": ("a parameter (Synsema has no methods)", None),
    "dict": ("a map literal {…}", None),
    "help": ("`synsema doc NAME` in a shell, or `:doc NAME` in the REPL", None),
    "return": ("give", None),
}


def undefined_name(name: str, span, candidates: Iterable[str],
                   unsupported: Container[str] = ()) -> tuple[str, str | None, list[Fix]]:
    """(suffix of the message, hint, fixes) for a read of the undefined `name`.

    A foreign name gets ` — in Synsema: …` in the message (so the one-line report says it even
    where hints are not shown); otherwise a near name in `candidates` that is not in
    `unsupported` (tier-C builtins exist only to explain themselves) is the hint."""
    foreign = FOREIGN_NAMES.get(name)
    if foreign is not None:
        meaning, replacement = foreign
        fixes = [replace(span, name, replacement)] if replacement and span is not None else []
        return f" — in Synsema: {meaning}", None, fixes
    guess = did_you_mean(name, (c for c in candidates if c not in unsupported))
    if guess is None:
        return "", None, []
    fixes = [replace(span, name, guess, f"Change '{name}' to '{guess}'")] if span is not None else []
    return "", f"did you mean '{guess}'?", fixes


# Methods Python and JavaScript programmers call on lists and texts, and Synsema's function.
METHODS = {
    "append": "append", "push": "append", "split": "split", "join": "join",
    "upper": "upper", "lower": "lower", "strip": "trim", "trim": "trim", "replace": "replace",
    "startswith": "starts_with", "startsWith": "starts_with", "endswith": "ends_with",
    "endsWith": "ends_with", "keys": "keys", "values": "values",
    "sort": "sort", "reverse": "reverse", "find": "index_of", "index": "index_of",
    "indexOf": "index_of", "includes": "contains", "map": "apply", "filter": "where",
    "reduce": "reduce", "slice": "slice", "length": "length", "size": "length",
}


def no_methods(name: str, target: str | None) -> tuple[str, str | None]:
    """(message, the Synsema form or None) for calling `target.name(…)` on a value that has no
    methods; `target` is the receiver's source text when it is a plain name."""
    receiver = target or "xs"
    function = METHODS.get(name)
    if function == "append":
        form = f"set {receiver} to append({receiver}, item)"
    elif function is not None:
        form = f"{function}({receiver}, …)"
    else:
        return f"Synsema has no methods: call {name}({receiver}, …) with the value as the first argument", None
    return f"Synsema has no methods: {form}", form


def no_property(name: str, kind: str, target: str | None) -> str | None:
    """The Synsema form of `xs.length` and its kin on a list or text, or None."""
    if name in ("length", "size", "len", "count") and kind in ("list", "text", "bytes"):
        return f"length({target or 'xs'})"
    return None


# ------------------------------------------------------------------ arity
def arguments(n: int) -> str:
    return f"{n} argument" if n == 1 else f"{n} arguments"


def builtin_arity(name: str, low: int, high: int | None, given: int) -> str:
    """`append() takes at most 2 arguments, got 3` (LANGUAGE.md §5) and its mirror images."""
    if high is not None and given > high:
        return f"{name}() takes at most {arguments(high)}, got {given}"
    if low == high:
        return f"{name}() takes {arguments(low)}, got {given}"
    return f"{name}() takes at least {arguments(low)}, got {given}"


def builtin_named(name: str, key: str, accepted: tuple[str, ...]) -> str:
    """The message for a named argument a builtin does not take."""
    if not accepted:
        return f"{name}() does not accept named arguments (got {key} = …); pass it by position"
    guess = did_you_mean(key, accepted)
    if guess is not None:
        return f"{name}() has no named argument '{key}' — did you mean '{guess}'? (it accepts: {', '.join(accepted)})"
    return f"{name}() has no named argument '{key}' (it accepts: {', '.join(accepted)})"


def call_as(name: str | None, params: Iterable[str]) -> str:
    """`call it as f(a, b)`: the hint of a task's or lambda's arity errors."""
    return f"call it as {name or 'the lambda'}({', '.join(params)})"


def task_label(name: str | None) -> str:
    return f"task '{name}'" if name else "lambda"


def task_too_many(label: str, count: int, given: int) -> str:
    return f"{label} takes {arguments(count)}, got {given}"


def task_missing(label: str, param: str) -> str:
    return f"{label} is missing argument '{param}' — pass it, or give the parameter a default"


def unknown_parameter(label: str, name: str, names, listing: bool = False) -> str:
    """`task 'f' has no parameter 'x' — did you mean 'y'?`, listing the parameters when a map
    of arguments (from a model, say) named it, so the list can go back to whoever wrote it."""
    guess = nearest(name, names)
    hint = f" — did you mean '{guess}'?" if guess is not None else " — it takes no parameters"
    listed = f" (parameters: {', '.join(names)})" if listing and names else ""
    return f"{label} has no parameter '{name}'{hint}{listed}"


# ------------------------------------------------------------------ statements
TOP_LEVEL_GIVE = "give can only be used inside a task (or a test block)"
TOP_LEVEL_GIVE_HINT = "to end the program early call exit(); to hand back a value, put the code in a task"


def unsupported(name: str, family: str) -> str:
    return f"'{name}' is not supported by this implementation (tier C: {family})"


# ------------------------------------------------------------------ modules
def shadowed_alias(name: str, path: str, line: int) -> tuple[str, str]:
    """A local name that hides a `use … as name`: (message, hint)."""
    return (f"'{name}' shadows the module alias of `use \"{path}\" as {name}` (line {line}): where it "
            f"is visible, {name}.x reads this value, not the module",
            f"rename the local name (or the alias) so both stay reachable")


def no_export(alias: str, name: str, exported: Iterable[str], defined: str | None) -> tuple[str, str]:
    """`alias.name` where the module does not export `name`: (message, hint) — a did-you-mean
    among the exports, or, for a name the module defines (`defined`: the word that defines it,
    `task`, `let`, `type`, `enum` or `use`) without exporting it, how to export it."""
    message = f"module '{alias}' has no export '{name}'"
    if defined == "use":
        return message, f"'{name}' is a module that module uses; `use` its file here directly"
    if defined is not None:
        return message, f"it is defined in the module but not exported: write `export {defined} {name}` there"
    guess = did_you_mean(name, exported)
    if guess is not None:
        return message, f"did you mean '{alias}.{guess}'?"
    shown = ", ".join(sorted(exported))
    return message, f"it exports {shown}" if shown else "it exports nothing: add `export` before what it shares"


def of_over_dot(name: str, obj: str, key: str) -> str:
    """The hint for `name of obj.key` failing on `key`: `of` takes the whole `obj.key` on its right."""
    return (f"`{name} of {obj}.{key}` reads as `{name} of ({obj}.{key})`; for the {key} of "
            f"`{name} of {obj}`, bind first: let x be {name} of {obj}, then x.{key}")
