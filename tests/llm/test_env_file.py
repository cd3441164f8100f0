"""Issue 25, configuration belongs to the host: a `.env` is read only when the host names it
(`--env-file PATH` or synsema.toml's `[host] env_file`), the LLM settings are fixed before the
program runs, and a bad value in a file is a usage error that never shows the value."""

from __future__ import annotations

import http.server
import json
import threading

import pytest

from conftest import run_synsema, synsema_env

ATTACK = ("SYNSEMA_LLM_PROVIDER=openai\nOPENAI_API_KEY=sk-attacker\n"
          "OPENAI_BASE_URL=http://127.0.0.1:{port}/v1\nSYNSEMA_LLM_TIMEOUT=2\n")


class Listener:
    """A real HTTP server on 127.0.0.1 that counts the requests reaching it (the attacker's)."""

    def __init__(self):
        hits = self.hits = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                hits.append(dict(self.headers))
                self.send_response(500)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def listener():
    server = Listener()
    yield server
    server.close()


def test_a_script_writing_its_own_env_file_mid_run_changes_nothing(tmp_path, listener):
    (tmp_path / "p.syn").write_text(
        'require file.write(".")\n'
        f'write_file(".env", {json.dumps(ATTACK.format(port=listener.port))})\n'
        'print(llm_available())\nprint(reason about "the sky")\n')
    host = synsema_env(OPENAI_API_KEY="sk-host-key")  # the host's key, its default endpoint
    host["SYNSEMA_LLM_PROVIDER"] = "offline"
    done = run_synsema("run", "p.syn", cwd=tmp_path, env=host)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "false"
    assert (tmp_path / ".env").exists()
    again = run_synsema("run", "p.syn", cwd=tmp_path, env=host)   # nor the next run
    assert again.stdout.splitlines()[0] == "false" and listener.hits == []


def test_an_untrusted_folder_s_env_is_not_read_without_the_host_opting_in(tmp_path, listener):
    (tmp_path / ".env").write_text(ATTACK.format(port=listener.port))
    (tmp_path / "p.syn").write_text('print(llm_available())\n')
    status = json.loads(run_synsema("llm", "status", "--json", cwd=tmp_path).stdout)
    assert status["provider"] == {"value": "offline", "source": "default"}
    assert status["keys"]["OPENAI_API_KEY"]["present"] is False
    assert run_synsema("run", "p.syn", cwd=tmp_path).stdout == "false\n"
    named = run_synsema("run", "--env-file", ".env", "p.syn", cwd=tmp_path)  # the host opts in
    assert named.stdout == "true\n", named.stderr
    refused = run_synsema("run", "--env-file", ".env", "--no-env-file", "p.syn", cwd=tmp_path)
    assert refused.stdout == "false\n"
    assert listener.hits == []


def test_the_project_file_names_the_env_file_relative_to_itself(tmp_path):
    (tmp_path / "keys").mkdir()
    (tmp_path / "keys" / "llm.env").write_text("SYNSEMA_LLM_PROVIDER=replay\nSYNSEMA_LLM_CASSETTE=c.jsonl\n")
    (tmp_path / "synsema.toml").write_text('[host]\nenv_file = "keys/llm.env"\n')
    (tmp_path / "sub").mkdir()
    status = json.loads(run_synsema("llm", "status", "--json", cwd=tmp_path / "sub").stdout)
    assert status["provider"] == {"value": "replay", "source": str(tmp_path / "keys" / "llm.env")}
    missing = run_synsema("run", "--env-file", "nope.env", "-", cwd=tmp_path, stdin="print(1)\n")
    assert missing.returncode == 2 and "--env-file: cannot read nope.env: no such file" in missing.stderr


@pytest.mark.parametrize("line, said", [
    ("SYNSEMA_LLM_TIMEOUT=sk-live-SECRET", "SYNSEMA_LLM_TIMEOUT must be a positive number of seconds (bad.env)"),
    ("SYNSEMA_LLM_PROVIDER=sk-live-SECRET", "unknown SYNSEMA_LLM_PROVIDER in bad.env"),
    ("SYNSEMA_LLM_BASE_URL=sk-live-SECRET", "SYNSEMA_LLM_BASE_URL must start with http:// or https:// (bad.env)"),
    ("OPENAI_API_KEY=sk-live “SECRET”", "OPENAI_API_KEY has a character an HTTP header cannot carry"),
])
def test_a_bad_value_in_the_env_file_is_a_usage_error_that_does_not_show_it(tmp_path, line, said):
    (tmp_path / "bad.env").write_text(f"{line}\n")
    (tmp_path / "p.syn").write_text('print("ran")\n')
    done = run_synsema("run", "--env-file", "bad.env", "p.syn", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert said in done.stderr, done.stderr
    assert "SECRET" not in done.stderr and "sk-live" not in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("text, said", [
    ("OPENAI_API_KEY sk-live-SECRET\n", "bad.env:1 is not a KEY=value line"),
    ("# keys\n\nA=1\nsk-live-SECRET=x\n", "bad.env:4 is not a KEY=value line"),
    ("OPENAI_API_KEY=sk-live-\xff-SECRET\n".encode("latin-1"), "bad.env is not UTF-8 text"),
])
def test_a_malformed_env_file_is_a_usage_error_naming_the_line_not_its_text(tmp_path, text, said):
    (tmp_path / "bad.env").write_bytes(text if isinstance(text, bytes) else text.encode())
    (tmp_path / "p.syn").write_text('print("ran")\n')
    done = run_synsema("run", "--env-file", "bad.env", "p.syn", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert said in done.stderr, done.stderr
    assert "SECRET" not in done.stderr and "Traceback" not in done.stderr
