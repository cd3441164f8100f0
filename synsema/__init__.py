"""Synsema for Python: the one import root of the distribution.

In the repository the parts live in top-level folders (lang/, runtime/, stdlib/, grammar/, the
layout SPEC.md fixes); pyproject.toml maps them to synsema.lang, synsema.runtime, synsema.stdlib
and synsema.grammar, so an install adds exactly one top-level name, `synsema`, and never a
generic one such as `runtime` or `lang` that another project also uses.
"""

# The version, written here only: pyproject.toml reads it (dynamic), `synsema version` prints it,
# and tests/test_release.py holds editors/vscode/package.json and CHANGELOG.md to it.
__version__ = "0.1.0"
