"""Scripts as MCP clients: `synsema run --mcp-config` against a real FastMCP server over stdio."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from conftest import run_synsema

SERVER = Path(__file__).resolve().parent / "servers" / "notes.py"


def config(tmp_path, **extra) -> Path:
    entry = {"command": sys.executable, "args": [str(SERVER)], **extra}
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {"notes": entry}}), encoding="utf-8")
    return path


def run(tmp_path, source: str, *flags, **extra):
    program = tmp_path / "p.syn"
    program.write_text(source, encoding="utf-8")
    return run_synsema("run", "--mcp-config", config(tmp_path, **extra), *flags, program,
                       timeout=90)


def test_tools_are_tasks_typed_by_the_input_schema(tmp_path):
    done = run(tmp_path, '''require mcp("notes")
let tools be mcp_tools("notes")
print(keys(tools))
print(tool_spec(tools["add"], "Add"))
print(tool_spec(tools["greet"], "Greet").params)
print(call_tool(tools["add"], {"a": 2, "b": 5}))
print(tools["greet"]("Ana"))
print(call(tools["greet"], {"name": "Bo", "punctuation": "!"}))
print(call_tool(tools["lookup"], {"key": "lima"}).temp)
each name in ["x"]
    try
        call_tool(tools["lookup"], {"key": name})
    recover err
        print("caught: " + err)
try
    call_tool(tools["add"], {"a": "2"})
recover err
    print("caught: " + err)
try
    call_tool(tools["add"], {"a": 1, "c": 2})
recover err
    print("caught: " + err)
''')
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == '["add", "greet", "lookup", "slow", "crash"]'
    assert lines[1] == '{name: "add", describe: "Add", params: ["a: number", "b: number"], optional: ["b"]}'
    assert lines[2] == '["name: text", "punctuation: text"]'
    assert lines[3:7] == ["7", "hello Ana", "hello Bo!", "21"]
    assert lines[7] == "caught: MCP tool 'notes/lookup' failed: Error executing tool lookup: no entry for 'x'"
    assert lines[8] == "caught: call_tool(add): 'a' must be number, got text"
    assert "did you mean 'a'?" in lines[9]


def test_only_listed_servers_exist_and_the_config_is_checked(tmp_path):
    done = run(tmp_path, 'require mcp("other")\ntry\n    mcp_tools("other")\nrecover err\n'
                         '    print(err)\n')
    assert done.returncode == 0, done.stderr
    assert "the host lists no MCP server named 'other' (listed: notes)" in done.stdout
    program = tmp_path / "q.syn"
    program.write_text('require mcp("notes")\nprint(mcp_tools("notes"))\n', encoding="utf-8")
    without = run_synsema("run", program)
    assert without.returncode == 1 and "the host must pass --mcp-config FILE" in without.stderr
    bad = tmp_path / "bad.json"
    bad.write_text('{"mcpServers": {"x": {"args": []}}}', encoding="utf-8")
    usage = run_synsema("run", "--mcp-config", bad, program)
    assert usage.returncode == 2 and "give exactly one of \"command\"" in usage.stderr


def test_the_capability_is_required_bounded_by_the_ceiling_and_declared_for_call_tool(tmp_path):
    no_require = run(tmp_path, 'print(mcp_tools("notes"))\n')
    assert no_require.returncode == 1
    assert 'Capability not granted: mcp("notes")' in no_require.stderr
    ceiling = run(tmp_path, 'require mcp("notes")\nprint(mcp_tools("notes"))\n',
                  "--cap-set", "stdout,mcp=other")
    assert ceiling.returncode == 1 and "above the host ceiling" in ceiling.stderr
    nested = run(tmp_path, '''require mcp("notes")
let add be mcp_tools("notes")["add"]
task undeclared(x)
    give add(x)
task declared(x)
    require mcp("notes")
    give add(x)
print(call_tool(declared, {"x": 1}))
print(call_tool(undeclared, {"x": 1}))
''', "--cap-set", "stdout,mcp=notes")
    assert nested.stdout == "2\n"
    assert "call_tool runs task 'undeclared' with only the capabilities it declares" in nested.stderr


def test_every_listing_and_call_is_audited(tmp_path):
    audit = tmp_path / "audit.jsonl"
    done = run(tmp_path, 'require mcp("notes")\nlet t be mcp_tools("notes")\nprint(t["add"](1, 2))\n'
                         'print(call_tool(t["add"], {"a": 3}))\n', "--audit", audit)
    assert done.stdout == "3\n4\n", done.stderr
    records = [json.loads(line) for line in audit.read_text().splitlines()]
    checks = [(r["capability"], r["scope"], r["granted"]) for r in records if "capability" in r]
    assert checks.count(("mcp", "notes", True)) == 3   # the listing and both calls
    assert records[-1]["summary"]["exit"] == 0


def test_under_labels_a_call_decided_by_private_data_is_told_to_leave_the_branch(tmp_path):
    """Public arguments under a private condition: declassifying the arguments would not help,
    and the message does not ask for it (issue 32 item 9)."""
    branch = run(tmp_path, 'require mcp("notes")\nlet t be mcp_tools("notes")\n'
                           'let s be private(1, "customer")\nwhen s > 0\n    print(t["add"](1, 2))\n', "--labels")
    assert branch.returncode == 1 and "under private control flow (pc = [customer])" in branch.stderr
    assert "declassify(…) the arguments" not in branch.stderr


def test_under_labels_arguments_are_a_sink_and_results_carry_the_server_principal(tmp_path):
    leak = run(tmp_path, 'require mcp("notes")\nlet t be mcp_tools("notes")\n'
                         'let name be private("Ana", "customer")\nprint(t["greet"](name))\n', "--labels")
    assert leak.returncode == 1 and "label_violation" in leak.stderr
    assert "would receive data private to [customer]" in leak.stderr
    via_call_tool = run(tmp_path, 'require mcp("notes")\nlet t be mcp_tools("notes")\n'
                                  'let name be private("Ana", "customer")\n'
                                  'print(call_tool(t["greet"], {"name": name}))\n', "--labels")
    assert via_call_tool.returncode == 1 and "label_violation" in via_call_tool.stderr
    marked = run(tmp_path, '''require mcp("notes")
let t be mcp_tools("notes")
let name be private("Ana", "customer")
let reply be t["greet"](declassify(name, "a first name may be sent"))
print(reply)
print(label_of(reply) == ["web"])
print(declassify(reply, "the greeting is shown"))
''', "--labels", principal="web")
    assert marked.returncode == 0, marked.stderr
    assert marked.stdout.splitlines() == ["private(customer, web)", "private(customer, web)", "hello Ana"]


def test_a_server_that_dies_mid_call_is_a_catchable_error(tmp_path):
    done = run(tmp_path, '''require mcp("notes")
let t be mcp_tools("notes")
try
    t["crash"]()
recover err
    print("caught: " + err)
try
    t["add"](1)
recover err
    print("again: " + err)
print("still running")
''')
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "caught: MCP server 'notes' failed to answer tool 'crash': Connection closed"
    assert lines[1].startswith("again: MCP server 'notes' is not available")
    assert "the server ended during a call of tool 'crash'" in lines[1]
    assert lines[2] == "still running"


def test_a_call_past_the_timeout_is_a_catchable_error(tmp_path):
    done = run(tmp_path, '''require mcp("notes")
let t be mcp_tools("notes")
try
    t["slow"](5)
recover err
    print("caught: " + err)
''', timeout=0.5)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ("caught: MCP server 'notes' did not answer tool 'slow' within 0.5 s "
                           "(its \"timeout\" in --mcp-config)\n")


def test_a_process_that_does_not_speak_mcp_is_a_catchable_error(tmp_path):
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {"notes": {
        "command": sys.executable, "args": ["-c", "print('this is not JSON-RPC')"]}}}), encoding="utf-8")
    program = tmp_path / "p.syn"
    program.write_text('require mcp("notes")\ntry\n    mcp_tools("notes")\nrecover err\n'
                       '    print("caught: " + err)\nprint("went on")\n', encoding="utf-8")
    done = run_synsema("run", "--mcp-config", path, program, timeout=90)
    assert done.returncode == 0, done.stderr
    caught, went_on = done.stdout.splitlines()
    assert caught.startswith("caught: MCP server 'notes' is not available (")
    assert went_on == "went on"


def test_a_server_offering_more_than_1000_tools_is_refused_clearly(tmp_path):
    many = Path(__file__).resolve().parent / "servers" / "many.py"
    path = tmp_path / "many.json"
    for count, expected in ((1000, "1000\n"), (1001, None)):
        path.write_text(json.dumps({"mcpServers": {"many": {"command": sys.executable,
                                                            "args": [str(many), str(count)]}}}))
        program = tmp_path / "p.syn"
        program.write_text('require mcp("many")\nprint(length(mcp_tools("many")))\n', encoding="utf-8")
        done = run_synsema("run", "--mcp-config", path, program, timeout=120)
        if expected is not None:
            assert (done.returncode, done.stdout) == (0, expected), done.stderr
        else:
            assert done.returncode == 1
            assert "MCP server 'many' offers more than 1,000 tools" in done.stderr
            assert "p.syn:2:" in done.stderr and "Traceback" not in done.stderr
