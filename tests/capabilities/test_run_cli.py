"""Capability behaviour of whole runs that is not an escape attempt: load-time checks, host flag
errors, auto-grants per ceiling, restoration after a failing tool, the seed's private-LLM ceiling."""

from __future__ import annotations

import pytest

from .cli import run_program


def test_unknown_capability_fails_at_load_before_anything_runs(tmp_path):
    result = run_program('print("started")\nrequire nett("x")\n', tmp_path)
    assert (result.code, result.out) == (1, ""), result
    assert result.err.startswith("Runtime error: prog.syn:2:")
    assert "Unknown capability 'nett' — did you mean 'net'? Known capabilities: net, file, file.read" in result.err


@pytest.mark.parametrize("flags, fragment", [
    (("--cap-set", "stdout,nett"), "--cap-set: Unknown capability 'nett' — did you mean 'net'?"),
    (("--cap-set", ""), "--cap-set '': expected a comma-separated list"),
    (("--cap-set", "net=http://x.org/"), "--cap-set: net scope 'http://x.org/' is not a host"),
])
def test_bad_ceilings_are_usage_errors(tmp_path, flags, fragment):
    result = run_program('print("x")\n', tmp_path, *flags)
    assert result.code == 2 and fragment in result.err and "Traceback" not in result.err, result


@pytest.mark.parametrize("source, fragment", [
    ('require time("utc")\n', "capability 'time' takes no scope; write require time"),
    ('require net("https://api.x.com/v1")\n', "is not a host: write a host name, host:port or *.domain"),
    ('require env("A*B")\n', "'*' is allowed only at the end"),
])
def test_malformed_scopes_are_runtime_errors_at_the_require(tmp_path, source, fragment):
    result = run_program(source, tmp_path)
    assert result.code == 1 and result.err.startswith("Runtime error: prog.syn:1:") and fragment in result.err


def test_sandbox_keeps_print_and_strips_the_clock(tmp_path):
    result = run_program('sandbox\n    print("inside")\n    print(now())\n', tmp_path)
    assert (result.code, result.out) == (1, "inside\n"), result
    assert "Capability not granted: time — this code runs in a sandbox block" in result.err


def test_run_mode_grants_stdin_and_the_sandbox_ceiling_does_not(tmp_path):
    ok = run_program("print(read_line())\n", tmp_path, stdin="typed\n")
    assert (ok.code, ok.out) == (0, "typed\n"), ok
    boxed = run_program("print(read_line())\n", tmp_path, "--sandbox", stdin="typed\n")
    assert boxed.code == 1 and "Capability not granted: stdin — auto-granted but above the host ceiling" in boxed.err


def test_tool_restriction_is_lifted_after_the_tool_fails(tree):
    result = run_program("""require file.read("data")
task broken()
    raise "tool failed"
try
    call_tool(broken, {})
recover e
    print(e)
print(read_file("data/notes.txt"))
""", tree)
    assert (result.code, result.out) == (0, "tool failed\nnotes-ok\n\n"), result


def test_tool_restriction_is_lifted_after_a_denial_inside_it(tree):
    result = run_program("""require file.read("data")
task greedy()
    give read_file("data/notes.txt")
try
    call_tool(greedy, {})
recover e
    print("refused")
print(read_file("data/notes.txt"))
""", tree)
    assert (result.code, result.out) == (0, "refused\nnotes-ok\n\n"), result


SEED_CEILING = "stdout,llm=customers@api.anthropic.com,declassify=customers"


def test_seed_private_llm_ceiling_accepts_the_principal_require(tmp_path):
    result = run_program('require llm("customers")\nprint(llm_step("hi", [], "")["kind"])\n',
                         tmp_path, "--cap-set", SEED_CEILING)
    assert (result.code, result.out) == (0, "final\n"), result


def test_seed_private_llm_ceiling_filters_the_llm_auto_grant(tmp_path):
    result = run_program('print(llm_step("hi", [], "")["kind"])\n', tmp_path, "--cap-set", SEED_CEILING)
    assert result.code == 1
    assert ('Capability not granted: llm — auto-granted as llm, which is wider than the host ceiling (--sandbox/--cap-set) '
            'allows: llm("customers@api.anthropic.com")') in result.err
