"""Run a program the way `synsema run --labels --audit FILE prog.syn -- SECRET` runs it, and
collect everything the run showed the outside world.

`run_in_process` calls the command line's own entry (`synsema.runtime.cli.main`) inside this
process, with stdout, stderr and stdin swapped for buffers and the working directory set to a
fresh folder, so a run costs milliseconds instead of a Python start-up. The interpreter keeps a
few counters per process (`calls.REG`: call depth, `steps()`); they are reset before each run, so
every run starts as a fresh process would. `run_subprocess` is the real command in a real
process: the campaign confirms every violation with it before reporting one.

An `Observation` is what an observer of the run sees: exit code, stdout, stderr, the files the
program wrote (name → content) and the audit records (without their timestamps and run id).
Paths of the run's folder are replaced by `<dir>` so two runs in two folders compare equal.
"""

from __future__ import annotations

import io
import json
import os
import resource
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from synsema.lang import gcpause

PROGRAM = "prog.syn"
AUDIT = "audit.jsonl"
ROOT = Path(__file__).resolve().parents[3]


@dataclass(frozen=True)
class Observation:
    exit: int
    stdout: str
    stderr: str
    files: tuple        # ((name, content), …) sorted
    audit: tuple        # normalised audit records, as JSON texts

    @property
    def outcome(self) -> str:
        """ok, error (an ordinary, public runtime error), violation (label_violation), secret
        (an error shown as `private(…)`), parse (the program did not load), crash (a Python
        error or `Internal error` reached the user)."""
        err = self.stderr
        if "Internal error" in err or "Traceback (most recent call last)" in err:
            return "crash"
        if "label_violation" in err:
            return "violation"
        if re.search(r"^Runtime error: (\S+:\d+: )?private\(", err, re.M):   # file:line: of public flow (issue 26)
            return "secret"
        if re.search(r"^(Parse|Lexer) error:", err, re.M):
            return "parse"
        if self.exit != 0 and re.search(r"^Runtime error:", err, re.M):
            return "error"
        return "ok"

    def error_line(self) -> str:
        for line in self.stderr.splitlines():
            if re.match(r"(Runtime|Parse|Lexer) error:", line):
                return line
        return ""

    def channels(self, other: "Observation") -> list[str]:
        """The channels on which two observations differ."""
        return [name for name in ("exit", "stdout", "stderr", "files", "audit")
                if getattr(self, name) != getattr(other, name)]

    def shown(self) -> str:
        audit = "".join(f"  {line}\n" for line in self.audit)
        files = "".join(f"  {name}: {content!r}\n" for name, content in self.files)
        return (f"exit {self.exit}\n--- stdout\n{self.stdout}--- stderr\n{self.stderr}"
                f"--- files\n{files}--- audit\n{audit}")


def observe(workdir: Path, exit_code: int, stdout: str, stderr: str) -> Observation:
    here = str(workdir)
    real = os.path.realpath(here)

    def clean(text: str) -> str:
        return text.replace(real, "<dir>").replace(here, "<dir>")

    files = []
    for path in sorted(workdir.rglob("*")):
        if path.is_file() and path.name not in (PROGRAM, AUDIT):
            try:
                content = path.read_text(encoding="utf-8", errors="replace")
            except OSError as problem:
                content = f"<unreadable: {problem}>"
            files.append((str(path.relative_to(workdir)), clean(content)))
    audit = []
    log = workdir / AUDIT
    if log.exists():
        for line in log.read_text(encoding="utf-8").splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                audit.append(clean(line))
                continue
            record.pop("run", None)
            record.pop("ts", None)
            if "start" in record:
                continue
            audit.append(clean(json.dumps(record, sort_keys=True)))
    return Observation(exit_code, clean(stdout), clean(stderr), tuple(files), tuple(audit))


def command(secret: int, flags=()) -> list[str]:
    return ["run", "--labels", "--audit", AUDIT, *flags, PROGRAM, "--", str(secret)]


_workdir: Path | None = None


def _fresh_workdir() -> Path:
    """One folder per process, emptied before each run (in memory where the host has /dev/shm:
    making and removing a folder per run cost more than the run)."""
    global _workdir
    if _workdir is None:
        base = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
        _workdir = Path(tempfile.mkdtemp(prefix="nifuzz-", dir=base))
    for entry in os.scandir(_workdir):
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:
            os.unlink(entry.path)
    return _workdir


def run_in_process(source: str, secret: int, flags=()) -> Observation:
    """One run through the command line's own entry, in this process. Generated programs are
    bounded by construction; a campaign's driver watches for one that is not (campaign.py)."""
    from synsema.runtime import cli
    from synsema.runtime.calls import REG
    workdir = _fresh_workdir()
    (workdir / PROGRAM).write_text(source, encoding="utf-8")
    saved = sys.stdout, sys.stderr, sys.stdin, os.getcwd()
    out, err = io.StringIO(), io.StringIO()
    REG.value, REG.depth, REG.stop_span, REG.steps = None, 0, None, 0
    os.chdir(workdir)
    sys.stdout, sys.stderr, sys.stdin = out, err, io.StringIO("")
    # `run` caps the process's data segment (--memory-limit, 4G by default) for good, and this
    # process is the test runner, whose other tests may have mapped a lot (a 512 MB thread stack
    # then no longer fits): no cap in here, and the runner's own put back after.
    limit = resource.getrlimit(resource.RLIMIT_DATA)
    resource.setrlimit(resource.RLIMIT_DATA, (limit[1], limit[1]))
    try:
        code = cli.main(command(secret, ("--memory-limit", "off", *flags)))
    finally:
        resource.setrlimit(resource.RLIMIT_DATA, limit)
        sys.stdout, sys.stderr, sys.stdin = saved[:3]
        os.chdir(saved[3])
        gcpause.release()   # `run` freezes what it loaded, as a process that ends would not care
    return observe(workdir, code, out.getvalue(), err.getvalue())


def run_subprocess(source: str, secret: int, flags=(), timeout: float = 120, env: dict | None = None) -> Observation:
    """The real `synsema` command in its own process (`env`: variables added to a clean one)."""
    workdir = Path(tempfile.mkdtemp(prefix="nifuzz-"))
    try:
        (workdir / PROGRAM).write_text(source, encoding="utf-8")
        clean = {k: v for k, v in os.environ.items()
                 if k not in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY") and not k.startswith("SYNSEMA_")}
        clean["PYTHONPATH"] = str(ROOT)
        proc = subprocess.run([sys.executable, "-m", "synsema", *command(secret, flags)], cwd=workdir,
                              input="", capture_output=True, text=True, timeout=timeout,
                              env={**clean, **(env or {})})
        return observe(workdir, proc.returncode, proc.stdout, proc.stderr)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
