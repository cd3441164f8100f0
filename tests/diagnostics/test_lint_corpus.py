"""`synsema check`'s linter and resolver on a fixed corpus, against the results recorded for it.

lint_corpus.json holds programs and, for each, what `lang.lint.lint` found (code, severity,
message, hint, span) and a digest of what `lang.resolution.resolve_module` answered (every reference,
binding and frame, with positions, slots and frame chains), as recorded by the
rule-by-rule implementation before the linter was made to walk the tree once. The programs are the repository's own and mutants of them made to trip each
rule: a misspelt name, a call with an argument more or less, an unknown named argument, a
`require` line removed, and a `give`/`stop`/`raise` put before a statement. Any change to a
finding, its order, a hint, a position, or a resolution answer fails here.

After a deliberate change to what the linter reports (or to the builtins it is given),
regenerate the expected results with `python tests/diagnostics/test_lint_corpus.py --record`
and review the diff of lint_corpus.json.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "lint_corpus.json"
ROOT = HERE.parent.parent


def _environment():
    from synsema.runtime.capabilities import RUN_MODE_AUTO_GRANTS
    from synsema.runtime.interp import builtin_globals
    from synsema.stdlib.registry import load_all
    from synsema.stdlib.unsupported import tier_c_family
    return load_all(), list(builtin_globals().keys()), RUN_MODE_AUTO_GRANTS, tier_c_family


def _span(span):
    return None if span is None else [span.file, span.line, span.col]


def _node_at(node):
    return None if node is None else [type(node).__name__, _span(node.span)]


def _scope(scope, names: dict) -> list:
    """A frame as data: its kind, its slots and the chain of frames around it (by number)."""
    chain = []
    while scope is not None:
        if id(scope) not in names:
            names[id(scope)] = len(names)
        chain.append(names[id(scope)])
        scope = scope.parent
    return chain


def results(source: str, file: str, environment) -> dict:
    """What lint and resolve say about one program, as plain data (or its parse error)."""
    from synsema.lang.check import module_loader
    from synsema.lang.errors import SynError
    from synsema.lang.lint import lint
    from synsema.lang.parser import parse
    from synsema.lang.resolution import resolve_module
    builtins, predeclared, auto, tier_c = environment
    try:
        module = parse(source, file)
    except SynError as error:
        return {"error": error.report()}
    findings = [[f.severity, f.code, f.message, f.hint, _span(f.span)]
                for f in lint(module, builtins, predeclared, auto, tier_c, module_loader(str(ROOT / file)))]
    resolution = resolve_module(module, set(predeclared) | set(builtins))
    frames: dict = {}
    answers = {
        "references": [[r.name, _node_at(r.node), _scope(r.scope, frames), r.where,
                        [list(s) for s in r.slots],
                        None if r.binding is None else [r.binding.name, r.binding.kind],
                        r.is_set] for r in resolution.references],
        "bindings": [[b.name, b.kind, _node_at(b.node), _scope(b.scope, frames), b.assigned]
                     for b in resolution.bindings],
        "frames": [[first, last, _scope(scope, frames), scope.kind, scope.size, scope.params,
                    sorted(scope.slots.items())] for first, last, scope in resolution.frames()],
    }
    digest = hashlib.sha256(json.dumps(answers, sort_keys=True).encode("utf-8")).hexdigest()
    return {"findings": findings, "resolution": digest}


def _load():
    if not CORPUS.exists():
        return []
    return json.loads(CORPUS.read_text(encoding="utf-8"))["programs"]


PROGRAMS = _load()


def test_the_corpus_trips_every_rule():
    codes = {f[1] for p in PROGRAMS for f in p["expected"].get("findings", [])}
    assert codes == {"undefined-name", "arity", "unknown-keyword", "missing-capability", "unreachable",
                     "unsupported", "no-methods", "give-outside-task", "shadowed-alias", "no-export"}
    assert len(PROGRAMS) > 400


@pytest.fixture(scope="module")
def environment():
    return _environment()


@pytest.mark.parametrize("index", range(0, len(PROGRAMS), 25))
def test_lint_and_resolve_answer_as_recorded(index, environment):
    for program in PROGRAMS[index:index + 25]:
        got = results(program["source"], program["file"], environment)
        assert got == program["expected"], program["file"]


# ---------------------------------------------------------------- recording the corpus
def _sources() -> list[tuple[str, str]]:
    folders = ["examples", "bench/programs", "tests"]
    found = []
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.syn")):
            text = path.read_text(encoding="utf-8", errors="replace")
            if len(text) <= 1500:
                found.append((str(path.relative_to(ROOT)), text))
    sys.path.insert(0, str(ROOT / "bench"))
    from gen_parse import generate
    found.append(("bench/gen_parse.syn", generate(115)[0]))
    return found


def _mutants(file: str, source: str, rng: random.Random) -> list[tuple[str, str]]:
    """Copies of `source` each made to trip one rule (some do not parse; they are dropped)."""
    from synsema.lang.errors import SynError
    from synsema.lang.lexer import tokenize
    try:
        tokens = tokenize(source, file)
    except SynError:
        return []
    lines = source.split("\n")
    names = [t for t in tokens if t.type == "NAME"]
    out = []

    def at(tok, text, cut=0):
        row = lines[tok.line - 1]
        changed = list(lines)
        changed[tok.line - 1] = row[:tok.column - 1] + text + row[tok.column - 1 + (cut or len(tok)):]
        return "\n".join(changed)

    for tok in rng.sample(names, min(2, len(names))):  # a misspelt name
        word = str(tok)
        cut = rng.randrange(len(word))
        out.append(("misspelt", at(tok, word[:cut] + word[cut + 1:] + rng.choice("ex") if len(word) > 1 else "q")))
    calls = [t for i, t in enumerate(tokens[:-1]) if t.type == "NAME" and tokens[i + 1].type == "_LPAR"]
    for tok in rng.sample(calls, min(1, len(calls))):
        row = lines[tok.line - 1]
        open_at = tok.column - 1 + len(tok)
        if row[open_at:open_at + 1] != "(":
            continue
        inner = row[open_at + 1:]
        extra = rng.choice(["1, ", "x = 1, ", "nothing, ", ""])
        if extra:
            changed = list(lines)
            changed[tok.line - 1] = row[:open_at + 1] + extra + inner
            out.append(("argument", "\n".join(changed)))
        comma = inner.find(",")
        if comma > 0:
            changed = list(lines)
            changed[tok.line - 1] = row[:open_at + 1] + inner[comma + 1:].lstrip()
            out.append(("fewer", "\n".join(changed)))
    requires = [i for i, row in enumerate(lines) if row.lstrip().startswith("require ")]
    for i in requires[:1]:
        out.append(("require", "\n".join(lines[:i] + lines[i + 1:])))
    bodies = [i for i, row in enumerate(lines) if row.startswith("    ") and row.strip()
              and not row.strip().startswith(("otherwise", "recover", "is ", "#"))]
    for i in rng.sample(bodies, min(1, len(bodies))):
        row = lines[i]
        indent = row[:len(row) - len(row.lstrip())]
        word = rng.choice(["give 1", "stop", 'raise "r"', "give"])
        out.append(("unreachable", "\n".join(lines[:i] + [indent + word] + lines[i:])))
    return out


def record() -> None:
    environment = _environment()
    rng = random.Random(19)
    programs = []
    for file, source in _sources():
        candidates = [("as is", source), *_mutants(file, source, rng)]
        for how, text in candidates:
            expected = results(text, file, environment)
            if "error" in expected and how != "as is":
                continue
            programs.append({"file": file, "how": how, "source": text, "expected": expected})
    lines = ",\n".join(json.dumps(p, ensure_ascii=False) for p in programs)
    CORPUS.write_text(f'{{"programs": [\n{lines}\n]}}\n', encoding="utf-8")
    print(f"{len(programs)} programs, "
          f"{sum(len(p['expected'].get('findings', [])) for p in programs)} findings written to {CORPUS}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python tests/diagnostics/test_lint_corpus.py --record")
    sys.path.append(str(ROOT))
    record()
