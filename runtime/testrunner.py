"""`synsema test`: run the `test` blocks of one or more files and report like pytest would.

Each file's top level runs once (its output is kept for `-v`), then every test block runs in a
child frame of the file's globals. Globals are restored after each test so tests are isolated,
and one failing test never stops the others. Output per LANGUAGE.md §5: a `file:` header when
several files run, `  ✓ name` / `  ✗ name: reason`, and `N passed, M failed (K total)`.
"""

from __future__ import annotations

import glob
import os
import time
from xml.sax.saxutils import escape, quoteattr

from lang.diagnostics import Sources, below
from lang.errors import SynError
from runtime.calls import GIVE, REG, host_failure
from runtime.control import ExitProgram, StopLoop
from runtime.interp import Runtime


class Outcome:
    """The result of one test (or of loading a file, with `name` None)."""

    __slots__ = ("file", "name", "passed", "reason", "seconds", "output", "detail")

    def __init__(self, file: str, name: str | None, passed: bool, reason: str, seconds: float, output: list,
                 detail: str = ""):
        self.file = file
        self.name = name
        self.passed = passed
        self.reason = reason    # one line (LANGUAGE.md §5: `✗ name: reason`)
        self.seconds = seconds
        self.output = output
        self.detail = detail    # lines below it: location, caret, an assertion's values and diff

    @property
    def message(self) -> str:
        """The whole failure, reason then detail: what a JSON event or a JUnit body carries."""
        return f"{self.reason}\n{self.detail}" if self.detail else self.reason


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

    `pattern` selects tests: a text their name contains, a predicate on the name, or None."""
    selected = pattern if callable(pattern) else (lambda name: not pattern or pattern in name)
    output: list[str] = []
    rt = Runtime(mode="test", out=output.append, **host)
    tests: list = []
    started = time.perf_counter()
    try:
        with open(path, encoding="utf-8") as handle:
            source = handle.read()
    except (OSError, UnicodeDecodeError) as problem:
        reason = "it is not UTF-8 text" if isinstance(problem, UnicodeDecodeError) else problem.strerror
        return [Outcome(path, None, False, f"cannot read {path}: {reason}", 0.0, output)]
    sources = Sources()
    sources.add(path, source)
    try:
        rt.run_main(source, path, tests)
    except SynError as error:
        outcome = Outcome(path, None, False, error.report(), time.perf_counter() - started, output,
                          "\n".join(below(error, sources, rt.labels is None)))
        if error.violation:
            raise LabelViolation(outcome) from None
        return [outcome]
    except (StopLoop, ExitProgram) as stopped:
        reason = "stop used outside a loop" if isinstance(stopped, StopLoop) else "exit() called at load"
        return [Outcome(path, None, False, reason, time.perf_counter() - started, output)]
    except RecursionError:
        return [Outcome(path, None, False, "maximum recursion depth exceeded", 0.0, output)]
    except Exception as bug:  # our bug, reported as one failure rather than a traceback
        return [Outcome(path, None, False, _internal(bug), 0.0, output)]
    outcomes = []
    snapshot = dict(rt.globals)
    for name, body, template, span in tests:
        if not selected(name):
            continue
        output.clear()
        started = time.perf_counter()
        passed, reason, detail = True, "", ""
        violated = False
        try:
            REG.depth = 0
            if rt.labels is not None:
                rt.labels.pc = frozenset()
            result = body([None, *template])
            if result is GIVE:
                REG.value = None
        except SynError as error:
            passed, reason = False, _failure_text(error)
            detail = failure_detail(error, sources, rt.labels is None)
            violated = error.violation
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
        finally:
            rt.globals.clear()
            rt.globals.update(snapshot)
        outcome = Outcome(path, name, passed, reason, time.perf_counter() - started, list(output), detail)
        if violated:
            raise LabelViolation(outcome)
        outcomes.append(outcome)
    return outcomes


def report(outcomes_by_file: list[tuple[str, list[Outcome]]], verbose: bool, write) -> tuple[int, int]:
    passed = failed = 0
    several = len(outcomes_by_file) > 1
    for path, outcomes in outcomes_by_file:
        if several:
            write(f"{path}:\n")
        for outcome in outcomes:
            label = outcome.name if outcome.name is not None else f"(loading {os.path.basename(path)})"
            timing = f" ({outcome.seconds:.2f}s)" if verbose and outcome.seconds > 1 else ""
            if outcome.passed:
                passed += 1
                write(f"  ✓ {label}{timing}\n")
            else:
                failed += 1
                write(f"  ✗ {label}: {outcome.reason}{timing}\n")
                for line in outcome.detail.splitlines():
                    write(f"  {line}\n")
            if verbose:
                for line in "".join(outcome.output).splitlines():
                    write(f"  | {line}\n")
    write(f"{passed} passed, {failed} failed ({passed + failed} total)\n")
    return passed, failed


def write_junit(path: str, outcomes_by_file: list[tuple[str, list[Outcome]]]) -> None:
    """A JUnit XML report, one testsuite per file, as CI systems read it."""
    parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="synsema">\n']
    for file, outcomes in outcomes_by_file:
        failures = sum(1 for o in outcomes if not o.passed)
        total = sum(o.seconds for o in outcomes)
        parts.append(f'  <testsuite name={quoteattr(file)} tests="{len(outcomes)}" failures="{failures}" '
                     f'time="{total:.3f}">\n')
        for o in outcomes:
            name = o.name if o.name is not None else "(loading)"
            parts.append(f'    <testcase classname={quoteattr(file)} name={quoteattr(name)} time="{o.seconds:.3f}"')
            if o.passed:
                parts.append("/>\n")
            else:
                parts.append(f">\n      <failure message={quoteattr(o.reason)}>{escape(o.message)}</failure>\n"
                             "    </testcase>\n")
        parts.append("  </testsuite>\n")
    parts.append("</testsuites>\n")
    partial = f"{path}.{os.getpid()}.tmp"
    with open(partial, "w", encoding="utf-8") as handle:
        handle.write("".join(parts))
    os.replace(partial, path)
