"""synsema.toml, the project file: found above the command's paths, overridden by flags (and by
the environment where a variable exists), shown by `synsema config`, out of every program's reach,
and scaffolded by `synsema init`."""

from __future__ import annotations

import json
import os

import pytest

from conftest import run_synsema, synsema_env


def project(tmp_path, toml: str, program: str = 'print("hi")\n'):
    (tmp_path / "synsema.toml").write_text(toml, encoding="utf-8")
    (tmp_path / "p.syn").write_text(program, encoding="utf-8")
    return tmp_path


# ------------------------------------------------------------------ the ceiling and the flags
def test_a_project_ceiling_refuses_print_without_any_flag(tmp_path):
    project(tmp_path, '[host]\ncap_set = ["time"]\n')
    done = run_synsema("run", "p.syn", cwd=tmp_path)
    assert done.returncode == 1 and done.stdout == ""
    assert "Capability not granted: stdout" in done.stderr and "above the host ceiling" in done.stderr


def test_flags_override_the_file_and_no_config_ignores_it(tmp_path):
    project(tmp_path, '[host]\ncap_set = ["time"]\n')
    for flags in (["--cap-set", "stdout"], ["--no-config"]):
        done = run_synsema("run", *flags, "p.syn", cwd=tmp_path)
        assert (done.returncode, done.stdout) == (0, "hi\n"), done.stderr
    sandboxed = run_synsema("run", "--sandbox", "p.syn", cwd=tmp_path)  # the flag's ceiling replaces the file's
    assert (sandboxed.returncode, sandboxed.stdout) == (0, "hi\n"), sandboxed.stderr


def test_the_file_is_found_above_the_paths_given_not_only_the_working_directory(tmp_path):
    project(tmp_path, '[host]\ncap_set = ["time"]\n')
    (tmp_path / "deep" / "er").mkdir(parents=True)
    (tmp_path / "deep" / "er" / "q.syn").write_text('print("hi")\n')
    elsewhere = tmp_path.parent
    for path, cwd in ((tmp_path / "deep" / "er" / "q.syn", elsewhere), ("er/q.syn", tmp_path / "deep")):
        done = run_synsema("run", str(path), cwd=cwd)
        assert done.returncode == 1 and "Capability not granted: stdout" in done.stderr
    tested = run_synsema("test", str(tmp_path / "deep"), cwd=elsewhere)
    assert tested.returncode == 1 and "Capability not granted: stdout" in tested.stdout


def test_labels_and_paths_relative_to_the_file(tmp_path):
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "servers.json").write_text('{"mcpServers": {"x": {"command": "true"}}}')
    project(tmp_path, '[host]\nlabels = true\nmcp_config = "conf/servers.json"\n',
            'let p be private("a", "owner")\nprint(p)\n')
    (tmp_path / "sub").mkdir()
    shown = run_synsema("config", "--json", cwd=tmp_path / "sub")
    data = json.loads(shown.stdout)
    assert data["project_file"] == str(tmp_path / "synsema.toml")
    assert data["host"]["mcp_config"] == {"value": str(tmp_path / "conf" / "servers.json"),
                                          "source": "../synsema.toml:3"}
    assert data["host"]["labels"] == {"value": True, "source": "../synsema.toml:2"}
    done = run_synsema("run", "p.syn", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, "private(owner, x)\n"), done.stderr


def test_config_shows_each_value_with_its_source(tmp_path):
    project(tmp_path, '[host]\ncap_set = ["stdout", "time"]\ntime_limit = 30\nmemory_limit = "1G"\n\n'
                      '[llm]\nprovider = "replay"\ncassette = "c.jsonl"\n')
    done = run_synsema("config", "--labels", cwd=tmp_path,
                       env=synsema_env(SYNSEMA_TIME_LIMIT="5", SYNSEMA_LLM_MODEL="m-env"))
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line for line in done.stdout.splitlines() if line.startswith("  ")}
    assert rows["cap_set"].split() == ["cap_set", "stdout,time", "(synsema.toml:2)"]
    assert rows["labels"].split() == ["labels", "true", "(--labels)"]
    assert rows["time_limit"].split() == ["time_limit", "5", "(env", "SYNSEMA_TIME_LIMIT)"]
    assert rows["memory_limit"].split() == ["memory_limit", "1G", "(synsema.toml:4)"]
    assert rows["provider"].split() == ["provider", "replay", "(synsema.toml:7)"]
    assert rows["model"].split() == ["model", "m-env", "(env)"]
    assert rows["cassette"].split() == ["cassette", str(tmp_path / "c.jsonl"), "(synsema.toml:8)"]
    status = json.loads(run_synsema("llm", "status", "--json", cwd=tmp_path).stdout)
    assert status["provider"] == {"value": "replay", "source": "synsema.toml:7"}


def test_the_project_time_limit_applies_below_the_environment(tmp_path):
    project(tmp_path, '[host]\ntime_limit = 1\n', "while true\n    let x be 1\n")
    done = run_synsema("run", "p.syn", cwd=tmp_path, timeout=60)
    assert done.returncode == 3 and "time limit of 1 s exceeded" in done.stderr


# ------------------------------------------------------------------ malformed files: usage errors
@pytest.mark.parametrize("toml, message", [
    ('[host]\ncap_set = ["time"\n', "synsema.toml:3: not valid TOML: Unclosed array (at end of document)"),
    ('[host]\nlabels = yes\n', "synsema.toml:2:10: not valid TOML: Invalid value"),
    ('[host]\nlabels = true\ncap_sets = ["time"]\n',
     "synsema.toml:3: unknown key 'cap_sets' in [host] — did you mean 'cap_set'?"),
    ('[host]\n\nlabels = "yes-sk-SECRET"\n', "synsema.toml:3: [host] labels must be true or false, got a text"),
    ('[host]\ncap_set = "stdout"\n', "synsema.toml:2: [host] cap_set must be a list of texts, got a text"),
    ('[host]\ncap_set = ["stdout,net"]\n', "synsema.toml:2: [host] cap_set: one capability per item"),
    ('[host]\ncap_set = ["stdot"]\n', "synsema.toml:2: [host] cap_set: Unknown capability 'stdot' — did you mean 'stdout'?"),
    ('[host]\ntime_limit = "soon"\n', "synsema.toml:2: --time-limit must be a number of seconds"),
    ('[hots]\nlabels = true\n', "synsema.toml:1: unknown table [hots] (the tables are [host], [llm])"),
    ('[llm]\nbudget = "sk-SECRET"\n', "synsema.toml:2: [llm] budget must be a number, got a text"),
    ('[llm]\nprovider = "sk-SECRET"\n', "unknown SYNSEMA_LLM_PROVIDER in synsema.toml:2"),
    ('[host]\nsandbox = true\ncap_set = ["stdout"]\n', "synsema.toml:3: [host] cap_set and sandbox = true"),
])
def test_a_malformed_file_is_a_usage_error_naming_line_and_key(tmp_path, toml, message):
    project(tmp_path, toml)
    done = run_synsema("run", "p.syn", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert message in done.stderr, done.stderr
    assert "SECRET" not in done.stderr and "Traceback" not in done.stderr


# ------------------------------------------------------------------ out of the program's reach
HOSTILE = '''require file.write(".")
require file.read(".")
each target in args()
    try
        write_file(target, "[host]\\ncap_set = [\\"stdout\\", \\"net\\"]\\n")
        print(target, "written")
    recover e
        print(target, "refused:", e)
'''


def test_no_program_writes_the_project_file_or_a_file_it_names(tmp_path):
    project(tmp_path, '[host]\ncap_set = ["stdout", "file.read=.", "file.write=."]\nmcp_config = "m.json"\n'
                      'env_file = "keys.env"\n\n[llm]\nprovider = "replay"\ncassette = "c.jsonl"\n', HOSTILE)
    for name, text in (("m.json", '{"mcpServers": {}}'), ("keys.env", "A=1\n"), ("c.jsonl", "")):
        (tmp_path / name).write_text(text)
    (tmp_path / "linked.txt").symlink_to(tmp_path / "synsema.toml")
    os.link(tmp_path / "m.json", tmp_path / "hard.json")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    targets = ["synsema.toml", "m.json", "keys.env", "c.jsonl", "linked.txt", "hard.json", "sub/synsema.toml",
               "../synsema.toml", "free.txt"]
    (tmp_path / "sub").mkdir()
    done = run_synsema("run", "p.syn", "--", *targets, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "free.txt written"
    for line in lines[:-1]:
        assert "refused: Capability not granted: file_write" in line and "host's configuration" in line, line
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file() and p.name != "free.txt"} == before
    assert not (tmp_path / "sub" / "synsema.toml").exists() and not (tmp_path.parent / "synsema.toml").exists()


def test_the_named_env_file_cannot_be_read_or_deleted(tmp_path):
    (tmp_path / "keys.env").write_text("OPENAI_API_KEY=sk-host-key\n")
    (tmp_path / "p.syn").write_text('require file.read(".")\nrequire file.write(".")\n'
                                    'try\n    print(read_file("keys.env"))\nrecover e\n    print(e)\n'
                                    'try\n    delete_file("keys.env")\nrecover e\n    print(e)\n')
    done = run_synsema("run", "--env-file", "keys.env", "p.syn", cwd=tmp_path,
                       env=synsema_env(SYNSEMA_LLM_PROVIDER="offline"))
    assert done.returncode == 0 and "sk-host-key" not in done.stdout
    assert [line.split(" — ")[0] for line in done.stdout.splitlines()] == [
        f'Capability not granted: file_read("{tmp_path}/keys.env")',
        f'Capability not granted: file_write("{tmp_path}/keys.env")']
    assert (tmp_path / "keys.env").exists()


# ------------------------------------------------------------------ init
def test_init_scaffolds_a_least_privilege_tested_project(tmp_path):
    done = run_synsema("init", "agent", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    made = tmp_path / "agent"
    assert sorted(p.name for p in made.iterdir()) == [".gitignore", "main.syn", "synsema.toml"]
    assert ".env" in (made / ".gitignore").read_text().splitlines()
    toml = (made / "synsema.toml").read_text()
    assert 'cap_set = ["stdout", "time"]' in toml and "# labels = true" in toml
    tested = run_synsema("test", "main.syn", cwd=made)
    assert tested.returncode == 0 and "2 passed" in tested.stdout, tested.stdout + tested.stderr
    assert run_synsema("fmt", "--check", "main.syn", cwd=made).returncode == 0
    shown = json.loads(run_synsema("config", "--json", cwd=made).stdout)
    assert shown["host"]["cap_set"] == {"value": "stdout,time", "source": "synsema.toml:9"}
    again = run_synsema("init", "agent", cwd=tmp_path)
    assert again.returncode == 2 and "exists already" in again.stderr
    assert (made / "synsema.toml").read_text() == toml
