"""The builtin table (stdlib/builtins.json) and the `@builtin` declarations are one fact.

A run builds every builtin from the table and imports a builtin's module on its first call, so
the table must say exactly what each module declares: name, module, arity, named arguments,
capability, flow under --labels and effects. Rewritten by `python -m synsema.stdlib.registry`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import ROOT, run_synsema, synsema_env

from synsema.stdlib import registry


def test_the_table_is_what_the_modules_declare():
    assert registry.render_table() == Path(registry.TABLE_PATH).read_text(encoding="utf-8"), \
        "stdlib/builtins.json is stale: run `python -m synsema.stdlib.registry`"


def test_every_row_loads_the_function_its_module_declares():
    specs = registry.load_all()
    assert set(specs) == set(registry.DECLARED)
    for name, spec in specs.items():
        module, row = registry.DECLARED[name]
        assert (spec.module, spec.declaration()) == (module, row)
        implementation = spec.implementation()
        assert implementation.__module__ == spec.module
        assert spec.fn is implementation   # a loaded builtin is called without the stand-in


def _in_fresh_process(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=synsema_env(),
                          cwd=ROOT, timeout=60)


def test_a_row_that_differs_from_the_declaration_is_refused_when_the_module_loads():
    result = _in_fresh_process(
        "from synsema.stdlib.registry import BUILTINS\n"
        "BUILTINS['upper'].max_args = 2\n"
        "BUILTINS['upper'].implementation()\n")
    assert result.returncode != 0
    assert "builtin 'upper' is declared in synsema.stdlib.text" in result.stderr
    assert "python -m synsema.stdlib.registry" in result.stderr


def test_a_declaration_missing_from_the_table_is_refused():
    result = _in_fresh_process(
        "from synsema.stdlib.registry import BUILTINS\n"
        "del BUILTINS['upper']\n"
        "import synsema.stdlib.text\n")
    assert result.returncode != 0
    assert "builtin 'upper' is declared in synsema.stdlib.text" in result.stderr
    assert "is not in it" in result.stderr


def test_a_row_its_module_does_not_declare_is_refused():
    result = _in_fresh_process(
        "from synsema.stdlib.registry import BUILTINS, BuiltinSpec\n"
        "spec = BuiltinSpec('shout', 'synsema.stdlib.text', 1, 1, (), None, 'propagate')\n"
        "spec.implementation()\n")
    assert result.returncode != 0
    assert "lists builtin 'shout' in synsema.stdlib.text, which does not declare it" in result.stderr


def test_a_builtin_first_called_late_behaves_as_declared(tmp_path):
    """The module of `write_file` is not imported before its call: arity, the capability and the
    --labels sink rule come from the table, and each is the one the module declares."""
    cases = {
        "arity.syn": ('write_file("a.txt")\n', "write_file"),
        "cap.syn": ('write_file("a.txt", "x")\n', "file.write"),
        "labels.syn": ('require file.write\nlet s be private("x", "alice")\nwrite_file("a.txt", s)\n', "alice"),
    }
    for name, (source, expected) in cases.items():
        (tmp_path / name).write_text(source, encoding="utf-8")
        result = run_synsema("run", "--labels", name, cwd=tmp_path)
        assert result.returncode == 1, (name, result.stdout, result.stderr)
        assert expected in result.stderr, (name, result.stderr)
    assert not (tmp_path / "a.txt").exists()
    (tmp_path / "ok.syn").write_text('require file\nwrite_file("a.txt", upper("x"))\nprint(read_file("a.txt"))\n',
                                     encoding="utf-8")
    result = run_synsema("run", "ok.syn", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, "X\n"), result.stderr
