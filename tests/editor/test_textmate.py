"""The VS Code grammar (editors/vscode), run by the engine VS Code itself uses: `vscode-textmate`
with `vscode-oniguruma`, installed from the npm registry by this test into
tests/editor/textmate/node_modules (pinned by its package-lock.json). Every example and
conformance program tokenizes without an illegal-character scope, and a table of snippets gets
the scopes a reader expects — soft keywords only in their positions, holes of templates as code.
"""

from __future__ import annotations

import glob
import json
import shutil
import subprocess

import pytest

from synsema.lang.errors import SynError
from synsema.lang.lexer import HARD_KEYWORDS
from synsema.lang.parser import parse
from tests.conftest import ROOT

HARNESS = ROOT / "tests" / "editor" / "textmate"
GRAMMAR = ROOT / "editors" / "vscode" / "syntaxes" / "synsema.tmLanguage.json"

pytestmark = pytest.mark.skipif(shutil.which("node") is None or shutil.which("npm") is None,
                                reason="Node.js and npm are needed to run the VS Code grammar engine")


@pytest.fixture(scope="module")
def tokenize():
    if not (HARNESS / "node_modules" / "vscode-textmate").is_dir():
        installed = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                                   cwd=HARNESS, capture_output=True, text=True, timeout=600)
        assert installed.returncode == 0, installed.stderr

    def run(sources: dict[str, str]) -> dict[str, list]:
        request = {"grammar": str(GRAMMAR), "sources": [{"name": k, "text": v} for k, v in sources.items()]}
        done = subprocess.run(["node", str(HARNESS / "tokenize.js")], input=json.dumps(request),
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return {r["name"]: r["lines"] for r in json.loads(done.stdout)}
    return run


def _programs() -> dict[str, str]:
    paths = sorted(glob.glob(str(ROOT / "examples" / "*.syn"))
                   + glob.glob(str(ROOT / "tests" / "conformance" / "**" / "*.syn"), recursive=True))
    found = {}
    for path in paths:
        text = open(path, encoding="utf-8").read().lstrip("\ufeff")
        try:
            parse(text, path)
        except SynError:
            continue   # the error programs are meant to be wrong
        found[path.replace(str(ROOT) + "/", "")] = text
    return found


def test_every_example_and_conformance_program_tokenizes_cleanly(tokenize):
    programs = _programs()
    assert len(programs) >= 15
    results = tokenize(programs)
    for name, lines in results.items():
        for number, tokens in enumerate(lines, 1):
            illegal = [t["text"] for t in tokens if any("invalid" in s for s in t["scopes"])]
            assert not illegal, f"{name}:{number}: {illegal}"
            for token in tokens:
                if token["text"].startswith("--") and "string" not in " ".join(token["scopes"]):
                    assert any(s.startswith("comment.line") for s in token["scopes"]), (name, number)


def _scope_of(lines: list, text: str, nth: int = 0) -> list[str]:
    seen = 0
    for tokens in lines:
        for token in tokens:
            if token["text"].strip() == text:
                if seen == nth:
                    return token["scopes"]
                seen += 1
    raise AssertionError(f"no token {text!r} in {lines}")


SNIPPETS = [
    # (source, token text, which occurrence, a scope that must be there, or one that must not)
    ('test "adds"\n    assert(true)', "test", 0, "keyword.other.test", None),
    ("let x be test(1)", "test", 0, None, "keyword.other.test"),
    ('use "./m.syn" as m', "use", 0, "keyword.control.import", None),
    ("export task f(a: number)\n    give a", "export", 0, "keyword.other.export", None),
    ("export task f(a: number)\n    give a", "f", 0, "entity.name.function", None),
    ("export task f(a: number)\n    give a", "number", 0, "support.type", None),
    ("enum Shape\n    circle(r)", "Shape", 0, "entity.name.type.enum", None),
    ('raise "bad"', "raise", 0, "keyword.control.raise", None),
    ("let raise_it be raise(err)", "raise", 0, None, "keyword.control.raise"),
    ("let a be reason about x", "about", 0, "keyword.other.clause", None),
    ("let about be 1", "about", 0, None, "keyword.other.clause"),
    ("let a be decide between xs given ctx", "given", 0, "keyword.other.clause", None),
    ("sandbox under net(\"a.example\")\n    print(1)", "under", 0, "keyword.other.clause", None),
    ("let m be {type: 1, when: 2}", "type", 0, "variable.other.key", "storage.type"),
    ("let y be step.when", "when", 0, "variable.other.property", "keyword.control"),
    ("when x not in xs\n    stop", "not in", 0, "keyword.operator.word", None),
    ("let t be `a {x + f(1)} b`", "x", 0, "meta.template.expression", None),
    ("let t be `a {x + f(1)} b`", "f", 0, "entity.name.function.call", None),
    ("let t be `a {m[{\"k\": 1}[\"k\"]]} b`", "1", 0, "constant.numeric.integer", None),
    ("let t be `a {x} b`", "a", 0, "string.template", "meta.template.expression"),
    ("let n be 1.50d", "1.50d", 0, "constant.numeric.decimal", None),
    ("let n be 0x1f", "0x1f", 0, "constant.numeric.hex", None),
    ("let n be 2.5e3", "2.5e3", 0, "constant.numeric.float", None),
    ("approve x within 90s", "90s", 0, "constant.numeric.duration", None),
    ('let s be "a\\n" -- note', "\\n", 0, "constant.character.escape", None),
    ('let s be "a -- b"', "a -- b", 0, "string.quoted.double", "comment"),
    ("let s be 1 -- note", "-- note", 0, "comment.line.double-dash", None),
    ("let f be (x) => x |> g", "=>", 0, "storage.type.function.arrow", None),
    ("let f be (x) => x |> g", "|>", 0, "keyword.operator.pipe", None),
    ("let ok be true and nothing", "nothing", 0, "constant.language", None),
    ("let bad be 1 # 2", "#", 0, "invalid.illegal", None),
    ("intent: \"answer\"", "intent", 0, "keyword.other", None),
]


def test_snippets_get_the_expected_scopes(tokenize):
    results = tokenize({str(i): source for i, (source, *_rest) in enumerate(SNIPPETS)})
    for i, (source, text, nth, wanted, unwanted) in enumerate(SNIPPETS):
        scopes = _scope_of(results[str(i)], text, nth)
        joined = " ".join(scopes)
        if wanted:
            assert wanted in joined, (source, text, scopes)
        if unwanted:
            assert unwanted not in joined, (source, text, scopes)


def test_every_hard_keyword_is_highlighted(tokenize):
    words = sorted(HARD_KEYWORDS)
    results = tokenize({w: f"x {w} y" for w in words})
    for word in words:
        scopes = " ".join(_scope_of(results[word], word))
        assert "keyword" in scopes or "storage.type" in scopes or "constant.language" in scopes, (word, scopes)


def test_the_extension_manifest_points_at_real_files():
    manifest = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text())
    (language,) = manifest["contributes"]["languages"]
    (grammar,) = manifest["contributes"]["grammars"]
    assert language["extensions"] == [".syn"]
    assert (ROOT / "editors" / "vscode" / language["configuration"]).is_file()
    assert json.loads(GRAMMAR.read_text())["scopeName"] == grammar["scopeName"] == "source.synsema"
    assert (ROOT / "editors" / "vscode" / grammar["path"]).resolve() == GRAMMAR.resolve()
    # `main` is the esbuild bundle of extension.js that `make vscode` writes (tests/test_release.py)
    assert manifest["main"] == "./dist/extension.js" and "esbuild extension.js" in manifest["scripts"]["bundle"]
    assert (ROOT / "editors" / "vscode" / "extension.js").is_file()
    configuration = json.loads((ROOT / "editors" / "vscode" / "language-configuration.json").read_text())
    assert configuration["comments"]["lineComment"] == "--"
