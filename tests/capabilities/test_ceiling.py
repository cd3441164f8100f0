"""The host ceiling, narrowing by call_tool and sandbox, denial messages, and the audit trail."""

import json

import pytest

from synsema.lang.errors import Span, SynError
from synsema.runtime.audit import Audit
from synsema.runtime.capabilities import Capabilities, Ceiling

HERE = Span("prog.syn", 3, 5)

NOT_GRANTED = ('Capability not granted: net("api.x.com") — this is a permission, not a bug: '
               'add require net("api.x.com") to the program\'s preamble')
ABOVE_CEILING = ('Capability not granted: net("api.x.com") — declared but above the host ceiling '
                 '(--sandbox/--cap-set). The program cannot fix this; the host must widen the ceiling')


def denial(caps: Capabilities, name: str, scope=None) -> str:
    with pytest.raises(SynError) as err:
        caps.check(name, scope, HERE)
    assert err.value.phase == "Runtime" and err.value.span is HERE
    return err.value.message


def program(ceiling: Ceiling | None, *requires, audit=None) -> Capabilities:
    caps = Capabilities(ceiling, audit=audit, cwd="/nx-synsema")
    for name, scope in requires:
        caps.grant(name, scope, HERE)
    return caps


# ---------------------------------------------------------------- parsing --cap-set

def test_none_is_empty():
    assert Ceiling.parse("none").items == [] and Ceiling.parse(" none ").caps == []


def test_items_and_extras_are_kept_in_order():
    ceiling = Ceiling.parse("stdout, net=api.x.com,llm=customers@api.anthropic.com,declassify=customers,"
                            "net=*.y.org")
    assert ceiling.items_named("net") == ["api.x.com", "*.y.org"]
    assert ceiling.items_named("llm") == ["customers@api.anthropic.com"]
    assert ceiling.items_named("declassify") == ["customers"]
    assert ceiling.items_named("stdout") == [None]
    assert ceiling.items_named("exec") == []


@pytest.mark.parametrize("text, fragment", [
    ("", "comma-separated list"),
    ("stdout,,time", "comma-separated list"),
    ("nett", "Unknown capability 'nett' — did you mean 'net'?"),
    ("stdout,declassify", "declassify needs a value"),
    ("net=https://api.x.com/", "not a URL"),
    ("time=utc", "takes no scope"),
])
def test_bad_cap_set_is_a_usage_error(text, fragment):
    with pytest.raises(SynError) as err:
        Ceiling.parse(text)
    assert err.value.phase == "Usage" and fragment in err.value.message
    assert err.value.message.startswith("--cap-set")


def test_unknown_name_error_lists_the_extras_too():
    with pytest.raises(SynError) as err:
        Ceiling.parse("declasify=x")
    assert "did you mean 'declassify'?" in err.value.message


# ---------------------------------------------------------------- effective = require ∩ ceiling

def test_run_mode_auto_grants_without_a_ceiling():
    caps = program(None)
    for name in ("stdout", "stdin", "time", "llm"):
        caps.check(name, None)
    assert "random" not in caps.effective()
    assert denial(caps, "random").startswith("Capability not granted: random — ")


def test_sandbox_ceiling_keeps_stdout_and_time_only():
    caps = program(Ceiling.sandbox(), ("net", "api.x.com"), ("random", None))
    caps.check("stdout", None)
    caps.check("time", None)
    assert caps.effective() == ["stdout", "time"]
    assert denial(caps, "llm") == ("Capability not granted: llm — auto-granted but above the host ceiling "
                                   "(--sandbox/--cap-set). The program cannot fix this; the host must "
                                   "widen the ceiling")
    assert denial(caps, "stdin").startswith("Capability not granted: stdin — auto-granted but above")
    assert denial(caps, "net", "api.x.com:443") == ABOVE_CEILING
    assert denial(caps, "random").startswith("Capability not granted: random — declared but above the host ceiling")


def test_stdout_is_a_real_capability_under_a_ceiling():
    caps = program(Ceiling.parse("net=api.x.com"), ("stdout", None), ("net", "api.x.com"))
    caps.check("net", "api.x.com:443")
    assert "above the host ceiling" in denial(caps, "stdout")


def test_none_ceiling_denies_everything_even_what_is_required():
    caps = program(Ceiling.parse("none"), ("stdout", None), ("net", None))
    assert caps.effective() == []
    assert "above the host ceiling" in denial(caps, "stdout")
    assert "above the host ceiling" in denial(caps, "net", "a.org:80")


def test_not_granted_says_the_program_must_act():
    caps = program(Ceiling.parse("stdout,net=*.x.com"))
    assert denial(caps, "net", "api.x.com:443") == NOT_GRANTED


def test_wildcard_require_wider_than_the_ceiling_gets_nothing():
    caps = program(Ceiling.parse("stdout,net=api.mock"), ("net", "*"))
    message = denial(caps, "net", "api.mock:443")
    assert message == ('Capability not granted: net("api.mock") — declared as net("*"), which is wider than the host '
                       'ceiling (--sandbox/--cap-set) allows: net("api.mock"). A grant counts only when all '
                       'of it fits under the ceiling; narrow the require to fit: require net("api.mock")')
    assert "net" not in " ".join(caps.effective())


def test_a_require_inside_the_ceiling_is_granted():
    caps = program(Ceiling.parse("stdout,net=*.x.com,file.read=/nx-synsema/data"),
                   ("net", "api.x.com"), ("file.read", "/nx-synsema/data/in"))
    caps.check("net", "api.x.com:443")
    caps.check("file.read", "/nx-synsema/data/in/a.txt")
    assert caps.effective() == ["stdout", 'net("api.x.com")', 'file.read("/nx-synsema/data/in")']


def test_ceiling_bare_name_covers_every_scope():
    caps = program(Ceiling.parse("net,file"), ("net", "*"), ("file.write", "/tmp/x"))
    caps.check("net", "any.org:1")
    caps.check("file.write", "/tmp/x/y")


def test_port_in_the_ceiling_bounds_requires():
    too_wide = program(Ceiling.parse("net=h.org:8080"), ("net", "h.org"))  # h.org is every port
    assert 'declared as net("h.org"), which is wider' in denial(too_wide, "net", "h.org:8080")
    assert "above the host ceiling" in denial(too_wide, "net", "h.org:80")
    program(Ceiling.parse("net=h.org"), ("net", "h.org:8080")).check("net", "h.org:8080")


def test_seed_private_llm_ceiling():
    """`--cap-set "stdout,llm=customers@api.anthropic.com,declassify=customers"` (seed 000)."""
    ceiling = Ceiling.parse("stdout,llm=customers@api.anthropic.com,declassify=customers")
    caps = program(ceiling, ("llm", "customers"))
    caps.check("llm", None)
    caps.check("llm", "customers")
    assert "above the host ceiling" in denial(caps, "llm", "bank")
    # Without the require, the ceiling's llm item does not cover the auto-grant of every principal.
    assert denial(program(ceiling), "llm") == (
        'Capability not granted: llm — auto-granted as llm, which is wider than the host ceiling (--sandbox/--cap-set) '
        'allows: llm("customers@api.anthropic.com"). A grant counts only when all of it fits under the '
        'ceiling; add a require that fits: require llm("customers")')


# ---------------------------------------------------------------- call_tool

def test_tool_runs_with_declared_intersect_program_and_is_restored():
    caps = program(None, ("file.read", "/nx-synsema/d"))
    token = caps.enter_tool([("file.read", "/nx-synsema/d/sub")], "summarise")
    caps.check("file.read", "/nx-synsema/d/sub/x")
    assert denial(caps, "file.read", "/nx-synsema/d/other") == (
        'Capability not granted: file_read("/nx-synsema/d/other") — this is a permission, not a bug: '
        "call_tool runs task 'summarise' with only the capabilities it declares; add require "
        'file.read("/nx-synsema/d/other") at the top of its body')
    assert denial(caps, "time").startswith("Capability not granted: time — ")  # not declared
    caps.check("stdout", None)                                                  # printing survives
    caps.leave(token)
    caps.check("file.read", "/nx-synsema/d/other")
    caps.check("time", None)


def test_tool_declaring_what_the_program_lacks_gets_the_program_message():
    caps = program(None)
    caps.enter_tool([("net", "api.x.com")], "get_weather")
    assert denial(caps, "net", "api.x.com:443") == NOT_GRANTED


def test_tool_gets_the_overlap_of_a_wider_declaration():
    caps = program(None, ("net", "api.x.com"))
    caps.enter_tool([("net", "*.x.com")], "t")
    caps.check("net", "api.x.com:443")
    assert denial(caps, "net", "other.x.com:443").endswith("to the program's preamble")
    assert caps.effective() == ["stdout", 'net("api.x.com")']


def test_nested_tools_intersect_again_and_name_the_outermost_refusal():
    caps = program(None, ("file", "/nx-synsema/d"))
    outer = caps.enter_tool([("file.read", "/nx-synsema/d/sub")], "outer")
    caps.enter_tool([("file", "/nx-synsema/d")], "inner")
    caps.check("file.read", "/nx-synsema/d/sub/x")
    assert "task 'outer'" in denial(caps, "file.read", "/nx-synsema/d/other")
    assert "task 'outer'" in denial(caps, "file.write", "/nx-synsema/d/sub/x")
    assert caps.effective() == ["stdout", 'file.read("/nx-synsema/d/sub")']
    caps.leave(outer)                                           # unwinding past an error
    caps.check("file.write", "/nx-synsema/d/x")
    assert caps.effective()[-1] == 'file("/nx-synsema/d")'


def test_require_inside_a_tool_or_sandbox_grants_nothing():
    caps = program(None)
    token = caps.enter_tool([], "sneaky")
    caps.grant("net", None, HERE)
    caps.leave(token)
    token = caps.enter_sandbox(None)
    caps.grant("net", None, HERE)
    caps.leave(token)
    assert denial(caps, "net", "a.org:80") == ('Capability not granted: net("a.org") — this is a '
                                               "permission, not a bug: add require net(\"a.org\") to "
                                               "the program's preamble")


def test_leave_with_a_stale_token_is_a_bug():
    caps = program(None)
    token = caps.enter_sandbox(None)
    caps.leave(token)
    with pytest.raises(RuntimeError):
        caps.leave(token)


# ---------------------------------------------------------------- sandbox

def test_sandbox_strips_everything_but_stdout():
    caps = program(None, ("net", None))
    token = caps.enter_sandbox(None)
    assert caps.effective() == ["stdout"]
    caps.check("stdout", None)
    assert denial(caps, "time") == ("Capability not granted: time — this code runs in a sandbox block, "
                                     "which strips capabilities; list it in `sandbox under …` if the block "
                                     "needs it")
    caps.leave(token)
    caps.check("net", "a.org:80")


def test_sandbox_under_keeps_only_what_it_lists():
    caps = program(None, ("net", None), ("random", None))
    caps.enter_sandbox([("net", "api.x.com")])
    caps.check("net", "api.x.com:443")
    assert "sandbox block" in denial(caps, "net", "other.org:443")
    assert "sandbox block" in denial(caps, "random")


def test_sandbox_under_cannot_regrant():
    caps = program(None)
    caps.enter_sandbox([("net", "api.x.com"), ("time", None)])
    caps.check("time", None)
    assert denial(caps, "net", "api.x.com:443") == NOT_GRANTED


def test_sandbox_under_stays_under_the_ceiling():
    caps = program(Ceiling.parse("stdout,net=api.x.com"), ("net", "api.x.com"), ("random", None))
    caps.enter_sandbox([("net", "api.x.com"), ("random", None)])
    caps.check("net", "api.x.com:443")
    assert "above the host ceiling" in denial(caps, "random")


def test_sandbox_keeps_stdout_only_if_the_ceiling_does():
    caps = program(Ceiling.parse("time"))
    caps.enter_sandbox([("stdout", None)])
    assert "above the host ceiling" in denial(caps, "stdout")


# ---------------------------------------------------------------- audit

def read_lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_audit_file_has_one_line_per_check_and_a_summary(tmp_path):
    log = tmp_path / "audit.jsonl"
    caps = program(Ceiling.parse("stdout,net=api.x.com"), ("net", "api.x.com"), audit=Audit.open(str(log)))
    caps.check("net", "api.x.com:443", HERE)
    with pytest.raises(SynError):
        caps.check("time", None, Span("prog.syn", 7, 1))
    caps.check("stdout", None)
    caps.finish(1)
    start, first, second, third, summary = read_lines(log)
    assert start["start"]["pid"] > 0 and start["run"] == summary["run"]
    assert set(first) == {"run", "ts", "capability", "scope", "granted", "reason", "file", "line"}
    assert len(first["run"]) == 32 and first["run"] == second["run"] == third["run"] == summary["run"]
    assert first["ts"].endswith("Z")
    assert (first["capability"], first["scope"], first["granted"], first["file"], first["line"]) == \
        ("net", "api.x.com:443", True, "prog.syn", 3)
    assert first["reason"] == 'require: net("api.x.com")'
    assert (second["capability"], second["granted"], second["line"]) == ("time", False, 7)
    assert second["reason"] == "above the host ceiling"
    assert third["reason"] == "auto-granted: stdout" and third["file"] is None
    assert summary["summary"] == {"records": 3, "granted": 2, "denied": 1, "exit": 1}


def test_audit_json_goes_to_stderr(capsys):
    caps = program(None, audit=Audit.open("json"))
    caps.check("time", None)
    caps.finish(0)
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert lines[1]["capability"] == "time" and lines[-1]["summary"] == {"records": 1, "granted": 1, "denied": 0, "exit": 0}


def test_audit_records_the_real_path(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    log = tmp_path / "a.jsonl"
    caps = Capabilities(None, audit=Audit.open(str(log)), cwd=str(tmp_path))
    caps.grant("file.read", str(tmp_path), None)
    caps.check("file.read", "link/x.txt")
    caps.finish(0)
    assert read_lines(log)[1]["scope"] == str((tmp_path / "real" / "x.txt").resolve())


def test_unwritable_audit_path_raises_oserror_for_the_cli(tmp_path):
    with pytest.raises(FileNotFoundError):
        Audit.open(str(tmp_path / "missing-dir" / "a.jsonl"))


def test_the_summary_is_the_last_audit_line(tmp_path):
    log = tmp_path / "a.jsonl"
    caps = program(None, audit=Audit.open(str(log)))
    caps.finish(0)
    caps.check("time", None)  # e.g. a check from a finaliser after the run ended
    start, summary = read_lines(log)
    assert summary["summary"] == {"records": 0, "granted": 0, "denied": 0, "exit": 0}
