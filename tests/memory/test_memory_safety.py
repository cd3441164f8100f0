"""Persistent memory under an adversary: the ceiling and its edges (a table, Deno-style), labels
kept across runs and writes refused under private control flow, secrets never stored, and
names, folders and files prepared to trick it."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from conftest import run_synsema

WRITE = 'remember("context", "x")\nprint(length(recall()))\n'


def run(tmp_path: Path, source: str, *flags: str, name: str = "p.syn"):
    (tmp_path / name).write_text(source, encoding="utf-8")
    return run_synsema("run", *flags, name, cwd=tmp_path)


# (what the program requires, the host's flags, granted?, a fragment of the refusal)
CEILING_TABLE = [
    ('require memory("notes")', [], True, ""),
    ('require memory("notes")', ["--cap-set", "stdout,memory=notes"], True, ""),
    ('require memory("notes")', ["--cap-set", "stdout,memory"], True, ""),
    ('require memory("notes")', ["--cap-set", "stdout,memory=*"], True, ""),
    ('require memory("notes")', ["--cap-set", "stdout,memory=no*"], True, ""),
    ('require memory("notes")', ["--cap-set", "stdout,memory=notes2"], False, "above the host ceiling"),
    ('require memory("notes")', ["--cap-set", "stdout,memory=shop-*"], False, "above the host ceiling"),
    ('require memory("notes")', ["--cap-set", "stdout,memory=Notes"], False, "above the host ceiling"),
    ('require memory("notes")', ["--cap-set", "stdout"], False, "above the host ceiling"),
    ('require memory("notes")', ["--sandbox"], False, "above the host ceiling"),
    ("", [], False, 'add require memory("notes")'),
    ('require memory("other")\nrequire memory("notes")', [], False, "the memory builtins use one"),
    ('require memory("no*")', [], False, 'add require memory("notes")'),
]


@pytest.mark.parametrize("required, flags, granted, refusal", CEILING_TABLE,
                         ids=[f"{r or 'none'} {' '.join(f) or 'no ceiling'}" for r, f, _, _ in CEILING_TABLE])
def test_the_ceiling_table(tmp_path, required, flags, granted, refusal):
    result = run(tmp_path, required + "\n" + WRITE, *flags)
    if granted:
        assert (result.returncode, result.stdout) == (0, "1\n"), result.stderr
    else:
        assert result.returncode == 1 and refusal in result.stderr, result.stderr
        assert not (tmp_path / ".synsema" / "memory" / "notes.db").exists()


def test_the_project_files_ceiling_bounds_memory_too(tmp_path):
    (tmp_path / "synsema.toml").write_text('[host]\ncap_set = ["stdout", "memory=other"]\n')
    refused = run(tmp_path, 'require memory("notes")\n' + WRITE)
    assert refused.returncode == 1 and "above the host ceiling" in refused.stderr
    (tmp_path / "synsema.toml").write_text('[host]\ncap_set = ["stdout", "memory=notes"]\n')
    assert run(tmp_path, 'require memory("notes")\n' + WRITE).stdout == "1\n"


def test_call_tool_and_sandbox_narrow_memory_like_any_capability(tmp_path):
    source = ('require memory("notes")\n'
              'task undeclared()\n    give remember("context", "from a tool")\n'
              'task declared()\n    require memory("notes")\n    give remember("context", "declared")\n'
              'print(starts_with(call_tool(declared, {}), "mem_"))\n'
              'try\n    call_tool(undeclared, {})\nrecover problem\n    print(problem)\n'
              'try\n    sandbox\n        remember("context", "sandboxed")\nrecover problem\n    print(problem)\n')
    result = run(tmp_path, source)
    lines = result.stdout.splitlines()
    assert lines[0] == "true", result.stderr
    assert lines[1].startswith('Capability not granted: memory("notes")') and "call_tool" in lines[1]
    assert lines[2].startswith('Capability not granted: memory("notes")')


@pytest.mark.parametrize("name", ["../x", "a/b", ".hidden", "", "x.db", "notes/../../etc", "a" * 65,
                                  "con\u0000", "café"])
def test_a_memory_name_is_an_identifier_never_a_path(tmp_path, name):
    quoted = name.replace("\\", "\\\\").replace('"', '\\"').replace("\u0000", "\\u0000")
    result = run(tmp_path, f'require memory("{quoted}")\nprint(1)\n')
    assert result.returncode == 1 and result.stdout == ""
    assert "Traceback" not in result.stderr and ("not allowed" in result.stderr or "empty" in result.stderr)
    assert not (tmp_path / ".synsema").exists()


def test_a_ceiling_item_with_a_path_for_a_name_is_a_usage_error(tmp_path):
    result = run(tmp_path, 'require memory("notes")\n' + WRITE, "--cap-set", "stdout,memory=../x")
    assert result.returncode == 2 and "not allowed" in result.stderr


def test_file_builtins_cannot_reach_the_memory_folder(tmp_path):
    assert run(tmp_path, 'require memory("notes")\n' + WRITE).returncode == 0
    for call in ('write_file(".synsema/memory/notes.db", "forged")', 'read_file(".synsema/memory/notes.db")',
                 'delete_file(".synsema/memory/notes.db")', 'list_dir(".synsema/memory")'):
        result = run(tmp_path, f'require file("./*")\nrequire file(".")\n{call}\n', name="q.syn")
        assert result.returncode == 1 and "part of the host's configuration" in result.stderr, (call, result.stderr)


def _prepared(tmp_path: Path, make) -> str:
    folder = tmp_path / ".synsema" / "memory"
    folder.mkdir(parents=True)
    make(folder)
    result = run(tmp_path, 'require memory("notes")\n' + WRITE)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    return result.stderr


def test_a_symlinked_memory_file_is_refused_and_its_target_untouched(tmp_path):
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep me")
    stderr = _prepared(tmp_path, lambda folder: (folder / "notes.db").symlink_to(target))
    assert "is a symbolic link" in stderr and target.read_text() == "keep me"


def test_a_symlinked_side_file_is_refused(tmp_path):
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep me")

    def make(folder):
        sqlite3.connect(folder / "seed.db").close()
        (folder / "notes.db-wal").symlink_to(target)
    stderr = _prepared(tmp_path, make)
    assert "wal file" in stderr or "not a SQLite" in stderr
    assert target.read_text() == "keep me"


def test_a_memory_file_that_is_not_sqlite_is_refused_unchanged(tmp_path):
    stderr = _prepared(tmp_path, lambda folder: (folder / "notes.db").write_text("hello, I am a text file"))
    assert "is not a SQLite database" in stderr
    assert (tmp_path / ".synsema" / "memory" / "notes.db").read_text() == "hello, I am a text file"


def test_a_sqlite_file_of_another_schema_is_refused(tmp_path):
    def make(folder):
        with sqlite3.connect(folder / "notes.db") as db:
            db.execute("CREATE TABLE entries (x)")
            db.execute("CREATE TABLE rules (x)")
            db.execute("CREATE TABLE steps (x)")
            db.execute("CREATE TRIGGER t AFTER INSERT ON entries BEGIN DELETE FROM rules; END")
            db.execute("PRAGMA user_version = 1")
    assert "not a synsema memory file" in _prepared(tmp_path, make)


def test_a_memory_file_of_the_right_schema_but_forged_rows_is_refused(tmp_path):
    assert run(tmp_path, 'require memory("notes")\n' + WRITE).returncode == 0
    database = tmp_path / ".synsema" / "memory" / "notes.db"
    for forged in ("UPDATE entries SET tags = 'not json'", "UPDATE entries SET tags = '[1]'",
                   "UPDATE entries SET content = x'00ff'", "UPDATE entries SET labels = '{}'"):
        with sqlite3.connect(database) as db:
            db.execute("DELETE FROM entries")
            db.execute("INSERT INTO entries (category, content, tags, labels, source, created, updated, active) "
                       "VALUES ('context', 'x', '[]', '', 'main', 0, 0, 1)")
            db.execute(forged)
        result = run(tmp_path, 'require memory("notes")\nprint(recall())\n', name="q.syn")
        assert result.returncode == 1 and "a value synsema did not write" in result.stderr, (forged, result.stderr)


def test_a_symlinked_memory_folder_is_refused(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (tmp_path / ".synsema").mkdir()
    (tmp_path / ".synsema" / "memory").symlink_to(outside)
    result = run(tmp_path, 'require memory("notes")\n' + WRITE)
    assert result.returncode == 1 and "is not a folder" in result.stderr
    assert list(outside.iterdir()) == []


def test_a_huge_value_is_refused_before_anything_is_written(tmp_path):
    source = ('require memory("notes")\nremember("context", "small")\n'
              'let big be "x"\nwhile length(big) < 70000\n    set big to big + big\n'
              'try\n    remember("context", big)\nrecover problem\n    print(problem)\n'
              'try\n    add_rule("r", "must", big)\nrecover problem\n    print(problem)\n'
              'print(length(recall()))\n')
    result = run(tmp_path, source)
    lines = result.stdout.splitlines()
    assert "a memory value may hold at most 65,536 bytes" in lines[0], result.stderr
    assert "a memory value may hold at most 65,536 bytes" in lines[1]
    assert lines[2] == "1"


def test_an_oversized_memory_file_is_refused(tmp_path):
    def make(folder):
        with open(folder / "notes.db", "wb") as handle:
            handle.write(b"SQLite format 3\x00")
            handle.truncate(20 * 1024 * 1024)
    assert "more than a memory file may hold" in _prepared(tmp_path, make)


def test_a_secret_is_never_stored(tmp_path):
    source = ('require memory("notes")\nrequire secret("API_KEY")\n'
              'let key be secret("API_KEY", "sk-live-123")\n'
              'try\n    remember("context", [key])\nrecover problem\n    print(problem)\n'
              'try\n    complete_step("t", "s", key)\nrecover problem\n    print(problem)\n')
    result = run(tmp_path, source)
    lines = result.stdout.splitlines()
    assert all("a secret cannot be stored in memory" in line for line in lines) and len(lines) == 2, result
    database = tmp_path / ".synsema" / "memory" / "notes.db"
    assert not database.exists() or b"sk-live-123" not in database.read_bytes()


# ---------------------------------------------------------------- labels

def test_a_private_value_stays_private_in_a_later_run(tmp_path):
    first = run(tmp_path, 'require memory("notes")\n'
                'remember("context", private("the PIN is 4321", "owner"), ["pin"])\n'
                'remember("context", "a public fact", ["public"])\n', "--labels")
    assert first.returncode == 0, first.stderr
    database = (tmp_path / ".synsema" / "memory" / "notes.db").read_bytes()
    assert b'["owner"]' in database
    later = run(tmp_path, 'require memory("notes")\nrequire file.write("./*")\n'
                'let pin be recall("context", ["pin"])[0]\n'
                'print(pin.content)\nprint(recall("context", ["public"])[0].content)\n'
                'write_file("leak.txt", pin.content)\n',
                "--labels", name="q.syn")
    assert later.stdout.splitlines()[:2] == ["private()", "a public fact"]
    assert "4321" not in later.stdout + later.stderr
    assert later.returncode == 1 and "label_violation" in later.stderr
    assert not (tmp_path / "leak.txt").exists()


def test_without_labels_a_private_entry_is_refused_never_shown(tmp_path):
    run(tmp_path, 'require memory("notes")\nremember("context", private("4321", "owner"))\n', "--labels")
    result = run(tmp_path, 'require memory("notes")\nprint(recall())\n', name="q.syn")
    assert result.returncode == 1 and "run with --labels" in result.stderr
    assert "4321" not in result.stdout + result.stderr
    searched = run(tmp_path, 'require memory("notes")\nprint(length(recall(nothing, nothing, "43")))\n',
                   name="s.syn")
    assert searched.returncode == 1 and "4321" not in searched.stdout + searched.stderr


def test_a_search_through_private_contents_is_private(tmp_path):
    run(tmp_path, 'require memory("notes")\nremember("context", private("4321", "owner"))\n', "--labels")
    result = run(tmp_path, 'require memory("notes")\nlet found be recall(nothing, nothing, "43")\n'
                 'print(length(found))\nprint(found)\n', "--labels", name="q.syn")
    assert result.stdout == "private()\nprivate()\n", result.stderr


@pytest.mark.parametrize("secret", ["1", "9"])
def test_a_write_under_a_private_branch_is_refused_and_leaves_no_trace(tmp_path, secret):
    """Noninterference (termination-insensitive, as for every sink): whatever the secret, the memory
    a later run sees is the same; where the branch runs, the write is refused before it happens."""
    source = ('require memory("notes")\nremember("context", "before")\n'
              f'let s be private({secret}, "owner")\n'
              'when s > 5\n    remember("context", "the secret is big")\n'
              'print("after")\n')
    result = run(tmp_path, source, "--labels")
    if secret == "9":
        assert result.returncode == 1 and result.stdout == ""
        assert "label_violation: remember() would change the program's persistent memory (every later " \
               "run reads it) under private control flow" in result.stderr
    else:
        assert (result.returncode, result.stdout) == (0, "after\n")
    later = run(tmp_path, 'require memory("notes")\nprint(apply(recall(), (e) => e.content))\n', name="q.syn")
    assert later.stdout == '["before"]\n'


@pytest.mark.parametrize("call", [
    'forget_memory(private("mem_1", "owner"))',
    'remember("context", "x", [private("tag", "owner")])',
    'create_progress(private("job", "owner"), ["a"])',
    'add_rule(private("r", "owner"), "must", "x <= 1")',
])
def test_what_decides_which_record_changes_must_be_public(tmp_path, call):
    result = run(tmp_path, f'require memory("notes")\nremember("context", "kept")\n{call}\n', "--labels")
    assert result.returncode == 1 and "decides which record of the memory changes" in result.stderr
    assert run(tmp_path, 'require memory("notes")\nprint(length(recall()))\n', name="q.syn").stdout == "1\n"


def test_private_results_and_descriptions_come_back_private(tmp_path):
    first = run(tmp_path, 'require memory("notes")\n'
                'add_rule("cap", "must", private("discount <= 0.1", "owner"), "pricing")\n'
                'create_progress("job", ["a"])\ncomplete_step("job", "a", private("secret result", "owner"))\n',
                "--labels")
    assert first.returncode == 0, first.stderr
    later = run(tmp_path, 'require memory("notes")\n'
                'print(check_rules("pricing", {discount: 0.5}))\n'
                'print(get_rules()[0].description)\n'
                'print(progress_display("job"))\nprint(resume_point("job"))\n',
                "--labels", name="q.syn")
    assert later.stdout == "private()\nprivate()\nprivate()\nnothing\n", later.stderr


def test_an_error_a_private_argument_decides_is_secret_and_uncaught(tmp_path):
    """A builtin that sees labelled values (flow "raw") still makes its private errors secret."""
    result = run(tmp_path, 'require memory("notes")\ntry\n    recall(nothing, nothing, private(5, "owner"))\n'
                 'recover problem\n    print("caught: " + problem)\nprint("after")\n', "--labels")
    assert result.returncode == 1 and result.stdout == ""
    assert "a runtime error whose message depends on private data" in result.stderr
    assert "expects search as text" not in result.stderr
