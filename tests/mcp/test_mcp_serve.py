"""`synsema mcp serve`, driven by the official SDK's ClientSession over stdio."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time

import anyio

from conftest import ROOT, run_synsema, synsema_env

from mcp_support import served, text_of, with_session

TOOLS = '''\
require env("APP_*")

-- Add two numbers.
-- The second one is optional.
task add(a: number, b: number = 1)
    give a + b

task shout(word)
    print("shouting " + word)
    give upper(word) + "!"

task fails(n: number)
    give 1 / n

task home()
    give env("APP_HOME", "none")

task home_declared()
    require env("APP_HOME")
    give env("APP_HOME", "none")
'''


def test_tasks_are_tools_with_doc_comment_and_the_outline_schema(tmp_path):
    script = tmp_path / "tools.syn"
    script.write_text(TOOLS, encoding="utf-8")

    async def body(session):
        return (await session.list_tools()).tools

    tools = {t.name: t for t in with_session(script)(body)}
    assert list(tools) == ["add", "shout", "fails", "home", "home_declared"]
    assert tools["add"].description == "Add two numbers.\nThe second one is optional."
    assert "no doc comment" in tools["shout"].description
    outline = json.loads(run_synsema("code", "outline", "--json", script).stdout)
    for entry in outline["tasks"]:
        assert tools[entry["name"]].inputSchema == entry["input_schema"]


def test_calls_run_like_call_tool_and_errors_are_tool_errors(tmp_path):
    script = tmp_path / "tools.syn"
    script.write_text(TOOLS, encoding="utf-8")

    async def body(session):
        calls = [("add", {"a": 2}), ("add", {"a": "2"}), ("add", {"a": 1, "c": 2}), ("add", {}),
                 ("fails", {"n": 0}), ("shout", {"word": "hi"}), ("home", {}),
                 ("home_declared", {}), ("nope", {})]
        return [await session.call_tool(name, args) for name, args in calls]

    ok, wrong_type, unknown, missing, failing, printed, undeclared, declared, nope = \
        with_session(script)(body)
    assert (ok.isError, ok.structuredContent, text_of(ok)) == (False, {"result": 3}, "3")
    assert wrong_type.isError and "'a' must be number, got text" in text_of(wrong_type)
    assert unknown.isError and "did you mean 'a'?" in text_of(unknown)
    assert "(parameters: a, b)" in text_of(unknown)
    assert missing.isError and "missing 'a' (number)" in text_of(missing)
    assert failing.isError and "tools.syn:13" in text_of(failing)
    # print goes to stderr, so the protocol on stdout stays intact
    assert (printed.isError, text_of(printed)) == (False, "HI!")
    # a capability the task does not declare is refused even though the program requires it
    assert undeclared.isError
    assert "call_tool runs task 'home' with only the capabilities it declares" in text_of(undeclared)
    assert (declared.isError, text_of(declared)) == (False, "none")
    assert nope.isError and "unknown tool 'nope'" in text_of(nope)


def test_the_host_ceiling_bounds_every_call_and_checks_are_audited(tmp_path):
    script = tmp_path / "tools.syn"
    script.write_text(TOOLS, encoding="utf-8")
    audit = tmp_path / "audit.jsonl"

    async def body(session):
        return await session.call_tool("home_declared", {})

    denied = with_session("--cap-set", "stdout", "--audit", audit, script)(body)
    assert denied.isError and "above the host ceiling" in text_of(denied)
    records = [json.loads(line) for line in audit.read_text().splitlines()]
    assert {"capability": "env", "scope": "APP_HOME", "granted": False} == \
        {k: records[1][k] for k in ("capability", "scope", "granted")}
    assert records[-1]["summary"]["denied"] == 1


def test_only_exported_tasks_are_served_when_a_script_exports_one(tmp_path):
    script = tmp_path / "lib.syn"
    script.write_text("task helper(x)\n    give x\n\n-- Double it.\nexport task double(x: number)\n"
                      "    give helper(x) * 2\n", encoding="utf-8")

    async def body(session):
        return (await session.list_tools()).tools, await session.call_tool("double", {"x": 4})

    tools, result = with_session(script)(body)
    assert [(t.name, t.description) for t in tools] == [("double", "Double it.")]
    assert result.structuredContent == {"result": 8}


def test_under_labels_a_declassified_result_is_sent_and_a_private_one_ends_the_server(tmp_path):
    script = tmp_path / "private.syn"
    script.write_text('let secret be private("s3cr3t", "app")\n\ntask leak()\n    give secret\n\n'
                      'task size()\n    give declassify(length(secret), "the length is public")\n',
                      encoding="utf-8")
    errlog = tmp_path / "stderr.txt"

    async def body(session):
        length = await session.call_tool("size", {})
        try:
            return length, await session.call_tool("leak", {})
        except Exception as closed:   # the SDK's error for a server that went away
            return length, closed

    length, leak = with_session("--labels", script, errlog=errlog)(body)
    assert (length.isError, length.structuredContent) == (False, {"result": 6})
    assert "Connection closed" in str(leak)
    stderr = errlog.read_text()
    assert "label_violation: the outcome of a call of 'leak' depended on private data" in stderr
    assert "s3cr3t" not in stderr


def test_math_operations_are_tools_with_schemas_examples_and_typed_results():
    async def body(session):
        tools = {t.name: t for t in (await session.list_tools()).tools}
        good = await session.call_tool("math_nt_integer_factor", {"n": 360})
        past_bound = await session.call_tool("math_nt_integer_factor", {"n": 10 ** 40})
        return tools, good, past_bound

    tools, good, past_bound = with_session("--math")(body)
    factor = tools["math_nt_integer_factor"]
    assert factor.title == "nt.integer.factor"
    assert "Example" in factor.description and "Bounds:" in factor.description
    assert factor.inputSchema["type"] == "object" and "n" in factor.inputSchema["properties"]
    assert factor.outputSchema["type"] == "object"
    assert all(name.startswith("math_") and "." not in name for name in tools)
    assert good.isError is False
    assert good.structuredContent["factors"][0] == {"prime": 2, "exponent": 3, "primality": "proven"}
    assert past_bound.isError and "integer_out_of_range" in text_of(past_bound)


def test_math_run_many_is_a_tool_with_each_error_in_place():
    async def body(session):
        tools = {t.name: t for t in (await session.list_tools()).tools}
        batch = await session.call_tool("math_run_many", {
            "id": "comb.binomial", "payloads": [{"n": 5, "k": 2}, {"n": "x", "k": 1},
                                                {"n": 6, "k": 3}]})
        unknown = await session.call_tool("math_run_many", {"id": "comb.nope", "payloads": []})
        return tools, batch, unknown

    tools, batch, unknown = with_session("--math")(body)
    schema = tools["math_run_many"].inputSchema
    assert "comb.binomial" in schema["properties"]["id"]["enum"]
    results = batch.structuredContent["results"]
    assert batch.isError is False and [r["status"] for r in results] == ["ok", "error", "ok"]
    assert results[0]["result"] == {"value": 10} and results[2]["result"] == {"value": 20}
    assert results[1]["kind"] == "invalid_request"
    assert unknown.isError and "unknown_operation" in text_of(unknown)


def test_acceptance_math_and_the_seed_tasks_together():
    async def body(session):
        started = time.perf_counter()
        tools = (await session.list_tools()).tools
        elapsed = time.perf_counter() - started
        add = await session.call_tool("add", {"a": 2, "b": 3})
        gcd = await session.call_tool("math_nt_integer_gcd", {"values": [12, 18]})
        return [t.name for t in tools], add, gcd, elapsed

    names, add, gcd, _ = with_session("--math", ROOT / "examples" / "tool_calling.syn")(body)
    assert {"get_weather", "pair", "add", "tag"} <= set(names)
    assert "math_nt_integer_gcd" in names
    assert add.structuredContent == {"result": 5}
    assert gcd.isError is False, text_of(gcd)


def test_usage_and_load_errors(tmp_path):
    assert run_synsema("mcp", "serve").returncode == 2
    assert run_synsema("mcp", "frob").returncode == 2
    assert run_synsema("mcp", "serve", "--http", "x", "--math").returncode == 2
    broken = tmp_path / "broken.syn"
    broken.write_text("task f(\n", encoding="utf-8")
    done = run_synsema("mcp", "serve", broken, timeout=30)
    assert done.returncode == 1 and "broken.syn:1" in done.stderr
    twice = tmp_path / "twice.syn"
    twice.write_text("task f()\n    give 1\n", encoding="utf-8")
    done = run_synsema("mcp", "serve", twice, twice, timeout=30)
    assert done.returncode == 1 and "two tools are named 'f'" in done.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_streamable_http_on_localhost(tmp_path):
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    script = tmp_path / "tools.syn"
    script.write_text(TOOLS, encoding="utf-8")
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "synsema", "mcp", "serve", "--http",
                               str(port), script], env=synsema_env(), cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert "listening on http://127.0.0.1:" in server.stderr.readline()

        async def main():
            with anyio.fail_after(30):
                async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write, _):
                    async with ClientSession(read, write) as session:
                        await session.initialize()
                        tools = (await session.list_tools()).tools
                        return [t.name for t in tools], await session.call_tool("add", {"a": 4})

        names, result = anyio.run(main)
        assert "add" in names and result.structuredContent == {"result": 5}
    finally:
        server.terminate()
        server.wait(10)


def test_math_prewarm_applies_to_the_server(tmp_path):
    """`--math-prewarm` loads the named domains' backends while the server starts; a tool call
    that asks the worker what it holds waits for that load."""
    script = tmp_path / "loaded.syn"
    script.write_text("task loaded()\n    give math.prewarm()\n", encoding="utf-8")

    async def body(session):
        return text_of(await session.call_tool("loaded", {}))

    assert json.loads(with_session("--math-prewarm", "smt", script)(body)) == ["z3"]


def test_each_call_draws_its_own_random_numbers(tmp_path):
    """Calls run in children forked from one process; a program that drew a number while it
    loaded had its generator copied into every child, so every call drew the same numbers."""
    script = tmp_path / "draw.syn"
    script.write_text("require random\nlet warm be random_int(0, 9)\n\ntask draw()\n    require random\n"
                      "    give random_int(0, 1000000000)\n", encoding="utf-8")
    drawn = []

    async def main():
        async with served(script, cwd=tmp_path) as client:
            for _ in range(4):
                result = await client.call_tool("draw", {})
                assert not result.isError, text_of(result)
                drawn.append(text_of(result))

    anyio.run(main)
    assert len(set(drawn)) == 4, drawn
