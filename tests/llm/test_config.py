"""Provider resolution and knobs: process environment > the named env file > default, each with
its source."""

import os

import pytest

from synsema.runtime.llm.config import load_config, read_dotenv


def config(env=None, dotenv=None, tmp_path=None):
    if dotenv is None:
        return load_config(environ=env or {})
    (tmp_path / ".env").write_text(dotenv)
    os.chdir(tmp_path)  # the source shown is the env file as the host named it
    return load_config(environ=env or {}, env_file=".env")


@pytest.fixture(autouse=True)
def _back_to_the_checkout(monkeypatch):
    monkeypatch.chdir(os.getcwd())


def test_nothing_configured_is_offline_with_defaults(tmp_path):
    c = config(tmp_path=tmp_path)
    assert (c.provider.value, c.provider.source) == ("offline", "default")
    assert c.live is False and c.backend is None and c.problems == ()
    assert (c.max_tokens.value, c.timeout.value, c.budget.value, c.cassette.value) == (1024, 60.0, None, None)


def test_a_key_selects_its_provider(tmp_path):
    c = config({"ANTHROPIC_API_KEY": "k"}, tmp_path=tmp_path)
    assert c.provider.value == "anthropic" and c.provider.source == "inferred from ANTHROPIC_API_KEY (env)"
    assert c.base_url.value == "https://api.anthropic.com" and c.live


def test_with_both_keys_openai_is_inferred(tmp_path):
    c = config({"ANTHROPIC_API_KEY": "k", "OPENAI_API_KEY": "k"}, tmp_path=tmp_path)
    assert c.provider.value == "openai" and c.base_url.value == "https://api.openai.com/v1"


def test_the_explicit_provider_wins_over_keys(tmp_path):
    c = config({"OPENAI_API_KEY": "k", "SYNSEMA_LLM_PROVIDER": "Offline"}, tmp_path=tmp_path)
    assert (c.provider.value, c.provider.source) == ("offline", "env")
    assert c.key_sources["OPENAI_API_KEY"] == "env"


def test_process_environment_beats_dotenv_beats_default(tmp_path):
    c = config({"SYNSEMA_LLM_MODEL": "from-env"},
               'SYNSEMA_LLM_MODEL=from-dotenv\nexport SYNSEMA_LLM_TIMEOUT="12.5"\nOPENAI_API_KEY=sk-x # note\n',
               tmp_path)
    assert (c.model.value, c.model.source) == ("from-env", "env")
    assert (c.timeout.value, c.timeout.source) == (12.5, ".env")
    assert (c.budget.value, c.budget.source) == (None, "default")
    assert c.provider.source == "inferred from OPENAI_API_KEY (.env)"
    assert c.api_key("openai") == "sk-x"


def test_empty_values_count_as_unset(tmp_path):
    c = config({"OPENAI_API_KEY": "", "SYNSEMA_LLM_PROVIDER": " "}, "SYNSEMA_LLM_BUDGET=\n", tmp_path)
    assert c.provider.value == "offline" and c.key_sources["OPENAI_API_KEY"] is None
    assert c.budget.source == "default"


def test_dotenv_syntax(tmp_path):
    path = tmp_path / ".env"
    path.write_text("# comment\n\nA=1\nexport B='two words'\nC = \"x#y\"\nD=plain # trailing\nnot a line\n")
    assert read_dotenv(str(path)) == {"A": "1", "B": "two words", "C": "x#y", "D": "plain"}
    assert read_dotenv(str(tmp_path / "missing")) == {}


@pytest.mark.parametrize("name, value, fragment", [
    ("SYNSEMA_LLM_TIMEOUT", "soon", "SYNSEMA_LLM_TIMEOUT must be a positive number of seconds, got 'soon' (env)"),
    ("SYNSEMA_LLM_TIMEOUT", "0", "SYNSEMA_LLM_TIMEOUT must be a positive number of seconds"),
    ("SYNSEMA_LLM_TIMEOUT", "inf", "SYNSEMA_LLM_TIMEOUT must be a positive number of seconds"),
    ("SYNSEMA_LLM_MAX_TOKENS", "0", "SYNSEMA_LLM_MAX_TOKENS must be a positive whole number of tokens"),
    ("SYNSEMA_LLM_BUDGET", "-1", "SYNSEMA_LLM_BUDGET must be a whole number of tokens (0 or more)"),
    ("SYNSEMA_LLM_BUDGET", "1.5", "SYNSEMA_LLM_BUDGET must be a whole number"),
    ("SYNSEMA_LLM_PROVIDER", "gemini", "unknown SYNSEMA_LLM_PROVIDER 'gemini' (one of: offline, openai, "
                                      "anthropic, replay, record)"),
])
def test_bad_values_are_problems_not_exceptions(tmp_path, name, value, fragment):
    c = config({"OPENAI_API_KEY": "k", name: value}, tmp_path=tmp_path)
    assert any(fragment in problem for problem in c.problems), c.problems
    assert c.live is False


def test_anthropic_needs_its_key_and_openai_does_not(tmp_path):
    assert config({"SYNSEMA_LLM_PROVIDER": "anthropic"}, tmp_path=tmp_path).problems == (
        "the anthropic provider needs ANTHROPIC_API_KEY",)
    assert config({"SYNSEMA_LLM_PROVIDER": "openai"}, tmp_path=tmp_path).problems == ()


def test_replay_and_record_need_a_cassette_and_record_needs_a_real_provider(tmp_path):
    assert config({"SYNSEMA_LLM_PROVIDER": "replay"}, tmp_path=tmp_path).problems == (
        "the replay provider needs SYNSEMA_LLM_CASSETTE (a .jsonl file)",)
    problems = config({"SYNSEMA_LLM_PROVIDER": "record", "SYNSEMA_LLM_CASSETTE": "c.jsonl"}, tmp_path=tmp_path).problems
    assert problems == ("the record provider wraps a real one: set SYNSEMA_LLM_RECORD_PROVIDER (openai or "
                        "anthropic), or OPENAI_API_KEY or ANTHROPIC_API_KEY",)
    c = config({"SYNSEMA_LLM_PROVIDER": "record", "SYNSEMA_LLM_CASSETTE": "c.jsonl", "ANTHROPIC_API_KEY": "k"},
               tmp_path=tmp_path)
    assert c.backend == "anthropic" and c.model.value == "claude-haiku-4-5" and c.live


def test_replay_is_live_without_any_key(tmp_path):
    c = config({"SYNSEMA_LLM_PROVIDER": "replay", "SYNSEMA_LLM_CASSETTE": "x.jsonl"}, tmp_path=tmp_path)
    assert c.live and c.backend is None and c.model.value is None


def test_the_key_value_is_not_in_the_config_repr(tmp_path):
    c = config({"OPENAI_API_KEY": "sk-very-secret"}, tmp_path=tmp_path)
    assert "sk-very-secret" not in repr(c)


# ---------------------------------------------------------------- base URLs
def test_the_sdk_base_url_variables_are_honoured_below_synsema_s_own(tmp_path):
    c = config({"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "http://localhost:8000/v1"}, tmp_path=tmp_path)
    assert (c.base_url.value, c.base_url.source) == ("http://localhost:8000/v1", "OPENAI_BASE_URL (env)")
    c = config({"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "http://a/v1", "SYNSEMA_LLM_BASE_URL": "http://b/v1"},
               tmp_path=tmp_path)
    assert (c.base_url.value, c.base_url.source) == ("http://b/v1", "env")
    c = config({"ANTHROPIC_API_KEY": "k"}, "ANTHROPIC_BASE_URL=http://proxy:9000\n", tmp_path)
    assert (c.base_url.value, c.base_url.source) == ("http://proxy:9000", "ANTHROPIC_BASE_URL (.env)")


def test_the_other_provider_s_base_url_variable_is_ignored(tmp_path):
    c = config({"ANTHROPIC_API_KEY": "k", "OPENAI_BASE_URL": "http://localhost:8000/v1"}, tmp_path=tmp_path)
    assert c.base_url.value == "https://api.anthropic.com"


@pytest.mark.parametrize("url, fragment", [
    ("localhost:8000/v1", "must start with http:// or https://"),
    ("http://", "has no host"),
    ("http://host:port/v1", "is not a valid URL"),
    ("http://[::1/v1", "is not a valid URL"),
    ("http://host/v 1", "must not contain spaces"),
])
def test_a_malformed_base_url_is_a_problem(tmp_path, url, fragment):
    c = config({"OPENAI_API_KEY": "k", "SYNSEMA_LLM_BASE_URL": url}, tmp_path=tmp_path)
    assert len(c.problems) == 1 and fragment in c.problems[0] and "SYNSEMA_LLM_BASE_URL" in c.problems[0]


def test_a_password_in_a_malformed_base_url_is_not_in_the_problem(tmp_path):
    c = config({"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "ftp://user:hunter2@host/v1"}, tmp_path=tmp_path)
    assert "hunter2" not in c.problems[0] and "ftp://***@host/v1" in c.problems[0]


@pytest.mark.parametrize("url, shown", [
    ("https://user:hunter2@host/v1", "https://***@host/v1"),
    ("https://tok_hunter2@host", "https://***@host"),
    ("https://host/v1?api_key=hunter2&x=1", "https://host/v1?api_key=***&x=1"),
    ("https://host/v1?api-version=2024-06-01", "https://host/v1?api-version=2024-06-01"),
])
def test_redact_url(url, shown):
    from synsema.runtime.llm.config import redact_url
    assert redact_url(url) == shown


# ---------------------------------------------------------------- keys
@pytest.mark.parametrize("key, where", [("“sk-abc”", "U+201C at position 1"), ("sk-a bc", "U+0020 at position 5"),
                                        ("sk-\u00e9", "U+00E9 at position 4")])
def test_a_key_an_http_header_cannot_carry_is_a_problem_that_does_not_show_it(tmp_path, key, where):
    c = config({"OPENAI_API_KEY": key}, tmp_path=tmp_path)
    assert c.problems == (f"OPENAI_API_KEY has a character an HTTP header cannot carry ({where}): paste the key "
                          "again without quotes or spaces",)
    assert key not in c.problems[0]


def test_a_bad_key_of_the_provider_not_used_is_no_problem(tmp_path):
    assert config({"OPENAI_API_KEY": "k", "ANTHROPIC_API_KEY": "“x”"}, tmp_path=tmp_path).problems == ()


# ---------------------------------------------------------------- record wraps either provider
def test_record_wraps_the_provider_it_is_told_whatever_keys_are_set(tmp_path):
    env = {"SYNSEMA_LLM_PROVIDER": "record", "SYNSEMA_LLM_CASSETTE": "c.jsonl", "OPENAI_API_KEY": "k",
           "ANTHROPIC_API_KEY": "k", "SYNSEMA_LLM_RECORD_PROVIDER": "anthropic"}
    c = config(env, tmp_path=tmp_path)
    assert c.backend == "anthropic" and c.base_url.value == "https://api.anthropic.com" and c.live
    local = config({"SYNSEMA_LLM_PROVIDER": "record", "SYNSEMA_LLM_CASSETTE": "c.jsonl",
                    "SYNSEMA_LLM_RECORD_PROVIDER": "OpenAI", "SYNSEMA_LLM_BASE_URL": "http://127.0.0.1:8080/v1"},
                   tmp_path=tmp_path)
    assert local.backend == "openai" and local.problems == ()
    bad = config({**env, "SYNSEMA_LLM_RECORD_PROVIDER": "gemini"}, tmp_path=tmp_path)
    assert bad.problems == ("SYNSEMA_LLM_RECORD_PROVIDER must be openai or anthropic, got 'gemini' (env)",)
    assert config({**env, "ANTHROPIC_API_KEY": ""}, tmp_path=tmp_path).problems == (
        "the record provider needs ANTHROPIC_API_KEY",)
