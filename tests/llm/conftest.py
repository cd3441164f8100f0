"""Fixtures for the LLM tests: a clean LLM environment, and fake servers wired in as providers."""

from __future__ import annotations

import pytest

from synsema.runtime.llm import session
from synsema.runtime.llm.config import load_config

from .fakes import FakeServer

LLM_VARIABLES = ("SYNSEMA_LLM_PROVIDER", "SYNSEMA_LLM_BASE_URL", "SYNSEMA_LLM_MODEL",
                 "SYNSEMA_LLM_MAX_TOKENS", "SYNSEMA_LLM_TIMEOUT", "SYNSEMA_LLM_BUDGET",
                 "SYNSEMA_LLM_CASSETTE", "SYNSEMA_LLM_RECORD_PROVIDER", "OPENAI_API_KEY", "ANTHROPIC_API_KEY",
                 "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "SYNSEMA_LLM_REASONING_EFFORT",
                 "SYNSEMA_LLM_THINKING_BUDGET", "SYNSEMA_LLM_STREAM")

OPENAI_KEY = "sk-test-openai-SECRET-4242"
ANTHROPIC_KEY = "sk-ant-test-SECRET-4343"


class StubRuntime:
    """The two things the LLM builtins use of `rt`: a capability check (recorded) and nothing else."""

    def __init__(self):
        self.checked: list[tuple] = []

    def check_cap(self, name, scope):
        self.checked.append((name, scope))


@pytest.fixture
def llm_env(monkeypatch, tmp_path):
    """No LLM variables, no .env (cwd is a fresh directory); call it with variables to set them.

    Returns the fresh process session each time it is called.
    """
    for name in LLM_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)

    def configure(**variables):
        for name, value in variables.items():
            monkeypatch.setenv(name, str(value))
        return session.reset()

    configure()
    yield configure
    session.reset(load_config(environ={}))


@pytest.fixture
def openai_server(llm_env):
    with FakeServer() as server:
        llm_env(SYNSEMA_LLM_PROVIDER="openai", SYNSEMA_LLM_BASE_URL=server.url + "/v1",
                OPENAI_API_KEY=OPENAI_KEY, SYNSEMA_LLM_TIMEOUT="5", SYNSEMA_LLM_MODEL="fake-model")
        yield server


@pytest.fixture
def anthropic_server(llm_env):
    with FakeServer() as server:
        llm_env(SYNSEMA_LLM_PROVIDER="anthropic", SYNSEMA_LLM_BASE_URL=server.url,
                ANTHROPIC_API_KEY=ANTHROPIC_KEY, SYNSEMA_LLM_TIMEOUT="5", SYNSEMA_LLM_MODEL="fake-model")
        yield server


@pytest.fixture(params=["openai", "anthropic"])
def served(request, llm_env):
    """(provider, server, configure) on each provider in turn, pointed at a fresh fake server;
    `configure(**variables)` sets more variables (or overrides these) and returns the new session."""
    provider = request.param
    with FakeServer() as server:
        def configure(**variables):
            settings = {"SYNSEMA_LLM_PROVIDER": provider, "SYNSEMA_LLM_TIMEOUT": "5", "OPENAI_API_KEY": OPENAI_KEY,
                        "SYNSEMA_LLM_BASE_URL": server.url + ("/v1" if provider == "openai" else ""),
                        "ANTHROPIC_API_KEY": ANTHROPIC_KEY, "SYNSEMA_LLM_MODEL": "fake-model"}
            return llm_env(**{**settings, **variables})
        configure()
        yield provider, server, configure


@pytest.fixture
def rt():
    return StubRuntime()
