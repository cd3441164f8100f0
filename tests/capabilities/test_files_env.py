"""File and environment builtins through the real CLI: results, atomic writes, clear failures."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from .cli import REPO, run_program


def run(tmp_path, source: str, *flags, env=None):
    return run_program(source, tmp_path, *flags, env=env)


@pytest.fixture
def lines(tmp_path):
    (tmp_path / "l.txt").write_text("one\ntwo\r\nthree\nfour")
    return tmp_path


@pytest.mark.parametrize("call, expected", [
    ('read_file("l.txt")', b"one\ntwo\r\nthree\nfour"),
    ('read_file("l.txt", 1)', b"one\ntwo\r\nthree\nfour"),
    ('read_file("l.txt", 2)', b"two\r\nthree\nfour"),
    ('read_file("l.txt", 2, 2)', b"two\r\nthree\n"),
    ('read_file("l.txt", 1, 0)', b""),
    ('read_file("l.txt", 9)', b""),
    ('read_file("l.txt", 4, 5)', b"four"),
    ('read_file("l.txt", nothing, 1)', b"one\n"),
])
def test_read_file_offset_and_limit_count_lines_and_keep_line_ends(lines, call, expected):
    result = run(lines, f'require file(".")\nwrite_file("got.txt", {call})\n')
    assert result.code == 0, result
    assert (lines / "got.txt").read_bytes() == expected


@pytest.mark.parametrize("call, message", [
    ('read_file("missing.txt")', "read_file: cannot access {tmp}/missing.txt: no such file or directory"),
    ('read_file(".")', "read_file: cannot access {tmp}: it is a directory"),
    ('read_file("bin.dat")', "read_file: {tmp}/bin.dat is not UTF-8 text"),
    ('read_file("l.txt", -1)', "read_file: offset must be 0 or more, got -1"),
    ('read_file("l.txt", 0)', "read_file: offset is a line number starting at 1, got 0"),
    ('read_file("l.txt", 1, 1.5)', "read_file expects limit as a whole number, got number"),
    ("read_file(3)", "read_file expects a path as text, got number"),
    ('read_file("")', "read_file: the path is empty"),
    ('list_dir("missing")', "list_dir: cannot access {tmp}/missing: no such file or directory"),
    ('list_dir("l.txt")', "list_dir: cannot access {tmp}/l.txt: not a directory"),
    ('write_file("no/such/dir/x.txt", "x")', "write_file: cannot access {tmp}/no/such/dir: no such file or directory"),
    ('write_file("sub", "x")', "write_file: cannot access {tmp}/sub: it is a directory"),
    ('write_file("w.txt", 5)', "write_file expects text to write, got number"),
    ("env(5)", "env expects a variable name as text, got number"),
])
def test_failures_are_language_errors(lines, call, message):
    (lines / "bin.dat").write_bytes(b"\xff\xfe\x00")
    (lines / "sub").mkdir()
    result = run(lines, f'require file("."), env\nprint({call})\n')
    assert result.code == 1 and "Traceback" not in result.err, result
    assert message.format(tmp=os.path.realpath(lines)) in result.err, result
    assert not [name for name in os.listdir(lines) if name.endswith(".tmp")]


def test_write_file_replaces_and_gives_nothing(tmp_path):
    (tmp_path / "out").mkdir()
    result = run(tmp_path, """require file("out")
print(write_file("out/a.txt", "first"))
write_file("out/a.txt", "second ✓")
print(read_file("out/a.txt"))
print(list_dir("out"))
""")
    assert (result.code, result.out) == (0, 'nothing\nsecond ✓\n["a.txt"]\n'), result


def test_write_keeps_the_mode_of_an_existing_file_and_gives_new_files_the_umask_default(tmp_path):
    (tmp_path / "private.txt").write_text("x")
    os.chmod(tmp_path / "private.txt", 0o600)
    result = run(tmp_path, 'require file.write(".")\nwrite_file("private.txt", "y")\nwrite_file("new.txt", "z")\n')
    assert result.code == 0, result
    assert (tmp_path / "private.txt").stat().st_mode & 0o777 == 0o600
    umask = os.umask(0)
    os.umask(umask)
    assert (tmp_path / "new.txt").stat().st_mode & 0o777 == 0o666 & ~umask


def test_write_through_a_symlink_updates_the_target_and_keeps_the_link(tmp_path):
    (tmp_path / "real.txt").write_text("old")
    (tmp_path / "link.txt").symlink_to(tmp_path / "real.txt")
    result = run(tmp_path, 'require file(".")\nwrite_file("link.txt", "new")\n')
    assert result.code == 0, result
    assert (tmp_path / "link.txt").is_symlink() and (tmp_path / "real.txt").read_text() == "new"


def test_append_file_creates_then_appends(tmp_path):
    result = run(tmp_path, """require file(".")
append_file("log.txt", "a\\n")
append_file("log.txt", "b\\n")
print(read_file("log.txt", 2))
""")
    assert (result.code, result.out) == (0, "b\n\n"), result
    assert (tmp_path / "log.txt").read_text() == "a\nb\n"
    assert set(os.listdir(tmp_path)) == {"log.txt", "prog.syn"}  # no temporary file left behind


def test_file_exists_and_list_dir(tmp_path):
    (tmp_path / "d").mkdir()
    for name in ("b.txt", "a.txt", ".hidden"):
        (tmp_path / "d" / name).write_text("")
    result = run(tmp_path, """require file.read("d")
print(file_exists("d/a.txt"), file_exists("d/zzz"), file_exists("d"))
print(list_dir("d"))
""")
    assert (result.code, result.out) == (0, 'true false true\n[".hidden", "a.txt", "b.txt"]\n'), result


def test_file_exists_is_gated_too(tmp_path):
    result = run(tmp_path, 'print(file_exists("/etc/passwd"))\n')
    assert result.code == 1 and 'Capability not granted: file_read("/etc/passwd")' in result.err


def test_home_and_relative_paths(tmp_path):
    home = tmp_path / "home"
    (home / "notes").mkdir(parents=True)
    (home / "notes" / "a.txt").write_text("from home")
    result = run(tmp_path, 'require file.read("~/notes")\nprint(read_file("~/notes/a.txt"))\n'
                           'print(read_file("home/notes/a.txt"))\n', env={"HOME": str(home)})
    assert (result.code, result.out) == (0, "from home\nfrom home\n"), result


def test_env_reads_granted_names(tmp_path):
    result = run(tmp_path, """require env("APP_*")
print(env("APP_NAME"))
print(env("APP_MISSING", "fallback"))
print(env("APP_MISSING", nothing))
print(env("APP_MISSING"))
""", env={"APP_NAME": "demo"})
    assert (result.code, result.out) == (1, "demo\nfallback\nnothing\n"), result
    assert result.err == ('Runtime error: prog.syn:5:7: env: APP_MISSING is not set — set it in the '
                          'environment, or pass a default: env("APP_MISSING", default)\n'
                          '  5 | print(env("APP_MISSING"))\n    |       ^^^\n'), result


def test_an_interrupted_write_leaves_the_old_or_the_new_file_never_half(tmp_path):
    size = 4_000_000
    (tmp_path / "a.txt").write_text("a" * size)
    (tmp_path / "b.txt").write_text("b" * size)
    (tmp_path / "out.txt").write_text("a" * size)
    (tmp_path / "prog.syn").write_text("""require file.read("a.txt"), file.read("b.txt"), file.write("out.txt")
let a be read_file("a.txt")
let b be read_file("b.txt")
while true
    write_file("out.txt", b)
    write_file("out.txt", a)
""")
    proc = subprocess.Popen([sys.executable, "-m", "synsema", "run", "prog.syn"], cwd=tmp_path,
                            env={**os.environ, "PYTHONPATH": str(REPO)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while (tmp_path / "out.txt").read_text()[:1] != "b" and time.monotonic() < deadline:
            time.sleep(0.01)  # wait until the loop is really writing
        time.sleep(0.37)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    content = (tmp_path / "out.txt").read_text()
    assert len(content) == size and content in ("a" * size, "b" * size)
