"""A non-editable install ships every package and the grammar, builds without setuptools warning
boxes, registers the Pygments lexer, and runs from anywhere."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from conftest import ROOT, synsema_env


def test_wheel_installs_and_runs_outside_the_checkout(tmp_path):
    """One build (the slow part, ~25 s: pip sets up the isolated setuptools pyproject.toml asks
    for, as every install on a fresh machine does) checks what an installer sees."""
    wheels = tmp_path / "wheels"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(wheels), str(ROOT)],
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    said = built.stdout + built.stderr
    # setuptools frames each deprecation of the project's metadata in a box of 80 stars
    assert "*" * 80 not in said and "Warning:" not in said, said
    wheel = next(wheels.glob("synsema-*.whl"))
    archive = zipfile.ZipFile(wheel)
    names = archive.namelist()
    assert "grammar/synsema.lark" in names
    for package in ("lang", "runtime", "runtime/llm", "stdlib", "stdlib/math"):
        assert f"{package}/__init__.py" in names
    metadata = archive.read("synsema-0.1.0.dist-info/METADATA").decode()
    assert "License-Expression: MIT\n" in metadata and "Classifier: License" not in metadata
    entry_points = archive.read("synsema-0.1.0.dist-info/entry_points.txt").decode()
    assert "[pygments.lexers]\nsynsema = lang.highlight:SynsemaLexer\n" in entry_points
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target),
                    str(wheel)], check=True, capture_output=True, timeout=300)
    program = tmp_path / "hello.syn"
    program.write_text('print("from the wheel", 6 * 7)\n', encoding="utf-8")
    env = synsema_env()
    env["PYTHONPATH"] = str(target)
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")  # a cold grammar cache
    probe = "import runtime, sys; from runtime.cli import main; print(runtime.__file__); sys.exit(main())"
    result = subprocess.run([sys.executable, "-c", probe, "run", str(program)], capture_output=True,
                            text=True, env=env, cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr
    location, output = result.stdout.splitlines()
    assert location.startswith(str(target))
    assert output == "from the wheel 42"


PYGMENTIZE = Path(sys.executable).with_name("pygmentize")


def test_pygmentize_finds_the_lexer_by_name_and_by_file_name(tmp_path):
    """The installed entry point (pyproject's pygments.lexers) is what `pygmentize` looks up."""
    program = tmp_path / "greet.syn"
    program.write_text('task greet(name)\n    give "hi " + name  -- a greeting\n', encoding="utf-8")
    by_name = subprocess.run([str(PYGMENTIZE), "-l", "synsema", "-f", "raw", str(program)],
                             capture_output=True, text=True, timeout=60)
    assert by_name.returncode == 0, by_name.stderr
    tokens = by_name.stdout.splitlines()
    assert "Token.Keyword\t'task'" in tokens and "Token.Comment.Single\t'-- a greeting'" in tokens
    guessed = subprocess.run([str(PYGMENTIZE), "-N", str(program)], capture_output=True, text=True, timeout=60)
    assert guessed.stdout == "synsema\n"


def test_make_test_never_installs_the_bench_extra_and_make_bench_does():
    """The peers of bench/run.py are the `bench` extra; `make -n -B` prints every recipe the
    target would run from scratch, without running any."""
    def recipes(target: str) -> str:
        done = subprocess.run(["make", "-n", "-B", target], cwd=ROOT, capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout
    assert "bench" not in recipes("test")
    assert "-e '.[test,bench]'" in recipes("bench")
    extras = (ROOT / "pyproject.toml").read_text()
    assert 'bench = ["asteval~=' in extras
