"""What a label violation says (issue 32 item 9): each value is described with the label it really
has, and the fix offered is one that works from where the program stands — never a step it
already took (declaring the variable private, declassifying the assigned value) and never a
ceiling item the host already gave."""

from __future__ import annotations

import re

import pytest

from conftest import run_synsema


def labels(tmp_path, source: str, *flags: str):
    (tmp_path / "prog.syn").write_text(source, encoding="utf-8")
    return run_synsema("run", "--labels", *flags, "prog.syn", cwd=tmp_path)


def violation(proc) -> str:
    assert proc.returncode == 1, proc.stdout + proc.stderr
    found = re.search(r"label_violation: (.*)", proc.stderr)
    assert found, proc.stderr
    return found.group(1)


@pytest.mark.parametrize(("declared", "described", "fix"), [
    ('0', "(public)", 'declare it private first (let x be private(<its initial value>, "a"))'),
    ('private(0, "b")', "(private to b)",
     'it must be private to a as well — where it is declared, wrap its initial value (already private to b): '
     'let x be private(<its initial value>, "a")'),
    ('private(private(0, "b"), "c")', "(private to b, c)", "it must be private to a as well"),
])
def test_the_assigned_variable_is_described_as_it_is(tmp_path, declared, described, fix):
    said = violation(labels(tmp_path, f'let s be private(5, "a")\nlet x be {declared}\nwhen s > 3\n    set x to 1\n'))
    assert said.startswith(f"cannot assign to 'x' {described} under private control flow (pc = [a]); {fix}")
    assert "at this site" not in said


def test_a_variable_private_to_part_of_the_pc_is_asked_only_for_the_rest(tmp_path):
    said = violation(labels(tmp_path, 'let s be private(5, "a")\nlet t be private(1, "b")\n'
                                      'let x be private(0, "a")\nwhen s > 3 and t > 0\n    set x to 1\n'))
    assert said.startswith("cannot assign to 'x' (private to a) under private control flow (pc = [a, b]); "
                           "it must be private to b as well")


def test_a_declassified_value_is_not_told_to_declassify_again(tmp_path):
    said = violation(labels(tmp_path, 'let s be private(5, "a")\nlet x be 0\nwhen s > 3\n'
                                      '    set x to declassify(s, "may be known")\n'))
    assert "declassify(…) of the assigned value publishes the value, not the branch that chose to assign it" in said
    assert "publish it there: declassify(condition" in said   # what does help: the condition


def test_a_let_under_private_control_flow_says_the_same(tmp_path):
    said = violation(labels(tmp_path, 'let s be private(5, "a")\nlet x be private(0, "b")\nwhen s > 3\n'
                                      '    let x be 1\n'))
    assert said.startswith("cannot assign to 'x' (private to b)")


def test_the_llm_ceiling_message_names_only_the_items_still_missing(tmp_path):
    source = ('require llm("a")\nrequire llm("b")\nlet t be private("hi", "a")\n'
              'let u be private(" there", "b")\nprint(declassify(llm_step(t + u, [], "")["text"], "ok"))\n')
    said = violation(labels(tmp_path, source, "--cap-set", "stdout,llm=a@api.x.com,declassify=a,declassify=b"))
    assert "the host must add llm=b@HOST (HOST:" in said
    assert "llm=a@" not in said
    both = violation(labels(tmp_path, source, "--cap-set", "stdout,declassify=a,declassify=b"))
    assert "the host must add llm=a@HOST and llm=b@HOST (HOST:" in both
