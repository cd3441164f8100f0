"""The audit log of a run (`--audit`): every capability check and host limit as a JSON line.

runtime.capabilities records into it; it lives apart so a run without `--audit` does not
compile it (start-up without `.pyc` files, issue 31).
"""

from __future__ import annotations

import errno
import json
import os
import sys
import threading

from synsema.lang.errors import Span


class Audit:
    """The audit log: a start line, one JSON line per capability check or host limit, then a
    summary line when the run ends.

    The audited script can write to the same stderr, so a line's shape proves nothing. Every
    line carries `run`, this run's random id, which is in no value a script can reach; the start
    line is written before the program is read, so nothing a script prints can come before it;
    the summary counts the records between the two. The summary is written once, by whichever
    thread ends the run first (runtime.cli writes it on SIGINT and SIGTERM too), and nothing of
    the log comes after it.
    """

    def __init__(self, path: str | None, collect: bool = False, stream=None):
        self._file = stream if stream is not None else None if path is None else open(path, "w", encoding="utf-8")
        import secrets  # only a run with --audit needs it
        self.run = secrets.token_hex(16)
        self._lock = threading.Lock()   # the summary may come from the main thread (a signal)
        self._finished = False
        self.count = 0
        self.granted = 0
        self.denied = 0
        self.records: list[dict] | None = [] if collect else None
        self._sink = None if collect else _identity(self._file if self._file is not None else sys.stderr)
        self._emit({"run": self.run, "ts": _now(), "start": {"pid": os.getpid()}})

    @classmethod
    def open(cls, spec: str) -> "Audit":
        """`json` (stderr), `fd:N` (a descriptor the caller opened for writing; left open) or a path."""
        if spec == "json":
            return cls(None)
        if spec.startswith("fd:") and spec[3:].isdigit():
            return cls(None, stream=_descriptor_stream(int(spec[3:])))
        return cls(spec)

    @classmethod
    def collecting(cls) -> "Audit":
        """An audit kept in memory: `run --format json --audit json` puts it in its report."""
        return cls(None, collect=True)

    def record(self, capability: str, scope: str | None, granted: bool, reason: str,
               span: Span | None) -> None:
        self._write({
            "run": self.run, "ts": _now(),
            "capability": capability, "scope": scope, "granted": granted, "reason": reason,
            "file": span.file if span else None, "line": span.line if span else None,
        }, "granted" if granted else "denied")

    def replay(self, args: tuple) -> None:
        """A record an AuditBuffer kept, written now (in the order the sequential loop would have)."""
        self.record(*args)

    def limit(self, kind: str, bound, exit_code: int, span: Span | None = None) -> None:
        """A host resource limit (`time`, `memory`) ended the command: its record, then the summary."""
        self._write({
            "run": self.run, "ts": _now(), "limit": kind, "bound": bound,
            "file": span.file if span else None, "line": span.line if span else None,
        })
        self.summary(exit_code)

    def summary(self, exit_code: int) -> None:
        """The last line: how many records came after the start line, granted, denied, the exit."""
        with self._lock:
            if self._finished:
                return
            self._emit({"run": self.run, "summary": {"records": self.count, "granted": self.granted,
                                                     "denied": self.denied, "exit": exit_code}})
            self._finished = True
            if self._file is not None:
                self._file.close()

    def absorb(self, count: int, granted: int, denied: int) -> None:
        """Count records another process wrote to this log (an `mcp serve` call runs in a child
        of the server and writes to the inherited log), so the summary covers them."""
        with self._lock:
            self.count += count
            self.granted += granted
            self.denied += denied

    def add_row_record(self, record: dict, row: str) -> None:
        """A record an eval row's process collected, written to this log under this run's id
        and tagged with the row (`synsema eval`: one log for every row)."""
        outcome = None if "granted" not in record else "granted" if record["granted"] else "denied"
        self._write({**record, "run": self.run, "row": row}, outcome)

    def is_sink(self, path: str) -> bool:
        """Whether `path` (resolved) is the file this log is written to, by any name."""
        if self._sink is None:
            return False
        try:
            found = os.stat(path)
        except (OSError, ValueError):
            return False
        return (found.st_dev, found.st_ino) == self._sink

    def _write(self, record: dict, outcome: str | None = None) -> None:
        with self._lock:
            if self._finished:  # the summary is the last line, whatever runs after it
                return
            self.count += 1
            if outcome == "granted":
                self.granted += 1
            elif outcome == "denied":
                self.denied += 1
            self._emit(record)

    def _emit(self, record: dict) -> None:
        if self.records is not None:
            self.records.append(record)
            return
        stream = self._file if self._file is not None else sys.stderr
        stream.write(json.dumps(record, ensure_ascii=False) + "\n")
        stream.flush()


def _now() -> str:
    from datetime import datetime, timezone
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _identity(stream) -> tuple[int, int] | None:
    """(device, inode) of the file under a stream, to know it again by any path."""
    try:
        found = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    return found.st_dev, found.st_ino


def _descriptor_stream(fd: int):
    """A text stream on an inherited descriptor, refused unless it is open for writing."""
    import fcntl
    mode = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE  # OSError(EBADF) when fd is not open
    if mode not in (os.O_WRONLY, os.O_RDWR):
        raise OSError(errno.EBADF, f"descriptor {fd} is not open for writing")
    return os.fdopen(fd, "w", encoding="utf-8", closefd=False)
