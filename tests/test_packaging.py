"""A non-editable install ships every package and the grammar, and runs from anywhere."""

from __future__ import annotations

import subprocess
import sys
import zipfile

from conftest import ROOT, synsema_env


def test_wheel_installs_and_runs_outside_the_checkout(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                    "-w", str(wheels), str(ROOT)], check=True, capture_output=True, timeout=300)
    wheel = next(wheels.glob("synsema-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "grammar/synsema.lark" in names
    for package in ("lang", "runtime", "runtime/llm", "stdlib", "stdlib/math"):
        assert f"{package}/__init__.py" in names
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
