"""What a release is made of agrees with itself: one version (synsema/__init__.py), a changelog
that has it, a LICENSE, and a VS Code extension that `make vscode` bundles and packages without
a warning."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tomllib
import zipfile

import pytest

from conftest import ROOT, run_synsema

import synsema

EXTENSION = ROOT / "editors" / "vscode"


def test_the_version_is_written_once():
    version = synsema.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", version)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "synsema.__version__"}
    assert run_synsema("version").stdout == f"synsema {version}\n"
    assert json.loads((EXTENSION / "package.json").read_text())["version"] == version
    assert f"## [{version}]" in (ROOT / "CHANGELOG.md").read_text()


def test_the_extension_declares_its_repository_and_license():
    manifest = json.loads((EXTENSION / "package.json").read_text())
    assert manifest["repository"]["url"].startswith("https://")
    assert manifest["license"] == "MIT" and (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert manifest["main"] == "./dist/extension.js"


@pytest.mark.skipif(shutil.which("npm") is None, reason="needs Node and npm")
def test_make_vscode_bundles_and_packages_the_extension_without_a_warning(tmp_path):
    """The recipe of `make vscode`, run in a copy of the checkout's extension (its LICENSE comes
    from two folders up, as in the repository)."""
    copy = tmp_path / "editors" / "vscode"
    shutil.copytree(EXTENSION, copy, ignore=shutil.ignore_patterns("node_modules", "dist", "*.vsix", "LICENSE"))
    shutil.copy(ROOT / "LICENSE", tmp_path / "LICENSE")
    recipe = subprocess.run(["make", "--no-print-directory", "-n", "vscode"], cwd=ROOT, capture_output=True, text=True,
                            timeout=60)  # no "make[1]: Entering directory" lines when run under make test
    command = recipe.stdout.strip().removeprefix("cd editors/vscode && ")
    done = subprocess.run(["bash", "-c", command], cwd=copy, capture_output=True, text=True, timeout=900)
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    assert not re.search(r"warn", said, re.IGNORECASE), said
    names = zipfile.ZipFile(copy / "synsema.vsix").namelist()
    shipped = sorted(name for name in names if name.startswith("extension/"))
    assert shipped == ["extension/LICENSE.txt", "extension/dist/extension.js", "extension/language-configuration.json",
                       "extension/package.json", "extension/syntaxes/synsema.tmLanguage.json"]
