"""Files and the process environment, behind the `file` and `env` capabilities.

Every path is turned into its real absolute path first (`~` expanded, relative to the program's
working directory, `..` and symlinks resolved); that path is both the one checked against the
`file.read` / `file.write` scopes and the one touched, so a symlink cannot lead a checked access
somewhere else. Writes are atomic: the new content goes to a temporary file in the same directory,
is flushed to disk, and replaces the target with `os.replace`, so a reader (or a crash) sees the
old file or the new one, never half of it. Where the file system allows it (Linux `O_TMPFILE`)
the temporary file has no name until it is complete, so a run killed mid-write (even by SIGKILL)
leaves nothing behind; elsewhere a named temporary file is removed on every error. Operating-system failures become SynErrors that name
the operation and the path.
"""

from __future__ import annotations

import os

from synsema.lang.errors import SynError
from synsema.lang.grants import grant
from synsema.runtime.capabilities import resolve_path
from synsema.stdlib.core import wrong_type
from synsema.stdlib.registry import builtin

_UNSET = object()


def _path(rt, fname: str, path, cap: str) -> str:
    if type(path) is not str:
        raise wrong_type(fname, "a path as text", path)
    if not path:
        raise SynError(f"{fname}: the path is empty")
    if "\0" in path:
        raise SynError(f"{fname}: a path cannot contain a NUL character")
    real = resolve_path(path, rt.cwd)
    rt.check_cap(cap, real, grant(cap, path))
    return real


def _failure(fname: str, path: str, problem: OSError) -> SynError:
    reasons = {
        FileNotFoundError: "no such file or directory",
        IsADirectoryError: "it is a directory",
        NotADirectoryError: "not a directory",
        PermissionError: "permission denied",
    }
    reason = reasons.get(type(problem), problem.strerror or str(problem))
    return SynError(f"{fname}: cannot access {path}: {reason}")


def _count(fname: str, what: str, value) -> int | None:
    if value is None:
        return None
    if type(value) is not int:
        raise wrong_type(fname, f"{what} as a whole number", value)
    if value < 0:
        raise SynError(f"{fname}: {what} must be 0 or more, got {value}")
    return value


@builtin("read_file", 1, 3, cap="file.read")
def read_file(rt, path, offset=None, limit=None):
    """The file's text; with `offset` (1-based line) and `limit` (at most that many lines), a line
    range with its line ends kept: `read_file(f, 1, 100)` is lines 1–100.

    Example: write_file("notes.txt", "hello") => nothing
    Example: read_file("notes.txt") => "hello"
    """
    first = _count("read_file", "offset", offset)
    if first is not None and first < 1:
        raise SynError(f"read_file: offset is a line number starting at 1, got {first}")
    first = (first or 1) - 1
    count = _count("read_file", "limit", limit)
    real = _path(rt, "read_file", path, "file.read")
    try:
        with open(real, encoding="utf-8", newline="") as handle:
            text = handle.read()
    except UnicodeDecodeError:
        raise SynError(f"read_file: {real} is not UTF-8 text") from None
    except OSError as problem:
        raise _failure("read_file", real, problem) from None
    if offset is None and limit is None:
        return text
    lines = text.splitlines(keepends=True)
    return "".join(lines[first:] if count is None else lines[first:first + count])


def _replace_atomically(fname: str, real: str, text, keep_existing: bool) -> None:
    """Write `text` (after the current content when `keep_existing`) so the change is all or nothing."""
    if type(text) is not str:
        raise wrong_type(fname, "text to write", text)
    directory, base = os.path.split(real)
    import secrets  # for the few builtins that write files: not an import of every run
    temp = os.path.join(directory, f".{base}.{secrets.token_hex(6)}.tmp")
    try:
        mode = os.stat(real).st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    except OSError as problem:
        raise _failure(fname, real, problem) from None
    named = not _can_name_later(directory)
    if not named:
        descriptor = os.open(directory, os.O_TMPFILE | os.O_WRONLY, 0o666)
    else:
        try:
            descriptor = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # umask applies
        except OSError as problem:
            raise _failure(fname, real if os.path.isdir(directory) else directory, problem) from None
    try:
        with os.fdopen(descriptor, "wb") as handle:
            if keep_existing and mode is not None:
                import shutil  # only for this rare case, not at every start
                with open(real, "rb") as current:
                    shutil.copyfileobj(current, handle)
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
            if mode is not None:
                os.fchmod(handle.fileno(), mode)
            if not named:  # complete: only now does it get a name, next to the target
                _give_name(handle.fileno(), temp)
                named = True
        os.replace(temp, real)
    except BaseException as problem:
        if named:
            try:
                os.unlink(temp)
            except OSError:
                pass
        if isinstance(problem, OSError):
            raise _failure(fname, real, problem) from None
        raise


_AT_FDCWD = -100
_AT_EMPTY_PATH = 0x1000
_naming: dict[int, bool] = {}  # per file system (st_dev): can an O_TMPFILE file be named later?


def _give_name(descriptor: int, path: str) -> None:
    """Link the unnamed file open on `descriptor` at `path` (the two ways open(2) documents)."""
    try:
        os.link(f"/proc/self/fd/{descriptor}", path, follow_symlinks=True)
        return
    except OSError:
        pass
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.linkat(descriptor, b"", _AT_FDCWD, os.fsencode(path), _AT_EMPTY_PATH) != 0:
        number = ctypes.get_errno()
        raise OSError(number, os.strerror(number), path)


def _can_name_later(directory: str) -> bool:
    """Whether files written in `directory` can start unnamed (O_TMPFILE) and be named once
    complete; tried once per file system with an empty probe file."""
    if not hasattr(os, "O_TMPFILE"):
        return False
    try:
        device = os.stat(directory).st_dev
    except OSError:
        return False
    known = _naming.get(device)
    if known is not None:
        return known
    import secrets
    probe = os.path.join(directory, f".synsema-probe.{secrets.token_hex(6)}")
    try:
        descriptor = os.open(directory, os.O_TMPFILE | os.O_WRONLY, 0o600)
    except OSError:
        _naming[device] = False
        return False
    try:
        _give_name(descriptor, probe)
        os.unlink(probe)
        _naming[device] = True
    except OSError:
        _naming[device] = False
    finally:
        os.close(descriptor)
    return _naming[device]


@builtin("write_file", 2, cap="file.write")
def write_file(rt, path, text):
    """Replace the file's content with `text` (created if missing), atomically.

    Example: write_file("out.txt", "done") => nothing
    Example: read_file("out.txt") => "done"
    """
    _replace_atomically("write_file", _path(rt, "write_file", path, "file.write"), text, False)


@builtin("append_file", 2, cap="file.write")
def append_file(rt, path, text):
    """Add `text` at the end of the file (created if missing), atomically like write_file.

    Example: append_file("log.txt", "one ") => nothing
    Example: append_file("log.txt", "two") => nothing
    Example: read_file("log.txt") => "one two"
    """
    _replace_atomically("append_file", _path(rt, "append_file", path, "file.write"), text, True)


@builtin("file_exists", 1, cap="file.read")
def file_exists(rt, path):
    """Whether a file or directory exists at `path`.

    Example: file_exists("no-such-file.txt") => false
    """
    return os.path.exists(_path(rt, "file_exists", path, "file.read"))


@builtin("delete_file", 1, cap="file.write")
def delete_file(rt, path):
    """Remove a file (not a directory).

    A missing file is an error: a delete that finds nothing usually means the path is wrong.

    Example: write_file("gone.txt", "x") => nothing
    Example: delete_file("gone.txt") => nothing
    Example: file_exists("gone.txt") => false
    """
    real = _path(rt, "delete_file", path, "file.write")
    if os.path.isdir(real):
        raise SynError(f"delete_file: {real} is a directory; delete_file removes files only")
    try:
        os.unlink(real)
    except OSError as problem:
        raise _failure("delete_file", real, problem) from None


@builtin("list_dir", 1, cap="file.read")
def list_dir(rt, path):
    """The names in a directory, sorted, without `.` and `..`.

    Example: write_file("a.txt", "") => nothing
    Example: contains(list_dir("."), "a.txt") => true
    """
    real = _path(rt, "list_dir", path, "file.read")
    try:
        return sorted(os.listdir(real))
    except OSError as problem:
        raise _failure("list_dir", real, problem) from None


@builtin("env", 1, 2, cap="env")
def env(rt, name, default=_UNSET):
    """The environment variable `name`; when it is not set, `default`, or an error without one.

    Fail loud: a missing setting is found at the line that needs it, not later as nothing.

    Example: env("SYNSEMA_EXAMPLE_UNSET", "fallback") => "fallback"
    Example: env("SYNSEMA_EXAMPLE_UNSET") => error: env: SYNSEMA_EXAMPLE_UNSET is not set
    """
    if type(name) is not str:
        raise wrong_type("env", "a variable name as text", name)
    if "\0" in name:
        raise SynError("env: a variable name cannot contain a NUL character")
    rt.check_cap("env", name)
    value = os.environ.get(name)
    if value is not None:
        return value
    if default is _UNSET:
        raise SynError(f"env: {name} is not set — set it in the environment, or pass a default: "
                       f"env(\"{name}\", default)")
    return default
