"""A labelled program runs live, records, replays and runs offline with one command line (issue 26).

The ceiling item `llm=<principal>@<host>` names the host a private prompt may reach. A cassette
keeps the host it was recorded against, and replay checks the item against that host, so the
flags that recorded a run replay it — with no endpoint configured at all. Offline nothing is
sent, and any `llm=<principal>@…` item of the principal allows the prompt. Misses and provider
errors under labels keep their public facts: the line, the kind, and the side file of the miss.
"""

import json

from .fakes import FakeServer, openai_error, openai_text, openai_tool_call
from .test_cli_programs import openai_env, synsema

TRIAGE = '''\
require llm("customer")

let accounts be private({"c-1": "plan pro, charged twice in March"}, "customer")

task lookup(customer_id: text)
    give accounts[customer_id]

let ticket be private("c-1: I was charged twice", "customer")
let catalog be [tool_spec(lookup, "The customer's account")]
let answer be llm_step("Category of this ticket? " + ticket, catalog, [])
when declassify(answer["kind"] == "tool", "whether the model looked the account up")
    let context be [answer, tool_result(answer, call_tool(lookup, answer["args"]))]
    set answer to llm_step("Category of this ticket? " + ticket, catalog, context)
print(declassify(answer["text"] == "billing", "whether the category is billing: one bit per ticket"))
'''

FLAGS = ["--labels", "--cap-set", "stdout,llm=customer@127.0.0.1,declassify=customer"]


def write(tmp_path, source=TRIAGE):
    program = tmp_path / "triage.syn"
    program.write_text(source, encoding="utf-8")
    return program


def replay_env(cassette) -> dict:
    return {"SYNSEMA_LLM_PROVIDER": "replay", "SYNSEMA_LLM_CASSETTE": str(cassette)}


def answers(server: FakeServer) -> FakeServer:
    return server.reply(openai_tool_call("lookup", '{"customer_id": "c-1"}')).reply(openai_text("billing"))


def test_one_command_line_runs_live_records_replays_and_runs_offline(tmp_path):
    program = write(tmp_path)
    cassette = tmp_path / "triage.cassette.jsonl"
    with FakeServer() as server:
        live = synsema(["run", *FLAGS, str(program)], openai_env(answers(server)))
        recorded = synsema(["run", *FLAGS, str(program)], {
            **openai_env(answers(server)), "SYNSEMA_LLM_PROVIDER": "record", "SYNSEMA_LLM_CASSETTE": str(cassette)})
        host = f"127.0.0.1:{server.url.rsplit(':', 1)[1]}"
        sent = server.bodies()
    assert (live.returncode, live.stdout, live.stderr) == (0, "true\n", "")
    assert (recorded.returncode, recorded.stdout, recorded.stderr) == (0, "true\n", "")
    assert "charged twice in March" in json.dumps(sent[-1])   # the tool's private result reached the model
    assert json.loads(cassette.read_text().splitlines()[0])["host"] == host

    replayed = synsema(["run", *FLAGS, str(program)], replay_env(cassette))   # no endpoint, no key
    assert (replayed.returncode, replayed.stdout, replayed.stderr) == (0, "true\n", "")
    offline = synsema(["run", *FLAGS, str(program)])
    assert (offline.returncode, offline.stdout, offline.stderr) == (0, "false\n", "")


def test_replay_checks_the_ceiling_against_the_recorded_host(tmp_path):
    program = write(tmp_path)
    cassette = tmp_path / "c.jsonl"
    with FakeServer() as server:
        synsema(["run", *FLAGS, str(program)], {
            **openai_env(answers(server)), "SYNSEMA_LLM_PROVIDER": "record", "SYNSEMA_LLM_CASSETTE": str(cassette)})
        port = server.url.rsplit(":", 1)[1]
    elsewhere = synsema(["run", "--labels", "--cap-set", "stdout,llm=customer@api.anthropic.com,declassify=customer",
                         str(program)], {**replay_env(cassette), "SYNSEMA_LLM_BASE_URL": "https://api.anthropic.com"})
    assert elsewhere.returncode == 1 and elsewhere.stdout == ""
    assert elsewhere.stderr.startswith("Runtime error: ")
    assert "triage.syn:10:" in elsewhere.stderr and "label_violation: llm_step()" in elsewhere.stderr
    assert "its prompt is private to customer" in elsewhere.stderr
    assert f"the host must add llm=customer@127.0.0.1:{port} to --cap-set" in elsewhere.stderr


def test_a_cassette_naming_no_host_replays_under_any_llm_item_of_the_principal(tmp_path):
    """A hand-written cassette sends nothing anywhere: like offline, an item naming the principal
    at some host is enough; an item naming no host (or none at all) is not."""
    program = write(tmp_path, 'require llm("customer")\nlet t be private("hi", "customer")\n'
                              'print(declassify(llm_step(t, [], "")["text"], "a greeting"))\n')
    cassette = tmp_path / "hand.jsonl"
    request = {"op": "step", "prompt": "hi", "context": "", "tools": [], "force": None}
    cassette.write_text(json.dumps({"request": request, "reply": {"kind": "text", "text": "hello"}}) + "\n")
    ran = synsema(["run", *FLAGS, str(program)], replay_env(cassette))
    assert (ran.returncode, ran.stdout, ran.stderr) == (0, "hello\n", "")
    refused = synsema(["run", "--labels", "--cap-set", "stdout,llm=customer,declassify=customer", str(program)],
                      replay_env(cassette))
    assert refused.returncode == 1 and "the host must add llm=customer@HOST" in refused.stderr


def test_a_miss_under_labels_names_its_line_kind_and_side_file_and_shows_no_private_text(tmp_path):
    program = write(tmp_path)
    cassette = tmp_path / "empty.jsonl"
    cassette.write_text("")
    missed = synsema(["run", *FLAGS, str(program)], replay_env(cassette))
    side = tmp_path / "empty.missing.jsonl"
    assert missed.returncode == 1 and missed.stdout == ""
    assert missed.stderr == (f"Runtime error: {program}:10: private(customer): a cassette miss; the line to add is "
                             f"in {side}\n")
    entry = json.loads(side.read_text(encoding="utf-8"))
    assert entry["request"]["prompt"] == "Category of this ticket? c-1: I was charged twice"
    entry["reply"] = {"kind": "tool", "calls": [{"id": "t1", "name": "lookup", "args": {"customer_id": "c-1"}}]}
    cassette.write_text(json.dumps(entry) + "\n")
    second = synsema(["run", *FLAGS, str(program)], replay_env(cassette))
    assert second.stderr.startswith(f"Runtime error: {program}:13: private(customer): a cassette miss")
    assert "charged twice in March" in side.read_text(encoding="utf-8")   # the whole conversation, for the host


def test_a_provider_error_under_labels_names_its_line_and_kind(tmp_path):
    program = write(tmp_path)
    with FakeServer() as server:
        server.reply(openai_error("invalid key"), status=401)
        failed = synsema(["run", *FLAGS, str(program)], openai_env(server))
    assert failed.returncode == 1 and "invalid key" not in failed.stderr
    assert failed.stderr == (f"Runtime error: {program}:10: private(customer): a provider error whose message "
                             f"depends on private data\n")


def test_the_program_cannot_read_the_cassette_or_its_side_file(tmp_path):
    cassette = tmp_path / "c.jsonl"
    cassette.write_text("")
    (tmp_path / "c.missing.jsonl").write_text("{}\n")
    for name in ("c.jsonl", "c.missing.jsonl"):
        program = write(tmp_path, f'require file.read("./*")\nprint(read_file("{name}"))\n')
        refused = synsema(["run", str(program)], replay_env(cassette), cwd=tmp_path)
        assert refused.returncode == 1, refused.stderr
        assert "it is part of the host's configuration" in refused.stderr
