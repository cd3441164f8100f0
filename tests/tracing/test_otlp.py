"""OpenTelemetry export: the standard OTLP variables send the run's spans, built by the official
SDK, to a real OTLP/HTTP receiver; with them unset nothing is sent and the SDK is never imported."""

from __future__ import annotations

from conftest import run_synsema, synsema_env
from llm.fakes import FakeServer

from .otlp_receiver import Receiver, attributes
from .programs import AGENT, PLAINTEXT_SECRET, PRIVATE_BALANCE, agent_env, agent_replies


def test_spans_reach_an_otlp_receiver_as_one_tree_with_genai_attributes(tmp_path):
    program = tmp_path / "agent.syn"
    program.write_text(AGENT, encoding="utf-8")
    with Receiver() as receiver, FakeServer() as server:
        agent_replies(server)
        env = agent_env(server, OTEL_EXPORTER_OTLP_ENDPOINT=receiver.endpoint, OTEL_SERVICE_NAME="triage-agent",
                        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT="true")
        done = run_synsema("run", "--labels", program, cwd=tmp_path, env=env)
        assert done.returncode == 0, done.stderr
    assert receiver.paths and set(receiver.paths) == {"/v1/traces"}
    assert receiver.resources()[0]["service.name"] == "triage-agent"
    spans = receiver.spans()
    by_name = {span.name: span for span in spans}
    assert sorted(by_name) == ["chat gpt-4.1-mini", "execute_tool balance", "execute_tool greet",
                               "invoke_agent agent.syn"]
    root = by_name["invoke_agent agent.syn"]
    assert root.parent_span_id == b"" and len({span.trace_id for span in spans}) == 1
    assert all(span.parent_span_id == root.span_id for span in spans if span is not root)
    chats = [span for span in spans if span.name.startswith("chat ")]
    assert len(chats) == 2 and all(span.kind == span.SPAN_KIND_CLIENT for span in chats)
    chat = attributes(chats[0])
    assert chat["gen_ai.operation.name"] == "chat" and chat["gen_ai.provider.name"] == "openai"
    assert chat["gen_ai.request.model"] == "gpt-4.1-mini"
    assert chat["gen_ai.response.finish_reasons"] in (["tool_calls"], ["stop"])
    greet = attributes(by_name["execute_tool greet"])
    assert greet["gen_ai.tool.name"] == "greet" and greet["gen_ai.tool.call.id"]
    denied = [event for event in root.events if event.name == "capability.denied"]
    assert len(denied) == 1 and attributes(denied[0])["synsema.capability"] == "file.read"
    sent = b"".join(receiver.raw)
    assert PLAINTEXT_SECRET.encode() not in sent and str(PRIVATE_BALANCE).encode() not in sent
    assert b"private(bank)" in sent   # the tool's private result, as stdout shows it


def test_without_the_variables_nothing_is_sent_and_the_sdk_is_not_loaded(tmp_path):
    program = tmp_path / "p.syn"
    program.write_text('print("hi")\n', encoding="utf-8")
    probe = ("import runpy, sys\nsys.argv = ['synsema', 'run', sys.argv[1]]\n"
             "try:\n    runpy.run_module('synsema', run_name='__main__')\nexcept SystemExit:\n    pass\n"
             "print(sorted({m.split('.')[0] for m in sys.modules if m.startswith('opentelemetry')}))\n")
    import subprocess
    import sys
    with Receiver() as receiver:
        quiet = subprocess.run([sys.executable, "-c", probe, str(program)], capture_output=True, text=True,
                               env=synsema_env(), cwd=tmp_path, timeout=120)
        disabled = run_synsema("run", program, cwd=tmp_path,
                               env=synsema_env(OTEL_EXPORTER_OTLP_ENDPOINT=receiver.endpoint, OTEL_SDK_DISABLED="true"))
    assert quiet.stdout == "hi\n[]\n", quiet.stderr
    assert disabled.stdout == "hi\n" and receiver.raw == []


def test_a_grpc_protocol_is_a_usage_error_naming_the_fix(tmp_path):
    program = tmp_path / "p.syn"
    program.write_text('print("hi")\n', encoding="utf-8")
    done = run_synsema("run", program, cwd=tmp_path,
                       env=synsema_env(OTEL_EXPORTER_OTLP_ENDPOINT="http://127.0.0.1:9", OTEL_EXPORTER_OTLP_PROTOCOL="grpc"))
    assert done.returncode == 2 and "http/protobuf" in done.stderr and "Traceback" not in done.stderr
