"""Persistent memory: one SQLite file per memory name, in a folder the host chooses.

`require memory("notes")` names the program's memory; its builtins (stdlib/memory.py) store and
read entries, owner rules and task progress in `<memory dir>/notes.db`. This module owns the
file: where it is, whether it may be opened, its schema, its bounds, and how a write reaches it.

* **Where.** The host sets the folder (`--memory-dir`, `SYNSEMA_MEMORY_DIR`, `[host] memory_dir`);
  by default `.synsema/memory` in the project (the folder of synsema.toml, else of the program).
  A script never chooses a path: it names a memory, and a name is an identifier (`NAME_RULE`),
  so no name reaches outside the folder. File builtins may not touch the folder
  (runtime.capabilities.HostFiles), so a script cannot forge an entry or its labels.
* **Opening** treats the folder as written by an adversary: the folder, the file and SQLite's side
  files must be what they claim (no symlink, a regular file, a SQLite header), the file no larger
  than the file bound, and its schema exactly this module's (no trigger, view or other table that
  would run or hide something); anything else is refused with a message naming the file.
* **Writing** is one SQLite transaction per builtin call (`BEGIN IMMEDIATE … COMMIT`, write-ahead
  log, `synchronous=FULL`): a run killed at any instant leaves the file as it was before the call
  or after it, never between. Writers in other processes wait up to BUSY_TIMEOUT seconds for the
  lock; `parallel_map`'s items write one at a time (runtime.concurrency).
* **Bounds**, checked before anything is written: a value (an entry's content, a rule's
  description, a step's result) at most MAX_VALUE_BYTES in UTF-8, a file at most MAX_FILE_BYTES
  (also enforced by SQLite itself through `max_page_count`).
"""

from __future__ import annotations

import json
import os
import re
import stat

from synsema.lang.errors import SynError
from synsema.runtime.capabilities import MEMORY_NAME as NAME_RULE

SUFFIX = ".db"
MAX_VALUE_BYTES = 64 * 1024
MAX_FILE_BYTES = 16 * 1024 * 1024
BUSY_TIMEOUT = 10.0
_HEADER = b"SQLite format 3\x00"
_FORMAT = 1   # PRAGMA user_version of the files this module writes
_SIDE_FILES = ("-wal", "-shm", "-journal")

_SCHEMA = (
    "CREATE TABLE entries (seq INTEGER PRIMARY KEY AUTOINCREMENT, category TEXT NOT NULL, "
    "content TEXT NOT NULL, tags TEXT NOT NULL, labels TEXT NOT NULL, source TEXT NOT NULL, "
    "created REAL NOT NULL, updated REAL NOT NULL, active INTEGER NOT NULL)",
    "CREATE TABLE rules (name TEXT PRIMARY KEY, level TEXT NOT NULL, description TEXT NOT NULL, "
    "condition TEXT, category TEXT NOT NULL, labels TEXT NOT NULL, active INTEGER NOT NULL, "
    "seq INTEGER NOT NULL)",
    "CREATE TABLE steps (task TEXT NOT NULL, position INTEGER NOT NULL, step TEXT NOT NULL, "
    "status TEXT NOT NULL, result TEXT, error TEXT, labels TEXT NOT NULL, "
    "PRIMARY KEY (task, position))",
)
# What sqlite_master may hold, exactly: the tables above as written, their automatic indexes,
# AUTOINCREMENT's table. A file holding anything else (a trigger, a view, a column default that
# calls a function) was not made here.
_EXPECTED = {("table", "entries", _SCHEMA[0]), ("table", "rules", _SCHEMA[1]), ("table", "steps", _SCHEMA[2]),
             ("table", "sqlite_sequence", "CREATE TABLE sqlite_sequence(name,seq)"),
             ("index", "sqlite_autoindex_rules_1", None), ("index", "sqlite_autoindex_steps_1", None)}


def check_name(name) -> str:
    """A memory name as the program wrote it, or the language error saying what a name may be."""
    if type(name) is not str or not re.fullmatch(NAME_RULE, name):
        shown = json.dumps(name) if type(name) is str else type(name).__name__
        raise SynError(f"memory name {shown[:80]} is not allowed: a memory name is 1 to 64 letters, "
                       "digits, '_' or '-', starting with a letter or digit (it names a file in the "
                       "host's memory folder, never a path)", code="capability")
    return name


def labels_text(labels) -> str:
    return json.dumps(sorted(labels)) if labels else ""


def _texts(text) -> list[str]:
    """A JSON list of texts as stored (tags, labels)."""
    try:
        found = json.loads(text) if type(text) is str else None
    except ValueError:
        found = None
    if type(found) is not list or not all(type(item) is str and item for item in found):
        raise _changed()
    return found


def _changed() -> SynError:
    return SynError("the memory file holds a value synsema did not write (it was changed by something "
                    "else); restore it or delete it", code="memory")


def checked(rows, kinds: str) -> list[tuple]:
    """Rows as read, each column what this module writes there — the file may have been
    prepared by someone else: `i` an integer, `t` a text, `o` a text or NULL, `j` a JSON list of
    texts (answered as the list), `l` labels (answered as principals)."""
    out = []
    for row in rows:
        values = []
        for kind, value in zip(kinds, row):
            if kind == "j":
                value = _texts(value)
            elif kind == "l":
                value = frozenset() if value == "" else frozenset(_texts(value))
            elif not (type(value) is int if kind == "i" else type(value) is str or (kind == "o" and value is None)):
                raise _changed()
            values.append(value)
        out.append(tuple(values))
    return out


def value_size_check(what: str, text: str) -> None:
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_VALUE_BYTES:
        raise SynError(f"{what}: the value is {size:,} bytes; a memory value may hold at most "
                       f"{MAX_VALUE_BYTES:,} bytes (UTF-8) — store a summary, or keep large data in a file")


class Store:
    """The memory `name` in `folder`: each `transaction()` opens the file, checks it, and commits
    or rolls back as one unit."""

    def __init__(self, folder: str, name: str):
        self.folder = folder
        self.name = check_name(name)
        self.path = os.path.join(folder, name + SUFFIX)

    def transaction(self, write: bool):
        return _Transaction(self, write)

    # ---------------------------------------------------------------- checks
    def _refuse(self, why: str) -> SynError:
        return SynError(f"memory {self.name!r} cannot be used: {self.path} {why}", code="memory")

    def _prepare(self, write: bool) -> bool:
        """Check the folder and the file before SQLite opens them; True when the file exists."""
        _make_folder(self.folder, write)
        exists = False
        for path, what in [(self.path + side, f" (its {side[1:]} file)") for side in _SIDE_FILES] + [(self.path, "")]:
            try:
                found = os.lstat(path)
            except FileNotFoundError:
                continue
            except OSError as problem:
                raise self._refuse(f"cannot be inspected{what}: {problem.strerror}") from None
            if not stat.S_ISREG(found.st_mode):
                kind = "a symbolic link" if stat.S_ISLNK(found.st_mode) else "not a regular file"
                raise self._refuse(f"is {kind}{what}; a memory file must be a plain file the host's "
                                   "memory folder holds")
            if not what and found.st_size > MAX_FILE_BYTES + 2 * 1024 * 1024:
                raise self._refuse(f"is {found.st_size:,} bytes, more than a memory file may hold "
                                   f"({MAX_FILE_BYTES:,})")
            exists = not what
        if not exists:
            return False
        with open(self.path, "rb") as handle:
            header = handle.read(len(_HEADER))
        if header and header != _HEADER:
            raise self._refuse("is not a SQLite database, so not a synsema memory file")
        return bool(header)

    def _create(self) -> None:
        try:
            descriptor = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0), 0o600)
        except FileExistsError:
            return   # another process made it meanwhile: open it as found
        except OSError as problem:
            raise self._refuse(f"cannot be created: {problem.strerror}") from None
        os.close(descriptor)

    def _check_schema(self, db) -> None:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        found = set(db.execute("SELECT type, name, sql FROM sqlite_master"))
        if version != _FORMAT or not found <= _EXPECTED or not {row for row in _EXPECTED if row[1] in
                                                                ("entries", "rules", "steps")} <= found:
            raise self._refuse("is a SQLite database but not a synsema memory file (its schema is "
                               "not the one synsema writes)")


def _make_folder(folder: str, write: bool) -> None:
    """The memory folder, made (owner only) when a write needs it; a symlink is refused, as the
    default folder lies in a project folder anyone may have prepared."""
    try:
        found = os.lstat(folder)
    except FileNotFoundError:
        if not write:
            return
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
        except OSError as problem:
            raise SynError(f"the memory folder {folder} cannot be created: {problem.strerror}",
                           code="memory") from None
        return
    if not stat.S_ISDIR(found.st_mode):
        raise SynError(f"the memory folder {folder} is not a folder (a symbolic link or a file); the "
                       "host must point --memory-dir at a real folder", code="memory")


class _Busy(Exception):
    """A lock on a memory file was not had: its opening is tried again (_Transaction)."""


class _Transaction:
    """`with store.transaction(write) as db:` — db is None when reading a memory that does not
    exist yet (it holds nothing)."""

    def __init__(self, store: Store, write: bool):
        self.store = store
        self.write = write
        self.db = None

    def __enter__(self):
        store = self.store
        exists = store._prepare(self.write)
        if not exists and not self.write:
            return None
        if not exists:
            store._create()
        import sqlite3   # on first use: a run without memory never loads it
        import time
        # SQLite's busy handler waits for a lock, but some lock conflicts (seen: switching a new
        # file to WAL while another process opens or closes it) fail at once; the whole opening
        # is then tried again, until BUSY_TIMEOUT has passed. Nothing is written before it ends.
        deadline = time.monotonic() + BUSY_TIMEOUT
        pause = 0.002
        while True:
            try:
                return self._begin(sqlite3, max(deadline - time.monotonic(), 0.001))
            except _Busy:
                if time.monotonic() + pause >= deadline:
                    raise SynError(f"memory {store.name!r} is busy: another process held it for more "
                                   f"than {BUSY_TIMEOUT:g} seconds", code="memory") from None
                time.sleep(pause)
                pause = min(pause * 2, 0.1)

    def _begin(self, sqlite3, wait: float):
        """Open the file and begin this call's transaction: the connection, or None for a read of
        a memory that holds nothing; _Busy when a lock was not had within `wait` seconds."""
        store = self.store
        from urllib.parse import quote
        try:
            db = sqlite3.connect(f"file:{quote(store.path)}?mode=rw", uri=True, timeout=wait,
                                 isolation_level=None, check_same_thread=False)
        except sqlite3.Error as problem:
            raise store._refuse(f"cannot be opened: {problem}") from None
        self.db = db
        try:
            db.execute("PRAGMA trusted_schema = OFF")
            db.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES * 4)
            if self.write:
                db.execute("PRAGMA journal_mode = WAL")
                db.execute("PRAGMA synchronous = FULL")
            page = db.execute("PRAGMA page_size").fetchone()[0]
            db.execute(f"PRAGMA max_page_count = {MAX_FILE_BYTES // page}")
            db.execute("BEGIN IMMEDIATE" if self.write else "BEGIN")
            if db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
                # New, or a first write killed before it committed the schema: empty either way.
                if not self.write:
                    self._close(False)
                    return None
                for statement in _SCHEMA:
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {_FORMAT}")
            else:
                store._check_schema(db)
        except sqlite3.OperationalError as problem:
            self._close(False)
            if "locked" in str(problem) or "busy" in str(problem):
                raise _Busy from None
            raise store._refuse(f"cannot be read: {problem}") from None
        except sqlite3.DatabaseError as problem:
            self._close(False)
            raise store._refuse(f"is damaged or not a SQLite database ({problem})") from None
        except BaseException:
            self._close(False)
            raise
        return db

    def __exit__(self, kind, problem, trace):
        if self.db is None:
            return False
        import sqlite3
        ok = kind is None
        try:
            self._close(ok)
        except sqlite3.DatabaseError as failure:
            if problem is None:
                if "full" in str(failure):
                    raise SynError(f"memory {self.store.name!r} is full: a memory file may hold at most "
                                   f"{MAX_FILE_BYTES:,} bytes; forget entries or use another memory",
                                   code="memory") from None
                raise self.store._refuse(f"could not be written: {failure}") from None
        if isinstance(problem, sqlite3.DatabaseError):
            if "full" in str(problem):
                raise SynError(f"memory {self.store.name!r} is full: a memory file may hold at most "
                               f"{MAX_FILE_BYTES:,} bytes; forget entries or use another memory",
                               code="memory") from None
            raise self.store._refuse(f"is damaged ({problem})") from None
        return False

    def _close(self, commit: bool) -> None:
        db, self.db = self.db, None
        try:
            if db.in_transaction:
                db.execute("COMMIT" if commit else "ROLLBACK")
        finally:
            db.close()


def file_size(db) -> int:
    """Bytes the open memory file holds now (its pages), for the bound checked before a write."""
    return db.execute("PRAGMA page_count").fetchone()[0] * db.execute("PRAGMA page_size").fetchone()[0]


def room_check(store: Store, db, adding: int) -> None:
    """Refuse a write of `adding` bytes that would take the file past MAX_FILE_BYTES."""
    if file_size(db) + adding > MAX_FILE_BYTES:
        raise SynError(f"memory {store.name!r} is full: a memory file may hold at most "
                       f"{MAX_FILE_BYTES:,} bytes; forget entries or use another memory", code="memory")
