"""The builtin reference, generated from the one registry (see `stdlib.registry` for the rules).

Each builtin's parameters come from its Python signature and its summary and examples from its
docstring, so the reference cannot drift from the code: `synsema doc`, the REPL's `:doc`,
docs/builtins.md, the hints of arity errors and the linter's arity checks all read `describe`.
"""

from __future__ import annotations

import inspect
import re

from synsema.stdlib.registry import MODULES, BuiltinSpec, declared, load_all

_EXAMPLE = re.compile(r"^\s*Example:\s*(?P<entry>.+)\s+=>\s+(?P<shown>.*?)\s*$")

# Tier-C names that exist only to refuse with an explanation: not part of the reference.
REFUSED = "synsema.stdlib.unsupported"

# What each module's builtins are about, for the reference's section headings (a module
# missing here is listed under its own name).
SECTIONS = {
    "synsema.stdlib.core": "Core: output, text, types, assertions",
    "synsema.stdlib.convert": "Conversions: numbers from text and between kinds",
    "synsema.stdlib.text": "Text and regular expressions",
    "synsema.stdlib.collections": "Lists and maps",
    "synsema.stdlib.numbers": "Numbers and statistics",
    "synsema.stdlib.formats": "Data formats",
    "synsema.stdlib.bytes": "Bytes, hashes and HMAC",
    "synsema.stdlib.secrets": "Secrets",
    "synsema.stdlib.time_random": "Time and randomness",
    "synsema.stdlib.files_env": "Files and the environment",
    "synsema.stdlib.net": "Network",
    "synsema.stdlib.tools": "Tools",
    "synsema.stdlib.llm": "Language models",
    "synsema.stdlib.script_math": "The math library",
    "synsema.stdlib.labels": "Information-flow labels",
    "synsema.stdlib.mcp": "MCP servers",
    "synsema.stdlib.concurrency": "Fan-out",
}


class Parameter:
    """One parameter: `default` is the Synsema source of its default, None when it has none;
    `optional` may be true without a default (the builtin decides what absence means);
    `repeated` for a `*name` parameter; `named_only` when it can only be passed as `name = v`."""

    __slots__ = ("name", "default", "optional", "repeated", "named_only")

    def __init__(self, name: str, default: str | None, optional: bool, repeated: bool, named_only: bool):
        self.name = name
        self.default = default
        self.optional = optional
        self.repeated = repeated
        self.named_only = named_only

    def shown(self) -> str:
        if self.repeated:
            return f"{self.name}…"
        if self.default is not None:
            return f"{self.name} = {self.default}"
        return f"[{self.name}]" if self.optional else self.name


class BuiltinDoc:
    """A builtin as the reference shows it. `min_args`/`max_args` (None: any number) and `named`
    are the registry's own arity; `examples` are (entry, shown) pairs."""

    __slots__ = ("name", "params", "min_args", "max_args", "named", "cap", "flow", "module",
                 "summary", "details", "examples")

    def __init__(self, spec: BuiltinSpec):
        self.name = spec.name
        self.min_args = spec.min_args
        self.max_args = spec.max_args
        self.named = spec.named
        self.cap = spec.cap
        self.flow = spec.flow
        self.module = spec.module
        self.params = _parameters(spec)
        self.summary, self.details, self.examples = _docstring(spec.implementation())

    @property
    def positional(self) -> list[Parameter]:
        return [p for p in self.params if not p.named_only]

    def signature(self) -> str:
        """`split(t, sep)`, `sort(xs, *, desc = false)`: how a call is written; parameters after
        a `*` can only be passed by name."""
        shown = [p.shown() for p in self.positional]
        named = [p.shown() for p in self.params if p.named_only]
        if named:
            shown += ["*", *named]
        return f"{self.name}({', '.join(shown)})"

    def arity(self) -> str:
        low, high = self.min_args, self.max_args
        if high is None:
            return f"{low} or more arguments"
        if low == high:
            return f"{low} argument{'s' if low != 1 else ''}"
        return f"{low} to {high} arguments"


def _default_source(value) -> str:
    if value is None:
        return "nothing"
    if value is True or value is False:
        return "true" if value else "false"
    if type(value) in (int, float):
        return repr(value)
    if type(value) is str:
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    raise TypeError  # a sentinel: optional, no default to show


def _parameters(spec: BuiltinSpec) -> list[Parameter]:
    signature = inspect.signature(spec.implementation())
    params = list(signature.parameters.values())[1:]  # after rt
    out = []
    position = 0
    for p in params:
        repeated = p.kind is p.VAR_POSITIONAL
        if p.kind is p.VAR_KEYWORD:
            continue
        named_only = p.kind is p.KEYWORD_ONLY or (
            not repeated and spec.max_args is not None and position >= spec.max_args)
        if not named_only and not repeated:
            position += 1
        default, optional = None, False
        if p.default is not p.empty:
            optional = True
            try:
                default = _default_source(p.default)
            except TypeError:
                default = None
        out.append(Parameter(p.name, default, optional, repeated, named_only))
    return out


def _docstring(fn) -> tuple[str, str, list[tuple[str, str]]]:
    text = inspect.getdoc(fn) or ""
    lines = text.splitlines()
    summary_lines = []
    for line in lines:
        if not line.strip():
            break
        summary_lines.append(line.strip())
    summary = " ".join(summary_lines)
    if _EXAMPLE.match(summary):
        summary = ""
    rest = lines[len(summary_lines):]
    examples = []
    details = []
    for line in rest:
        found = _EXAMPLE.match(line)
        if found:
            examples.append((found["entry"], found["shown"]))
        else:
            details.append(line)
    return summary, "\n".join(details).strip(), examples


def describe(name: str) -> BuiltinDoc | None:
    spec = declared().get(name)
    return BuiltinDoc(spec) if spec is not None else None


def reference() -> list[BuiltinDoc]:
    """Every builtin, grouped by module in the registry's order, alphabetical within a module."""
    specs = load_all().values()
    order = {module: i for i, module in enumerate(MODULES)}
    return [BuiltinDoc(s) for s in sorted(specs, key=lambda s: (order.get(s.module, len(order)), s.name))
            if s.module != REFUSED]


def call_hint(name: str) -> str | None:
    """The signature an arity error shows as its hint: `append(xs, item)`."""
    doc = describe(name)
    return doc.signature() if doc is not None else None


# ---------------------------------------------------------------- rendering
def render_entry(doc: BuiltinDoc) -> str:
    """`synsema doc NAME`: the signature, summary, capability, named arguments and examples."""
    out = [doc.signature(), f"  {doc.summary}" if doc.summary else "  (no summary)"]
    if doc.details:
        out += ["", *("  " + line if line else "" for line in doc.details.splitlines())]
    out.append("")
    out.append(f"  takes: {doc.arity()}")
    named = [p for p in doc.params if p.named_only]
    if named:
        out.append("  named arguments: " + ", ".join(p.shown() for p in named))
    out.append(f"  capability: {_capability(doc)}")
    for entry, shown in doc.examples:
        out.append(f"  example: {entry}  =>  {shown}")
    return "\n".join(out) + "\n"


def _capability(doc: BuiltinDoc) -> str:
    """The capability line: what a program writes to be allowed the call. `synsema run` grants
    some capabilities without a `require` (runtime.capabilities.RUN_MODE_AUTO_GRANTS), as the
    README says; only a host ceiling takes those away."""
    from synsema.runtime.capabilities import CEILING_FLAGS, NAMED_ONLY, RUN_MODE_AUTO_GRANTS
    if doc.cap is None:
        return "none (pure)"
    if doc.cap in NAMED_ONLY:
        return f"{doc.cap} — the program names it: `{NAMED_ONLY[doc.cap]}` (a bare `require {doc.cap}` grants nothing)"
    if doc.cap in RUN_MODE_AUTO_GRANTS:
        return (f"{doc.cap} — granted to every `synsema run` without a `require`; a host ceiling "
                f"({CEILING_FLAGS}) can withhold it")
    return f"{doc.cap} — the program needs `require {doc.cap}` (or a narrower `require {doc.cap}(…)`)"


def render_index(docs: list[BuiltinDoc]) -> str:
    """`synsema doc`: every builtin on one line, by section."""
    out = []
    module = None
    for doc in docs:
        if doc.module != module:
            module = doc.module
            out.append(("\n" if out else "") + SECTIONS.get(module, module))
        out.append(f"  {doc.signature():<44} {doc.summary}")
    out.append("\n`synsema doc NAME` shows one builtin with its examples.")
    return "\n".join(out) + "\n"


def render_markdown(docs: list[BuiltinDoc]) -> str:
    """docs/builtins.md: generated, checked by a test to match this function's output."""
    out = ["# Builtin reference", "",
           "Generated from the registry by `synsema doc --markdown`; do not edit by hand "
           "(tests/diagnostics/test_reference.py checks it is current). Every example runs in CI.",
           "",
           "The forms that ask a model (`reason`, `decide`, `analyze`, `generate`) or a person "
           "(`show`, `ask`, `approve`, `confirm`) are expressions, not builtins: see "
           "[forms.md](forms.md).",
           ""]
    module = None
    for doc in docs:
        if doc.module != module:
            module = doc.module
            out += [f"## {SECTIONS.get(module, module)}", ""]
        out += [f"### `{doc.signature()}`", "", doc.summary or "(no summary)", ""]
        if doc.details:
            out += [doc.details, ""]
        facts = [f"takes {doc.arity()}"]
        named = [p for p in doc.params if p.named_only]
        if named:
            facts.append("named: " + ", ".join(f"`{p.shown()}`" for p in named))
        facts.append(f"capability: {_capability(doc)}" if doc.cap else "pure")
        out += ["; ".join(facts), ""]
        if doc.examples:
            out.append("```")
            out += [f"{entry}  =>  {shown}" for entry, shown in doc.examples]
            out += ["```", ""]
    return "\n".join(out).rstrip() + "\n"
