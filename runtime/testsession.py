"""One whole `synsema test` run, across files: which files run, how, and what is reported.

`only()` in any file narrows the run to the files (and tests) that use it. Files run one after
the other, or with `-j N` each in its own `synsema test --format json` worker process, N at a
time; either way each file's report is printed as one block, in the order the files were
given (sorted), as soon as it and every file before it are done, so `-j 2` prints what `-j 1`
prints. A terminal gets a progress line that is rewritten in place and erased before each
block; a pipe gets plain text. `--format json` streams one JSON event per line instead (see
`runtime.testrunner.event`), ending with a summary. The exit status is the worst of all files.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

from synsema.runtime import testrunner
from synsema.runtime.testrunner import FileRun, LabelViolation, Totals


class Settings:
    """What the command line asked for (runtime.cli builds it)."""

    def __init__(self, *, pattern=None, fail_fast: bool = False, verbose: bool = False, fmt: str = "human",
                 jobs: int = 1, junit: str | None = None, host: dict | None = None,
                 worker_flags: tuple[str, ...] = ()):
        self.pattern = pattern              # a predicate on test names (keyword_filter) or None
        self.fail_fast = fail_fast
        self.verbose = verbose
        self.fmt = fmt
        self.jobs = jobs
        self.junit = junit
        self.host = host or {}              # runtime options: ceiling, audit, labels, mcp_config
        self.worker_flags = worker_flags    # host flags, -k and -x as typed: what a -j worker gets


class Progress:
    """The `[2/7] file › test` line a terminal shows while tests run, rewritten in place."""

    def __init__(self, stream):
        self.stream = stream
        self.shown = False

    def show(self, text: str) -> None:
        width = max(20, shutil.get_terminal_size().columns - 1)
        self.stream.write("\r\x1b[2K" + text[:width])
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[2K")
            self.shown = False


def run_session(files: list[str], settings: Settings, out=None) -> int:
    """Run every file, report as it goes, write the JUnit report; the exit status."""
    out = out or sys.stdout
    focused = [f for f in files if testrunner.uses_only(f)]
    chosen = focused or files
    progress = Progress(out) if settings.fmt == "human" and out.isatty() else None
    sources = _sources()
    hints = not settings.host.get("labels")
    several = len(chosen) > 1
    totals = Totals()
    reported: list[FileRun] = []
    stopped = None
    runs = _in_processes(chosen, settings) if settings.jobs > 1 and len(chosen) > 1 else \
        _in_turn(chosen, settings, progress)
    done = 0
    try:
        for run in runs:
            done += 1
            if progress:
                progress.clear()
            _emit(run, settings, several, sources, hints, out)
            totals.add(run)
            reported.append(run)
            if run.violated:
                stopped = "label_violation"
                break
            if settings.fail_fast and any(not o.passed for o in run.outcomes):
                stopped = "fail_fast"
                totals.not_run += sum(testrunner.count_selected(f, settings.pattern) for f in chosen[done:])
                break
            if progress and done < len(chosen):
                progress.show(f"[{done}/{len(chosen)}] {totals.line().strip()}")
    finally:
        runs.close()
    if progress:
        progress.clear()
    if stopped == "label_violation" or totals.failed or focused:
        code = 1
    elif totals.ran == 0:
        code = testrunner.NO_TESTS
    else:
        code = 0
    if settings.fmt == "json":
        out.write(testrunner.json_line({
            "event": "summary", "passed": totals.passed, "failed": totals.failed, "skipped": totals.skipped,
            "total": totals.ran, "not_run": totals.not_run, "only": focused, "stopped": stopped, "exit": code}))
    else:
        out.write(totals.line())
        out.write(_notes(stopped, totals, focused, settings, code))
    out.flush()
    if settings.junit:
        try:
            testrunner.write_junit(settings.junit, reported)
        except OSError as problem:
            sys.stderr.write(f"synsema: cannot write the JUnit report {settings.junit}: {problem.strerror}\n")
            return 2
    return code


def _notes(stopped, totals: Totals, focused: list[str], settings: Settings, code: int) -> str:
    notes = []
    if stopped == "label_violation":
        notes.append("the test run stopped: a label violation ends it (see above)")
    if stopped == "fail_fast":
        notes.append(f"stopped at the first failure (-x): {totals.not_run} selected "
                     f"test{'' if totals.not_run == 1 else 's'} not run")
    if focused:
        notes.append(f"the run fails because only() is used in {', '.join(focused)}: the other tests did "
                     "not run; remove only() before committing")
    if code == testrunner.NO_TESTS:
        why = "no test block matched -k" if settings.pattern is not None else "the files have no test blocks"
        notes.append(f"no tests ran: {why} (exit status {testrunner.NO_TESTS})")
    return "".join(note + "\n" for note in notes)


def _sources():
    from synsema.lang.diagnostics import Sources
    return Sources()


def _emit(run: FileRun, settings: Settings, several: bool, sources, hints: bool, out) -> None:
    if settings.fmt == "json":
        events = run.events or [testrunner.event(o, sources, hints) for o in run.outcomes]
        out.write("".join(testrunner.json_line(e) for e in events))
    else:
        testrunner.report_file(run, several, settings.verbose, out.write)
    out.flush()


def _in_turn(files: list[str], settings: Settings, progress: Progress | None):
    """The files run in this process, one after the other."""
    for number, path in enumerate(files, 1):
        tell = None
        if progress is not None:
            def tell(name, number=number, path=path):
                progress.show(f"[{number}/{len(files)}] {path} › {name}")
        try:
            yield testrunner.run_one(path, settings.pattern, settings.host, fail_fast=settings.fail_fast,
                                     progress=tell)
        except LabelViolation as violation:
            yield FileRun(path, [violation.outcome], violated=True)
            return


def _in_processes(files: list[str], settings: Settings):
    """`-j N`: each file in its own worker process, N at a time, yielded in the files' order."""
    cancelled = threading.Event()

    def work(path: str) -> FileRun | None:
        if cancelled.is_set():
            return None
        return _worker(path, settings.worker_flags)
    pool = ThreadPoolExecutor(max_workers=settings.jobs)
    futures = [pool.submit(work, path) for path in files]
    try:
        for future in futures:
            run = future.result()
            if run is None:
                return
            yield run
    finally:
        cancelled.set()
        for future in futures:
            future.cancel()
        pool.shutdown(wait=True)


def _worker(path: str, flags: tuple[str, ...]) -> FileRun:
    command = [sys.executable, "-m", "synsema", "test", "--format", "json", *flags, path]
    done = subprocess.run(command, capture_output=True, text=True, encoding="utf-8", errors="replace",
                          env={**os.environ, "PYTHONUNBUFFERED": "1"})
    events, summary = [], None
    for line in done.stdout.splitlines():
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if data.get("event") == "summary":
            summary = data
        elif data.get("event") in ("test", "load"):
            events.append(data)
    outcomes = [testrunner.outcome_of(e) for e in events]
    if summary is None:
        reason = done.stderr.strip() or f"the worker process for {path} ended with status {done.returncode}"
        failure = testrunner.Outcome(path, None, False, reason, 0.0, [])
        outcomes.append(failure)
        events.append(testrunner.event(failure, None, True))
    violated = bool(summary and summary.get("stopped") == "label_violation")
    return FileRun(path, outcomes, summary["not_run"] if summary else 0, violated, events)
