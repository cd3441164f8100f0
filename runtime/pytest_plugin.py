"""pytest collects the `test` blocks of `.syn` files, so a Python project runs its agent scripts'
tests in the CI it already has.

Opt in with an ini option (pytest.ini, or `[tool.pytest.ini_options]` in pyproject.toml):

    synsema_files = *.syn                  glob patterns of the files to collect
    synsema_flags = --labels --cap-set "stdout,llm"   host flags for every test (as `synsema test`)
    synsema_cassettes = tests/cassettes    where replay cassettes live (default: beside each file)

Each `test "name"` block becomes an item `path/file.syn::name`; `-k`, `-x`, `--lf` and the rest
work as for Python tests. An item runs its file's top level and then its one test block, so
items are independent of each other and of their order. A failure shows the test runner's own
message (the assertion's position and source line, both sides, the values inside it and a
diff, as `synsema test` shows them) and the program's output.
A test that calls `skip("reason")` is reported skipped; `only()` narrows only `synsema test`
(pytest selects with its own `-k`).
If a cassette `<cassettes>/<file stem>/<test slug>.jsonl` or `<cassettes>/<file stem>.cassette.jsonl`
exists, the test's model calls are replayed from it (the `replay` provider); otherwise the LLM
configuration of the environment applies, as for `synsema test`.

The plugin is loaded by every pytest run in an environment where synsema is installed, so this
module imports only pytest until a `.syn` file is actually collected.
"""

from __future__ import annotations

import fnmatch
import os
import re

import pytest


def pytest_addoption(parser):
    parser.addini("synsema_files", type="args", default=[],
                  help="glob patterns of .syn files whose test blocks pytest collects (opt-in), e.g. *.syn")
    parser.addini("synsema_flags", type="args", default=[],
                  help='synsema host flags for every collected test: --labels, --sandbox, --cap-set "…"')
    parser.addini("synsema_cassettes", default="",
                  help="folder of LLM replay cassettes: <stem>/<test slug>.jsonl or <stem>.cassette.jsonl")


_HOST_OPTIONS = pytest.StashKey[dict]()


def pytest_configure(config):
    """Check the host flags once, before anything is collected: a bad flag is a usage error."""
    if config.getini("synsema_files"):
        config.stash[_HOST_OPTIONS] = _host_options(config)


def pytest_collect_file(file_path, parent):
    patterns = parent.config.getini("synsema_files")
    if file_path.suffix == ".syn" and any(fnmatch.fnmatch(file_path.name, p) or file_path.match(p)
                                          for p in patterns):
        return SynsemaFile.from_parent(parent, path=file_path)
    return None


def _host_options(config) -> dict:
    """The runtime options the `synsema_flags` ini line asks for, checked like the CLI's."""
    from synsema.runtime.cli import HostFlags, UsageError
    args = list(config.getini("synsema_flags"))   # an "args" ini value is split as a shell would
    flags = HostFlags()
    i = 0
    while i < len(args):
        nxt = flags.take(args, i)
        if nxt == i:
            raise pytest.UsageError(f"synsema_flags: {args[i]} is not a host flag "
                                    "(--labels, --sandbox, --cap-set, --audit)")
        i = nxt
    try:
        return flags.runtime_options()
    except UsageError as problem:
        raise pytest.UsageError(f"synsema_flags: {problem}") from None


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


class SynsemaFile(pytest.File):
    """A `.syn` file: one item per top-level `test` block, found by parsing (nothing runs)."""

    def collect(self):
        from synsema.lang import ast
        from synsema.lang.errors import SynError
        from synsema.lang.parser import parse
        try:
            source = self.path.read_text(encoding="utf-8")
            module = parse(source, str(self.path))
        except SynError as problem:
            raise self.CollectError(problem.report()) from None
        except (OSError, UnicodeDecodeError) as problem:
            raise self.CollectError(f"cannot read {self.path}: {problem}") from None
        for node in module.body:
            if type(node) is ast.TestBlock:
                yield SynsemaItem.from_parent(self, name=node.name, line=node.span.line)


class SynsemaFailure(Exception):
    """A test block that failed; carries the runner's outcome."""

    def __init__(self, outcome):
        super().__init__(outcome.reason)
        self.outcome = outcome


class SynsemaItem(pytest.Item):
    def __init__(self, *, line: int, **kwargs):
        super().__init__(**kwargs)
        self.line = line
        # No fixtures; present because some plugins' hook wrappers (pytest-lsp 1.0) end without
        # yielding for an item lacking it, which fails the item.
        self.funcargs: dict = {}

    def _cassette(self) -> str | None:
        folder = self.config.getini("synsema_cassettes")
        base = os.path.join(str(self.config.rootpath), folder) if folder else str(self.path.parent)
        stem = self.path.name[:-len(".syn")]
        for candidate in (os.path.join(base, stem, _slug(self.name) + ".jsonl"),
                          os.path.join(base, stem + ".cassette.jsonl")):
            if os.path.isfile(candidate):
                return candidate
        return None

    def runtest(self):
        from synsema.runtime import testrunner
        from synsema.runtime.cli import on_big_stack
        from synsema.runtime.llm import session
        from synsema.runtime.llm.config import load_config
        environ = dict(os.environ)
        cassette = self._cassette()
        if cassette is not None:
            environ.update(SYNSEMA_LLM_PROVIDER="replay", SYNSEMA_LLM_CASSETTE=cassette)
        session.reset(load_config(environ))
        name = self.name
        try:
            outcomes = on_big_stack(lambda: testrunner.run_file(
                str(self.path), lambda test: test == name, self.config.stash[_HOST_OPTIONS]))
        except testrunner.LabelViolation as stopped:
            outcomes = [stopped.outcome]
        finally:
            session.reset()
        (outcome,) = [o for o in outcomes if o.name in (name, None)][:1] or [None]
        if outcome is None:
            raise SynsemaFailure(testrunner.Outcome(str(self.path), name, False,
                                                    "the test block did not run", 0.0, []))
        printed = "".join(outcome.output)
        if printed:
            self.add_report_section("call", "synsema output", printed)
        if outcome.skipped:
            pytest.skip(outcome.reason or "skip() in the test block")
        if not outcome.passed:
            raise SynsemaFailure(outcome)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, SynsemaFailure):
            outcome = excinfo.value.outcome
            where = f"{self.path.name}:{self.line}: test {self.name!r}"
            if outcome.name is None:
                return f"{where}: the file failed to load:\n{outcome.message}"
            return f"{where} failed:\n{outcome.message}"
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, self.line - 1, f"test {self.name!r}"
