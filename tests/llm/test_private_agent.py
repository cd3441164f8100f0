"""examples/private_agent.syn: the support-ticket triage agent under --labels (issue 26).

It replays its cassette with the command line `make demo` uses (the one that would run it live),
its tests pass under `synsema test --labels` with the same flags, and each way a newcomer can get
it wrong — a `declassify` left out, the ceiling item missing — ends in an error that names the
line and the fix, or in redacted output, never in private text.
"""

import re
from pathlib import Path

import pytest

from .test_cli_programs import synsema

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "private_agent.syn"
CASSETTE = ROOT / "examples" / "private_agent.cassette.jsonl"
CEILING = "stdout,llm=customer@api.anthropic.com,declassify=customer"
REPLAY = {"SYNSEMA_LLM_PROVIDER": "replay", "SYNSEMA_LLM_CASSETTE": str(CASSETTE)}
PRIVATE_TEXT = ("Ana", "charged twice", "c-101", "photo", "refunded")


def run_example(path=EXAMPLE, ceiling=CEILING):
    return synsema(["run", "--labels", "--cap-set", ceiling, str(path)], REPLAY)


def test_make_demo_replays_it_and_publishes_only_the_counts():
    assert f'--cap-set "{CEILING}"' in (ROOT / "Makefile").read_text()
    ran = run_example()
    assert (ran.returncode, ran.stderr) == (0, ""), ran.stderr
    assert ran.stdout.splitlines() == ["3 tickets triaged", "the first reply drafted: private(customer, weather)",
                                       "{billing: 1, technical: 1, account: 1, other: 0}"]


def test_its_tests_pass_under_labels_with_the_same_flags():
    tested = synsema(["test", "--labels", "--cap-set", CEILING, str(EXAMPLE)], REPLAY)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert "4 passed, 0 failed" in tested.stdout


def test_without_the_ceiling_item_the_error_names_it():
    refused = run_example(ceiling="stdout,declassify=customer")
    assert refused.returncode == 1
    assert re.search(r"private_agent\.syn:\d+:\d+: label_violation: llm_step\(\) would send data private to "
                     r"customer \(its prompt is private to customer\) to the model at api\.anthropic\.com", refused.stderr)
    assert "the host must add llm=customer@api.anthropic.com to --cap-set" in refused.stderr


def _declassify_sites(source: str) -> list[tuple[int, int, str]]:
    """(start, end, the argument) of each `declassify(ARG, "reason")` outside the tests."""
    body = source.split('\ntest "', 1)[0]
    sites = []
    for found in re.finditer(r"declassify\(", body):
        depth, end = 1, found.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(body[end], 0)
            end += 1
        inner = body[found.end():end - 1]
        sites.append((found.start(), end, inner[:inner.rindex(', "')]))
    return sites


SITES = _declassify_sites(EXAMPLE.read_text(encoding="utf-8"))


def test_the_example_publishes_through_three_declassify_sites():
    assert len(SITES) == 3


@pytest.mark.parametrize("site", range(len(SITES)))
def test_without_one_declassify_the_run_names_the_line_and_the_fix_or_prints_redacted(tmp_path, site):
    source = EXAMPLE.read_text(encoding="utf-8")
    start, end, argument = SITES[site]
    program = tmp_path / "private_agent.syn"
    program.write_text(source[:start] + argument + source[end:], encoding="utf-8")
    ran = run_example(program)
    for text in PRIVATE_TEXT:
        assert text not in ran.stdout + ran.stderr
    if ran.returncode == 0:     # the category left private: the counts print redacted
        assert ran.stdout.splitlines()[-1].startswith("private(customer")
        return
    assert ran.returncode == 1 and ran.stdout == ""
    line = re.fullmatch(rf"Runtime error: {re.escape(str(program))}:(\d+):\d+: label_violation: (.*)\n", ran.stderr)
    assert line, ran.stderr
    message = line.group(2)
    assert re.search(r"control flow became private at .*private_agent\.syn:\d+; if what decided it may be known, "
                     r'publish it there: declassify\(condition, "why it may be public"\)', message), message
    assert "under private control flow (pc = [customer])" in message
