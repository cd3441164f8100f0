"""`synsema llm status`: resolved settings with sources, key presence only, exit 0 live or offline, 1 only
for a configuration problem."""

import json

import pytest

from synsema.runtime.llm.config import load_config
from synsema.runtime.llm.status import status_main

from .conftest import ANTHROPIC_KEY, OPENAI_KEY


def run_status(capsys, as_json, env_file=None):
    code = status_main(as_json, load_config(env_file=env_file))
    out = capsys.readouterr().out
    return code, (json.loads(out) if as_json else out)


def test_offline_is_the_normal_state_and_exits_0(llm_env, capsys):
    code, out = run_status(capsys, False)
    assert code == 0 and out.startswith("LLM: offline")
    assert "OPENAI_API_KEY     absent" in out


def test_live_exits_0_with_each_source(llm_env, capsys, tmp_path):
    (tmp_path / ".env").write_text(f"ANTHROPIC_API_KEY={ANTHROPIC_KEY}\nSYNSEMA_LLM_TIMEOUT=9\n")
    llm_env(OPENAI_API_KEY=OPENAI_KEY, SYNSEMA_LLM_MODEL="gpt-test")
    code, data = run_status(capsys, True, env_file=".env")
    assert code == 0 and data["live"] is True
    assert data["provider"] == {"value": "openai", "source": "inferred from OPENAI_API_KEY (env)"}
    assert data["model"] == {"value": "gpt-test", "source": "env"}
    assert data["timeout"] == {"value": 9.0, "source": ".env"}
    assert data["base_url"] == {"value": "https://api.openai.com/v1", "source": "default"}
    assert data["keys"] == {"OPENAI_API_KEY": {"present": True, "source": "env"},
                            "ANTHROPIC_API_KEY": {"present": True, "source": ".env"}}


@pytest.mark.parametrize("as_json", [False, True])
def test_no_key_value_is_ever_printed(llm_env, capsys, tmp_path, as_json):
    (tmp_path / ".env").write_text(f"ANTHROPIC_API_KEY={ANTHROPIC_KEY}\n")
    llm_env(OPENAI_API_KEY=OPENAI_KEY, SYNSEMA_LLM_PROVIDER="record", SYNSEMA_LLM_CASSETTE="c.jsonl")
    status_main(as_json, load_config(env_file=".env"))
    out = capsys.readouterr().out
    assert OPENAI_KEY not in out and ANTHROPIC_KEY not in out and "SECRET" not in out
    assert "record" in out


def test_problems_are_listed_and_exit_1(llm_env, capsys):
    llm_env(SYNSEMA_LLM_PROVIDER="replay", SYNSEMA_LLM_BUDGET="lots")
    code, out = run_status(capsys, False)
    assert code == 1 and out.startswith("LLM: misconfigured")
    assert "problem: SYNSEMA_LLM_BUDGET must be a whole number of tokens (0 or more), got 'lots' (env)" in out
    assert "problem: the replay provider needs SYNSEMA_LLM_CASSETTE" in out


def test_text_form_shows_units_and_unlimited(llm_env, capsys):
    llm_env(SYNSEMA_LLM_PROVIDER="record", SYNSEMA_LLM_CASSETTE="c.jsonl", ANTHROPIC_API_KEY="k")
    code, out = run_status(capsys, False)
    assert code == 0
    assert "record (wrapping anthropic)" in out and "60 s" in out and "unlimited" in out


@pytest.mark.parametrize("as_json", [False, True])
def test_a_password_in_the_base_url_is_never_printed(llm_env, capsys, as_json):
    llm_env(OPENAI_API_KEY=OPENAI_KEY, OPENAI_BASE_URL="https://me:hunter2@proxy.example/v1?token=abc123")
    status_main(as_json)
    out = capsys.readouterr().out
    assert "hunter2" not in out and "abc123" not in out
    assert "https://***@proxy.example/v1?token=***" in out
