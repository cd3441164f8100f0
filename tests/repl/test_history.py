"""The history file: whole entries, kept across sessions, never corrupted by two sessions at once."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

from synsema.runtime.repl import HistoryFile, history_path

from .conftest import REPO

APPENDER = """
import sys
from synsema.runtime.repl import HistoryFile
store = HistoryFile(sys.argv[1], limit=int(sys.argv[4]))
tag, count = sys.argv[2], int(sys.argv[3])
for i in range(count):
    store.append(f"{tag}-{i}\\n" + "x" * 5000 + f"\\nend {tag}-{i}")
    if tag == "trimmer" and i % 10 == 0:
        store.load()
assert store.problem is None, store.problem
"""


def test_entries_come_back_whole_and_in_order(tmp_path):
    path = str(tmp_path / "synsema" / "repl_history")
    first = HistoryFile(path)
    for entry in ["let x be 1", "task f(n)\n    give n * 2", 'print("héllo ✓ \\"q\\"")']:
        first.append(entry)
    assert HistoryFile(path).load() == ["let x be 1", "task f(n)\n    give n * 2", 'print("héllo ✓ \\"q\\"")']
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    assert [json.loads(line) for line in lines][1] == "task f(n)\n    give n * 2"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600  # entries may hold secrets


def test_lines_that_are_not_entries_are_skipped(tmp_path):
    path = tmp_path / "repl_history"
    path.write_bytes(b'"one"\nnot json\n{"a": 1}\n"tw\xffo"\n"thr')
    assert HistoryFile(str(path)).load() == ["one", "tw\ufffdo"]


def test_a_long_history_is_trimmed_to_the_newest_entries(tmp_path):
    path = str(tmp_path / "repl_history")
    store = HistoryFile(path, limit=10)
    for i in range(12):
        store.append(f"e{i}")
    assert store.load() == [f"e{i}" for i in range(2, 12)]
    assert len(open(path).read().splitlines()) == 12  # within the slack: not rewritten yet
    for i in range(12, 20):
        store.append(f"e{i}")
    assert store.load() == [f"e{i}" for i in range(10, 20)]
    assert len(open(path).read().splitlines()) == 10
    assert sorted(os.listdir(tmp_path)) == ["repl_history", "repl_history.lock"]


def test_sessions_writing_at_once_never_corrupt_or_lose_entries(tmp_path):
    """Three sessions append while a fourth also trims the file, which replaces it by a rename."""
    path = str(tmp_path / "synsema" / "repl_history")
    old = [f"old-{i}" for i in range(1300)]
    os.makedirs(os.path.dirname(path))
    with open(path, "w", encoding="utf-8") as handle:
        handle.writelines(json.dumps(entry) + "\n" for entry in old)
    tags = ["a", "b", "c", "trimmer"]
    writers = [subprocess.Popen([sys.executable, "-c", APPENDER, path, tag, "150", "1000"], cwd=REPO)
               for tag in tags]
    assert [w.wait(timeout=120) for w in writers] == [0, 0, 0, 0]
    with open(path, encoding="utf-8") as handle:
        entries = [json.loads(line) for line in handle]  # every line is one whole entry
    expected = {f"{tag}-{i}\n" + "x" * 5000 + f"\nend {tag}-{i}" for tag in tags for i in range(150)}
    kept = len(entries) - len(expected)
    assert 0 <= kept < len(old)  # trimmed at least once (the trimmer loads first thing)
    assert entries[:kept] == old[len(old) - kept:] and set(entries[kept:]) == expected


def test_an_unwritable_place_is_a_note_not_a_crash(tmp_path):
    (tmp_path / "blocker").write_text("a file where the folder should be")
    store = HistoryFile(str(tmp_path / "blocker" / "synsema" / "repl_history"))
    store.append("let x be 1")
    assert store.load() == []
    assert store.problem.startswith("history is not saved: ")


def test_the_history_lives_in_the_users_data_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert history_path() == str(tmp_path / "data" / "synsema" / "repl_history")
    monkeypatch.setenv("XDG_DATA_HOME", "relative/dir")  # ignored, as the XDG rules say
    assert history_path() == str(tmp_path / "home" / ".local" / "share" / "synsema" / "repl_history")
    monkeypatch.delenv("XDG_DATA_HOME")
    assert history_path() == str(tmp_path / "home" / ".local" / "share" / "synsema" / "repl_history")
