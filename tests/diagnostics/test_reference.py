"""The builtin reference: complete, current, and every example in it true.

The examples run through the real piped REPL, one session for all builtins with `:reset`
between them, as stdlib/registry.py's docstring promises.
"""

from __future__ import annotations

import re
from pathlib import Path

from conftest import ROOT, run_synsema
from synsema.stdlib.reference import reference, render_markdown

GRANTS = "require file.read, file.write, env, time, random, llm, stdin, secret, reveal, memory(\"doc\")"
MARK = "=== "


def test_every_builtin_has_a_summary_and_an_example():
    missing = [d.name for d in reference() if not d.summary or not d.examples]
    assert missing == []


def test_docs_builtins_md_is_current():
    current = (ROOT / "docs" / "builtins.md").read_text(encoding="utf-8")
    assert current == render_markdown(reference()), \
        "docs/builtins.md is stale: regenerate it with `synsema doc --markdown > docs/builtins.md`"


def test_synsema_doc_markdown_prints_the_same_reference():
    result = run_synsema("doc", "--markdown")
    assert result.returncode == 0
    assert result.stdout == (ROOT / "docs" / "builtins.md").read_text(encoding="utf-8")


def _entry(entry: str, shown: str) -> list[str]:
    if shown.startswith("error:"):
        return ["try", f"    {entry}", "recover problem", '    print("error: " + problem)', ""]
    return [entry]


def _run_examples(docs, flags: list[str], cwd: Path) -> tuple[dict, dict, str]:
    lines: list[str] = []
    expected: dict[str, list[str]] = {}
    for doc in docs:
        lines += [":reset", GRANTS, f'print("{MARK}{doc.name}")']
        expected[doc.name] = []
        for entry, shown in doc.examples:
            lines += _entry(entry, shown)
            if shown != "nothing":
                expected[doc.name].append(shown)
    result = run_synsema("repl", *flags, cwd=cwd, stdin="\n".join(lines) + "\n", timeout=300)
    got: dict[str, list[str]] = {}
    current = None
    for line in result.stdout.splitlines():
        if line.startswith(MARK):
            current = line[len(MARK):]
            got[current] = []
        elif current is not None and not line.startswith("fresh session:"):
            got[current].append(line)
    return expected, got, result.stderr


def _matches(want: list[str], have: list[str]) -> bool:
    return len(have) == len(want) and all(
        h.startswith(w) if w.startswith("error:") else h == w for h, w in zip(have, want))


def test_every_example_shows_what_it_says(tmp_path: Path):
    """The label builtins' examples run under --labels, where they mean something."""
    docs = reference()
    wrong = {}
    for flags, group in (([], [d for d in docs if d.module != "synsema.stdlib.labels"]),
                         (["--labels"], [d for d in docs if d.module == "synsema.stdlib.labels"])):
        where = tmp_path / ("labels" if flags else "plain")
        where.mkdir()
        expected, got, stderr = _run_examples(group, flags, where)
        wrong.update({name: (want, got.get(name, []), stderr) for name, want in expected.items()
                      if not _matches(want, got.get(name, []))})
    assert wrong == {}


def test_doc_name_shows_parameters_capability_and_examples():
    shown = run_synsema("doc", "read_file")
    assert shown.returncode == 0
    assert shown.stdout.startswith("read_file(path, offset = nothing, limit = nothing)\n")
    assert "capability: file.read — the program needs `require file.read`" in shown.stdout
    assert 'example: read_file("notes.txt")  =>  "hello"' in shown.stdout
    named = run_synsema("doc", "sort").stdout
    assert named.startswith("sort(xs, *, desc = false)\n") and "named arguments: desc = false" in named


def test_doc_of_an_unknown_name_suggests_the_nearest():
    shown = run_synsema("doc", "lenght")
    assert shown.returncode == 1
    assert shown.stderr == "synsema: no builtin named 'lenght' — did you mean 'length'? (synsema doc lists them all)\n"


def test_repl_doc_shows_builtins_and_session_tasks(tmp_path):
    entries = ':doc split\ntask greet(name: text, punct = "!")\n    give name + punct\n\n:doc greet\n'
    shown = run_synsema("repl", cwd=tmp_path, stdin=entries)
    assert shown.stdout.startswith("split(t, sep)\n")
    assert "task greet(name: text, punct = …)\n" in shown.stdout
    assert shown.returncode == 0 and shown.stderr == ""


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def test_no_entry_repeats_its_summary():
    """The prose below a summary adds to it: its first paragraph is not the summary again
    (issue 29 found eleven that were, nearly word for word)."""
    from difflib import SequenceMatcher
    from synsema.stdlib.reference import reference
    repeated = []
    for doc in reference():
        first = doc.details.strip().split("\n\n")[0]
        if first and SequenceMatcher(None, _words(doc.summary), _words(first)).ratio() >= 0.6:
            repeated.append(doc.name)
    assert repeated == []


# Names of the implementation a reader of the reference has never met.
INTERNAL = re.compile(r"\b(rt|BaseException|SynError|BuiltinSpec|stdlib|runtime|lang|registry|self)\b|__\w+")


def test_no_entry_uses_internal_names():
    from synsema.stdlib.reference import reference, render_entry
    leaks = {doc.name: INTERNAL.findall(render_entry(doc)) for doc in reference()}
    assert {name: found for name, found in leaks.items() if found} == {}


def test_the_capability_line_agrees_with_the_readme():
    """`print` needs no `require` under `synsema run` (stdout is granted unless a ceiling
    withholds it, README "The console is one output"); `read_file` does."""
    shown = run_synsema("doc", "print").stdout
    assert "require stdout" not in shown and "granted to every `synsema run` without a `require`" in shown
    assert "the program needs `require file.read`" in run_synsema("doc", "read_file").stdout
