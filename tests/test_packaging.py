"""A non-editable install ships every package and the grammar, builds without setuptools warning
boxes, registers the Pygments lexer, and runs from anywhere."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT, synsema_env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """One build (the slow part, ~25 s: pip sets up the isolated setuptools pyproject.toml asks
    for, as every install on a fresh machine does) serves every test of what an installer sees."""
    wheels = tmp_path_factory.mktemp("wheels")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(wheels), str(ROOT)],
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    said = built.stdout + built.stderr
    # setuptools frames each deprecation of the project's metadata in a box of 80 stars
    assert "*" * 80 not in said and "Warning:" not in said, said
    return next(wheels.glob("synsema-*.whl"))


def test_the_wheel_has_one_import_root(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert tops == {"synsema"}
    assert "synsema/grammar/synsema.lark" in names
    assert "synsema/grammar/synsema.tables.json" in names  # the parse tables (lang.tables)
    assert "synsema/stdlib/builtins.json" in names  # the builtin table (stdlib.registry)
    assert "synsema/stdlib/math/plain_ops.json" in names  # the plain math table (stdlib.math.plain)
    packages = {str(path.parent.relative_to(ROOT)) for path in ROOT.glob("*/**/__init__.py")
                if path.parts[len(ROOT.parts)] in ("lang", "runtime", "stdlib", "grammar", "synsema")}
    assert packages, "no package found in the checkout"
    for package in packages:
        inside = package if package.startswith("synsema") else f"synsema/{package}"
        assert f"{inside}/__init__.py" in names, f"{package} is not in the wheel: list it in pyproject.toml"


def test_the_wheel_declares_its_entry_points_inside_the_root(wheel):
    archive = zipfile.ZipFile(wheel)
    info = next(n.split("/")[0] for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
    metadata = archive.read(f"{info}/METADATA").decode()
    assert "License-Expression: MIT\n" in metadata and "Classifier: License" not in metadata
    entry_points = archive.read(f"{info}/entry_points.txt").decode()
    assert "[pygments.lexers]\nsynsema = synsema.lang.highlight:SynsemaLexer\n" in entry_points
    assert "[console_scripts]\nsynsema = synsema.runtime.cli:main\n" in entry_points
    assert "[pytest11]\nsynsema = synsema.runtime.pytest_plugin\n" in entry_points


def test_wheel_installs_and_runs_outside_the_checkout(wheel, tmp_path):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target),
                    str(wheel)], check=True, capture_output=True, timeout=300)
    program = tmp_path / "hello.syn"
    program.write_text('print("from the wheel", 6 * 7)\n', encoding="utf-8")
    env = synsema_env()
    env["PYTHONPATH"] = str(target)
    for command in (["-c", "import synsema.runtime.cli as c, sys; print(c.__file__); sys.exit(c.main())"],
                    ["-c", "import synsema, runpy; print(synsema.__file__); runpy.run_module('synsema', run_name='__main__')"]):
        result = subprocess.run([sys.executable, *command, "run", str(program)], capture_output=True,
                                text=True, env=env, cwd=tmp_path, timeout=120)
        assert result.returncode == 0, result.stderr
        location, output = result.stdout.splitlines()
        assert location.startswith(str(target))
        assert output == "from the wheel 42"


def test_the_installed_tables_are_used_and_damaged_ones_rebuilt(wheel, tmp_path):
    """Installed from the wheel, a run parses with the shipped tables and never imports Lark;
    with the tables file damaged the run still gives the same output, on tables built from the
    grammar (Lark imported for that)."""
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target),
                    str(wheel)], check=True, capture_output=True, timeout=300)
    program = tmp_path / "p.syn"
    program.write_text('task twice(x)\n    give x * 2\n\nprint(`{twice(21)}`)\n', encoding="utf-8")
    probe = ("import sys; from synsema.runtime.cli import main; code = main(['run', sys.argv[1]]); "
             "print(code, 'lark' in sys.modules)")
    env = {**synsema_env(), "PYTHONPATH": str(target)}

    def run() -> list[str]:
        done = subprocess.run([sys.executable, "-c", probe, str(program)], capture_output=True, text=True,
                              env=env, cwd=tmp_path, timeout=120)
        assert done.stderr == ""
        return done.stdout.splitlines()
    assert run() == ["42", "0 False"]
    tables = target / "synsema" / "grammar" / "synsema.tables.json"
    tables.write_text(tables.read_text(encoding="utf-8")[:5000], encoding="utf-8")
    assert run() == ["42", "0 True"]


@pytest.fixture(scope="module")
def core_venv(wheel, tmp_path_factory) -> Path:
    """A clean venv holding the wheel as `pip install synsema` installs it — the core, no extra —
    and pytest: the python of that venv."""
    venv = tmp_path_factory.mktemp("core") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    installed = subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel), "pytest"],
                               capture_output=True, text=True, timeout=900)
    assert installed.returncode == 0, installed.stderr
    return python


def test_another_projects_runtime_and_lang_packages_keep_working(core_venv, tmp_path):
    """The wheel in a clean venv (not editable) beside a project whose own top-level packages are
    named `runtime` and `lang`: its pytest run passes, and its opted-in .syn tests are collected."""
    python = core_venv
    project = tmp_path / "project"
    for package, module, body in (("runtime", "clock.py", "def now():\n    return 42\n"),
                                  ("lang", "errors.py", "class Oops(Exception):\n    pass\n")):
        (project / package).mkdir(parents=True)
        (project / package / "__init__.py").write_text("")
        (project / package / module).write_text(body)
    (project / "test_own.py").write_text(
        "from runtime.clock import now\nfrom lang.errors import Oops\n\n\n"
        "def test_own_packages():\n    assert now() == 42 and issubclass(Oops, Exception)\n")
    (project / "agent.syn").write_text('task double(x)\n    give x * 2\n\ntest "doubles"\n'
                                       '    assert_eq(double(21), 42)\n')
    env = {k: v for k, v in synsema_env().items() if k != "PYTHONPATH"}

    def pytest_run() -> subprocess.CompletedProcess:
        return subprocess.run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=project,
                              capture_output=True, text=True, env=env, timeout=300)
    plain = pytest_run()
    assert plain.returncode == 0, plain.stdout + plain.stderr
    assert "1 passed" in plain.stdout
    (project / "pytest.ini").write_text("[pytest]\nsynsema_files = *.syn\n")
    opted_in = pytest_run()
    assert opted_in.returncode == 0, opted_in.stdout + opted_in.stderr
    assert "2 passed" in opted_in.stdout
    listed = subprocess.run([str(python), "-c", "import runtime, lang; print(runtime.__file__, lang.__file__)"],
                            cwd=project, capture_output=True, text=True, env=env, timeout=60)
    assert listed.stdout.split() == [str(project / "runtime" / "__init__.py"), str(project / "lang" / "__init__.py")]


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
    assert "-e '.[all,test,bench]'" in recipes("bench")
    extras = (ROOT / "pyproject.toml").read_text()
    assert 'bench = ["asteval~=' in extras


# ---------------------------------------------------------------------------- extras
def _pyproject() -> dict:
    import tomllib
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_every_optional_part_is_an_extra_and_all_holds_them():
    from synsema.runtime.extras import MODULES
    extras = _pyproject()["project"]["optional-dependencies"]
    parts = set(MODULES.values())
    assert parts == {"math", "mcp", "lsp", "otel", "ray"}
    assert parts <= extras.keys()
    assert extras["all"] == [f"synsema[{','.join(sorted(parts, key=list(extras).index))}]"]
    core = " ".join(_pyproject()["project"]["dependencies"])
    for heavy in ("sympy", "z3-solver", "python-sat", "pydantic", "mcp", "pygls", "opentelemetry", "ray"):
        assert heavy not in core, f"{heavy} is in the core install"


def test_make_test_and_make_demo_install_every_extra():
    made = subprocess.run(["make", "-n", "-B", "test", "demo"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert "-e '.[all,test]'" in made.stdout


def _core(python: Path, *args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess:
    env = {k: v for k, v in synsema_env().items() if k != "PYTHONPATH"}
    return subprocess.run([str(python.with_name("synsema")), *args], cwd=cwd, input=stdin,
                          capture_output=True, text=True, env=env, timeout=120)


def test_the_core_install_runs_scripts_tests_and_tools_without_any_extra(core_venv, tmp_path):
    listed = subprocess.run([str(core_venv), "-m", "pip", "list", "--format", "json"], capture_output=True,
                            text=True, timeout=120)
    import json
    names = {entry["name"].lower() for entry in json.loads(listed.stdout)}
    assert not names & {"sympy", "z3-solver", "python-sat", "pydantic", "mcp", "pygls", "ray",
                        "opentelemetry-sdk", "starlette", "uvicorn"}
    (tmp_path / "agent.syn").write_text('task double(x)\n    give x * 2\n\nprint(double(21))\n\n'
                                        'test "doubles"\n    assert_eq(double(2), 4)\n')
    assert _core(core_venv, "run", "agent.syn", cwd=tmp_path).stdout == "42\n"
    for command in (["test", "agent.syn"], ["check", "agent.syn"], ["fmt", "--check", "agent.syn"],
                    ["doc", "split"], ["llm", "status"], ["config"], ["repl"]):
        done = _core(core_venv, *command, cwd=tmp_path, stdin="print(1 + 1)\n")
        assert done.returncode == 0, (command, done.stdout, done.stderr)


@pytest.mark.parametrize("program, line, extra", [
    ('let r be math.run("nt.prime.test", {n: 7})\n', "1:10", "math"),
    ('print("before")\nlet found be math.find("prime")\n', "2:14", "math"),
    ('require mcp("weather")\nlet tools be mcp_tools("weather")\n', "2:14", "mcp"),
])
def test_a_feature_whose_extra_is_missing_is_a_language_error_naming_the_install(core_venv, tmp_path,
                                                                                  program, line, extra):
    (tmp_path / "mcp.json").write_text('{"mcpServers": {"weather": {"command": "true"}}}')
    (tmp_path / "p.syn").write_text(program)
    done = _core(core_venv, "run", "--mcp-config", "mcp.json", "p.syn", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert f"p.syn:{line}" in done.stderr and f"pip install 'synsema[{extra}]'" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and "ModuleNotFoundError" not in done.stderr


@pytest.mark.parametrize("command, extra", [
    (["math", "list"], "math"), (["lsp"], "lsp"), (["mcp", "serve", "agent.syn"], "mcp"),
    (["run", "--math-prewarm", "all", "agent.syn"], "math"),
])
def test_a_command_whose_extra_is_missing_names_the_install(core_venv, tmp_path, command, extra):
    (tmp_path / "agent.syn").write_text('print("hi")\n')
    done = _core(core_venv, *command, cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr == (f"synsema: synsema {command[0]}{' ' + command[1] if command[0] == 'mcp' else ''} "
                           if command[0] != "run" else "synsema: --math-prewarm ") + \
        f"needs synsema's optional '{extra}' part, which is not installed here; " \
        f"install it with: pip install 'synsema[{extra}]'\n"
