"""`synsema test`: run the `test` blocks of one or more files and report like pytest would.

Each file's top level runs once (its output is kept for `-v`), then every test block runs in a
child frame of the file's globals. Globals are restored after each test so tests are isolated,
and one failing test never stops the others (unless `-x`). Output per LANGUAGE.md §5: a `file:`
header when several files run, `  ✓ name` / `  ✗ name: reason` / `  - name: skipped (reason)`,
and `N passed, M failed (K total)` (`, S skipped` when some were).

Markers are builtins (stdlib.core), so no grammar is involved: `skip("reason")` ends the test
where it is called and reports it skipped (first line: always; under a condition: when it cannot
run); `only()` as the first line of a test block runs only the tests so marked, across all the
files given, and then fails the run, as deno does, so a focus marker is never merged unnoticed.
`-k` selects by name: words are case-insensitive substrings, `/regex/` a regular expression
(matched by the `regex` package with a time bound), and `and`, `or`, `not` and parentheses
combine them; words next to each other form one phrase (`-k "adds two"`).

Exit status: 0 all selected tests passed (or were skipped), 1 a failure, a file that failed to
load, a label violation or `only()`, 5 no test ran at all (pytest's "no tests collected").
"""

from __future__ import annotations

import glob
import json
import os
import re
import time

from synsema.lang import ast
from synsema.lang.diagnostics import Sources, below, terminal_safe
from synsema.lang.errors import SynError
from synsema.runtime.calls import GIVE, REG, host_failure
from synsema.runtime.control import ExitProgram, SkipTest, StopLoop
from synsema.runtime.interp import Runtime
from synsema.runtime.limits import REGEX_SECONDS

# Exit status when no test was selected at all (pytest's "no tests collected").
NO_TESTS = 5


class Outcome:
    """The result of one test (or of loading a file, with `name` None).

    A skipped test has `passed` True and `skipped` True; `error` is the SynError a failure came
    from (for its structured form), `line` the test block's line."""

    __slots__ = ("file", "name", "passed", "reason", "seconds", "output", "detail", "line", "skipped", "error")

    def __init__(self, file: str, name: str | None, passed: bool, reason: str, seconds: float, output: list,
                 detail: str = "", line: int = 0, skipped: bool = False, error: SynError | None = None):
        self.file = file
        self.name = name
        self.passed = passed
        self.reason = reason    # one line (LANGUAGE.md §5: `✗ name: reason`)
        self.seconds = seconds
        self.output = output
        self.detail = detail    # lines below it: location, caret, an assertion's values and diff
        self.line = line
        self.skipped = skipped
        self.error = error

    @property
    def message(self) -> str:
        """The whole failure, reason then detail: what a JSON event or a JUnit body carries."""
        return f"{self.reason}\n{self.detail}" if self.detail else self.reason

    @property
    def outcome(self) -> str:
        return "skipped" if self.skipped else "passed" if self.passed else "failed"


class FileRun:
    """What running one file gave: its outcomes, how many selected tests `-x` left unrun,
    whether a label violation ended the whole run there, and (from a `-j` worker process) the
    JSON events it sent, kept verbatim."""

    __slots__ = ("path", "outcomes", "not_run", "violated", "events")

    def __init__(self, path: str, outcomes: list[Outcome], not_run: int = 0, violated: bool = False,
                 events: list | None = None):
        self.path = path
        self.outcomes = outcomes
        self.not_run = not_run
        self.violated = violated
        self.events = events


def expand_paths(paths: list[str]) -> list[str]:
    """Files named, `.syn` files under directories, and glob matches, in a stable order."""
    found: list[str] = []
    for path in paths:
        matches = sorted(glob.glob(path, recursive=True)) if any(c in path for c in "*?[") else [path]
        for match in matches:
            if os.path.isdir(match):
                for root, dirs, files in os.walk(match):
                    dirs.sort()
                    found.extend(os.path.join(root, f) for f in sorted(files) if f.endswith(".syn"))
            elif os.path.isfile(match):
                found.append(match)
            else:
                raise FileNotFoundError(match)
    return found


class LabelViolation(Exception):
    """A label violation under `synsema test --labels`: the whole run ends with this outcome."""

    def __init__(self, outcome: "Outcome"):
        super().__init__(outcome.reason)
        self.outcome = outcome


# ---------------------------------------------------------------- -k expressions
class FilterError(ValueError):
    """A `-k` expression that does not parse, or a `/regex/` that took too long on a name."""


_K_TOKEN = re.compile(r"\s*(?:(\()|(\))|/((?:[^/\\]|\\.)*)/|([^\s()]+))")


def keyword_filter(expression: str):
    """A predicate on test names for `-k EXPRESSION` (see the module docstring)."""
    import regex
    tokens: list = []
    text = expression.strip()
    pos = 0
    while pos < len(text):
        found = _K_TOKEN.match(text, pos)
        if found is None:
            raise FilterError(f"-k: cannot read {text[pos:]!r}")
        pos = found.end()
        if found.group(1) or found.group(2):
            tokens.append(found.group(1) or found.group(2))
        elif found.group(3) is not None:
            try:
                tokens.append(("re", regex.compile(found.group(3))))
            except (regex.error, OverflowError, ValueError, RecursionError) as problem:
                raise FilterError(f"-k: invalid regex /{found.group(3)}/: {problem}") from None
        elif found.group(4).lower() in ("and", "or", "not"):
            tokens.append(found.group(4).lower())
        elif tokens and type(tokens[-1]) is tuple and tokens[-1][0] == "text":
            tokens[-1] = ("text", f"{tokens[-1][1]} {found.group(4).lower()}")
        else:
            tokens.append(("text", found.group(4).lower()))
    if not tokens:
        raise FilterError("-k needs an expression: a word, a /regex/, combined with and, or, not")
    position = 0

    def peek():
        return tokens[position] if position < len(tokens) else None

    def take():
        nonlocal position
        token = peek()
        position += 1
        return token

    def chain(word: str, operand):
        """`operand (word operand)*` for `or` / `and`, folded from the left."""
        left = operand()
        while peek() == word:
            take()
            a, b = left, operand()
            if word == "or":
                left = lambda name, a=a, b=b: a(name) or b(name)
            else:
                left = lambda name, a=a, b=b: a(name) and b(name)
        return left

    def alternatives():
        return chain("or", conjunction)

    def conjunction():
        return chain("and", negation)

    def negation():
        if peek() == "not":
            take()
            inner = negation()
            return lambda name: not inner(name)
        return atom()

    def atom():
        token = take()
        if token == "(":
            inner = alternatives()
            if take() != ")":
                raise FilterError(f"-k: a '(' is never closed in {expression!r}")
            return inner
        if type(token) is tuple:
            kind, value = token
            return _regex_match(value) if kind == "re" else (lambda name: value in name.lower())
        shown = "the end" if token is None else repr(token)
        raise FilterError(f"-k: expected a word or a /regex/ in {expression!r}, found {shown}")

    predicate = alternatives()
    if position != len(tokens):
        raise FilterError(f"-k: unexpected {tokens[position]!r} in {expression!r}")
    return predicate


def _regex_match(pattern):
    def matches(name: str) -> bool:
        try:
            return pattern.search(name, timeout=REGEX_SECONDS) is not None
        except TimeoutError:
            raise FilterError(f"-k: /{pattern.pattern}/ took more than {REGEX_SECONDS:g} s on the test "
                              f"name {name[:80]!r}; simplify the regex") from None
    return matches


def _selector(pattern):
    """`pattern` as a predicate: a predicate itself, a text the name contains, or None (all)."""
    if callable(pattern):
        return pattern
    return lambda name: not pattern or pattern in name


# ---------------------------------------------------------------- markers
def focused_tests(module) -> set[tuple[str, int]]:
    """`(name, line)` of the test blocks whose first statement is a call `only()`."""
    found = set()
    for stmt in module.body:
        if type(stmt) is ast.TestBlock and stmt.body:
            first = stmt.body[0]
            if (type(first) is ast.ExprStmt and type(first.expr) is ast.Call and not first.expr.args
                    and type(first.expr.func) is ast.Name and first.expr.func.name == "only"):
                found.add((stmt.name, stmt.span.line))
    return found


def _parsed(path: str):
    """The parsed file, or None when it cannot be read or parsed (loading reports that)."""
    from synsema.lang.parser import parse
    try:
        with open(path, encoding="utf-8") as handle:
            return parse(handle.read(), path)
    except (OSError, UnicodeDecodeError, SynError, RecursionError):
        return None


def uses_only(path: str) -> bool:
    """Whether a file marks a test `only()` (decides, across files, which files run at all)."""
    try:
        with open(path, encoding="utf-8") as handle:
            if "only" not in handle.read():
                return False
    except (OSError, UnicodeDecodeError):
        return False
    module = _parsed(path)
    return module is not None and bool(focused_tests(module))


def count_selected(path: str, pattern) -> int:
    """How many test blocks of a file `pattern` selects, without running it (for `-x`)."""
    module = _parsed(path)
    if module is None:
        return 0
    selected = _selector(pattern)
    return sum(1 for stmt in module.body if type(stmt) is ast.TestBlock and selected(stmt.name))


# ---------------------------------------------------------------- running
def _failure_text(error: SynError) -> str:
    if error.secret:
        return error.redacted
    if error.assertion or error.span is None:
        return error.message
    return f"{error.message} (at {error.span})"


def failure_detail(error: SynError, sources: Sources, hints: bool = True) -> str:
    """The lines a failed test shows below its reason: where it failed (an assertion's
    `at file:line:col`; other errors name it in the reason), the source line with a caret, and
    a failed assertion's values and diff, as `synsema run` shows them (lang.diagnostics.below).
    Empty for a secret error or a label violation, which stay one line."""
    lines = below(error, sources, hints)
    if error.assertion and error.span is not None and lines:
        lines.insert(0, f"  at {error.span}")
    return "\n".join(lines)


def _internal(bug: Exception) -> str:
    return f"Internal error: {type(bug).__name__}: {bug} — a bug in synsema, not in the test"


def run_file(path: str, pattern, host: dict) -> list[Outcome]:
    """Every selected test of one file; a file that fails to load is one failed outcome.

    `pattern` selects tests: a text their name contains, a predicate on the name, or None.
    `only()` does not narrow this (the pytest plugin's entry: pytest selects with its own -k)."""
    return run_one(path, pattern, host, honour_only=False).outcomes


def run_one(path: str, pattern, host: dict, *, fail_fast: bool = False, progress=None,
            honour_only: bool = True) -> FileRun:
    """Run one file: `fail_fast` stops after its first failure, `progress(name)` is told before
    each test starts. Tests marked `only()` run alone (the caller drops unmarked files)."""
    selected = _selector(pattern)
    output: list[str] = []
    rt = Runtime(mode="test", out=output.append, **host)
    tests: list = []
    started = time.perf_counter()

    def load_failure(reason: str, error: SynError | None = None, detail: str = "") -> FileRun:
        return FileRun(path, [Outcome(path, None, False, reason, time.perf_counter() - started, output,
                                      detail, error=error)])
    try:
        with open(path, encoding="utf-8") as handle:
            source = handle.read()
    except (OSError, UnicodeDecodeError) as problem:
        reason = "it is not UTF-8 text" if isinstance(problem, UnicodeDecodeError) else problem.strerror
        return load_failure(f"cannot read {path}: {reason}")
    sources = Sources()
    sources.add(path, source)
    try:
        rt.run_main(source, path, tests)
    except SynError as error:
        run = load_failure(error.report(), error, "\n".join(below(error, sources, rt.labels is None)))
        if error.violation:
            raise LabelViolation(run.outcomes[0]) from None
        return run
    except SkipTest as skipped:
        return FileRun(path, [Outcome(path, None, True, skipped.reason, time.perf_counter() - started, output,
                                      skipped=True)])
    except (StopLoop, ExitProgram) as stopped:
        return load_failure("stop used outside a loop" if isinstance(stopped, StopLoop) else "exit() called at load")
    except RecursionError:
        return load_failure("maximum recursion depth exceeded")
    except Exception as bug:  # our bug, reported as one failure rather than a traceback
        return load_failure(_internal(bug))
    focus = set()
    if honour_only and "only" in source and rt.globals.get("only") is _builtin("only"):
        from synsema.lang.parser import parse
        focus = focused_tests(parse(source, path))
    chosen = [test for test in tests if selected(test[0]) and (not focus or (test[0], test[3].line) in focus)]
    outcomes: list[Outcome] = []
    snapshot = dict(rt.globals)
    for index, (name, body, template, span) in enumerate(chosen):
        if progress is not None:
            progress(name)
        output.clear()
        outcome = _run_test(rt, path, name, body, template, span, output, sources)
        rt.globals.clear()
        rt.globals.update(snapshot)
        if outcome.error is not None and outcome.error.violation:
            raise LabelViolation(outcome)
        outcomes.append(outcome)
        if fail_fast and not outcome.passed:
            return FileRun(path, outcomes, len(chosen) - index - 1)
    return FileRun(path, outcomes)


def _builtin(name: str):
    from synsema.runtime.interp import builtin_globals
    return builtin_globals().get(name)


def _run_test(rt, path: str, name: str, body, template, span, output: list, sources: Sources) -> Outcome:
    started = time.perf_counter()
    passed, reason, detail, error, skipped = True, "", "", None, False
    try:
        REG.depth = 0
        if rt.labels is not None:
            rt.labels.pc = frozenset()
        if body([None, *template]) is GIVE:
            REG.value = None
    except SynError as failure:
        passed, reason, error = False, _failure_text(failure), failure
        detail = failure_detail(failure, sources, rt.labels is None)
    except SkipTest as skip:
        skipped, reason = True, skip.reason
    except StopLoop:
        passed, reason = False, "stop used outside a loop"
    except ExitProgram as done:
        passed, reason = False, f"exit({done.code}) called inside a test"
    except RecursionError:
        passed, reason = False, "maximum recursion depth exceeded"
    except MemoryError:
        passed, reason = False, host_failure(f"test {name!r}", MemoryError()).message
    except Exception as bug:
        passed, reason = False, _internal(bug)
    return Outcome(path, name, passed, reason, time.perf_counter() - started, list(output), detail, span.line,
                   skipped, error)


# ---------------------------------------------------------------- reporting
class Totals:
    """Counts over every outcome reported so far."""

    __slots__ = ("passed", "failed", "skipped", "not_run")

    def __init__(self):
        self.passed = self.failed = self.skipped = self.not_run = 0

    def add(self, run: FileRun) -> None:
        for outcome in run.outcomes:
            if outcome.skipped:
                self.skipped += 1
            elif outcome.passed:
                self.passed += 1
            else:
                self.failed += 1
        self.not_run += run.not_run

    @property
    def ran(self) -> int:
        return self.passed + self.failed + self.skipped

    def line(self) -> str:
        skipped = f", {self.skipped} skipped" if self.skipped else ""
        return f"{self.passed} passed, {self.failed} failed{skipped} ({self.ran} total)\n"


def report_file(run: FileRun, several: bool, verbose: bool, write) -> None:
    """One file's block of the human report: its header (when several files run), then a line
    per outcome, with `-v` the tests' output."""
    if several:
        write(f"{terminal_safe(run.path)}:\n")
    for outcome in run.outcomes:
        # names, reasons and details are the program's text: escaped, so none drives the terminal
        label = terminal_safe(outcome.name) if outcome.name is not None else \
            f"(loading {terminal_safe(os.path.basename(run.path))})"
        timing = f" ({outcome.seconds:.2f}s)" if verbose and outcome.seconds > 1 else ""
        reason = terminal_safe(outcome.reason or "")
        if outcome.skipped:
            write(f"  - {label}: skipped{f' ({reason})' if reason else ''}\n")
        elif outcome.passed:
            write(f"  ✓ {label}{timing}\n")
        else:
            write(f"  ✗ {label}: {reason}{timing}\n")
            for line in outcome.detail.removesuffix("\n").split("\n") if outcome.detail else ():
                write(f"  {terminal_safe(line)}\n")
        if verbose:
            for line in "".join(outcome.output).splitlines():
                write(f"  | {line}\n")


def event(outcome: Outcome, sources, hints: bool) -> dict:
    """The `--format json` line of one outcome: a test, or (`"event": "load"`) a file that
    could not be loaded. `message` is the whole failure text (reason, then `detail`: where,
    the caret, an assertion's values and diff); `diagnostic` the structured error of
    `run`/`check` when there is one."""
    from synsema.lang.diagnostics import as_json
    diagnostic = None
    if outcome.error is not None:
        diagnostic = as_json(outcome.error, sources)
        if not hints:
            diagnostic["hint"] = None
    return {"event": "test" if outcome.name is not None else "load", "file": outcome.file, "name": outcome.name,
            "line": outcome.line or None, "outcome": outcome.outcome, "duration": round(outcome.seconds, 6),
            "message": outcome.message or None, "detail": outcome.detail or None, "output": "".join(outcome.output),
            "diagnostic": diagnostic}


def outcome_of(data: dict) -> Outcome:
    """An Outcome back from its JSON event (what a `-j` worker process sends)."""
    message, detail = data["message"] or "", data["detail"] or ""
    reason = message[:len(message) - len(detail) - 1] if detail else message
    return Outcome(data["file"], data["name"], data["outcome"] != "failed", reason, data["duration"],
                   [data["output"]] if data["output"] else [], detail, data["line"] or 0,
                   data["outcome"] == "skipped")


# Characters XML 1.0 cannot hold at all, even escaped: a test's output may print them.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def write_junit(path: str, runs: list[FileRun]) -> None:
    """A JUnit XML report, one testsuite per file, as CI systems read it: each testcase has its
    file, line and time; a failure its message, a skip its reason, and the test's output."""
    from xml.etree import ElementTree as ET

    def clean(text: str) -> str:
        return _NOT_XML.sub("\ufffd", text)
    root = ET.Element("testsuites", name="synsema")
    counts = {"tests": 0, "failures": 0, "skipped": 0}
    total_time = 0.0
    for run in runs:
        failures = sum(1 for o in run.outcomes if not o.passed)
        skipped = sum(1 for o in run.outcomes if o.skipped)
        seconds = sum(o.seconds for o in run.outcomes)
        suite = ET.SubElement(root, "testsuite", name=clean(run.path), tests=str(len(run.outcomes)),
                              failures=str(failures), errors="0", skipped=str(skipped), time=f"{seconds:.3f}")
        counts["tests"] += len(run.outcomes)
        counts["failures"] += failures
        counts["skipped"] += skipped
        total_time += seconds
        for o in run.outcomes:
            case = ET.SubElement(suite, "testcase", classname=clean(run.path),
                                 name=clean(o.name if o.name is not None else "(loading)"),
                                 file=clean(run.path), line=str(o.line), time=f"{o.seconds:.3f}")
            if o.skipped:
                ET.SubElement(case, "skipped", message=clean(o.reason))
            elif not o.passed:
                ET.SubElement(case, "failure", message=clean(o.reason)).text = clean(o.message)
            if o.output:
                ET.SubElement(case, "system-out").text = clean("".join(o.output))
    root.set("tests", str(counts["tests"]))
    root.set("failures", str(counts["failures"]))
    root.set("errors", "0")
    root.set("skipped", str(counts["skipped"]))
    root.set("time", f"{total_time:.3f}")
    ET.indent(root)
    partial = f"{path}.{os.getpid()}.tmp"
    ET.ElementTree(root).write(partial, encoding="UTF-8", xml_declaration=True)
    os.replace(partial, path)


def json_line(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False) + "\n"
