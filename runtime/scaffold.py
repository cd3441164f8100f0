"""`synsema init [DIR]`: a new project that starts least-privileged and tested.

It writes three files and nothing else: `synsema.toml` (the host ceiling of a program that only
prints, with every other key commented out beside what it does), `main.syn` (a task, its use,
and its tests, in `synsema fmt`'s canonical form), and `.gitignore` (the venv, caches, and `.env`,
where API keys live). A file that already exists is never overwritten: init then writes nothing.
"""

from __future__ import annotations

import os

PROJECT_FILE = """\
# synsema.toml: the host configuration of this project, read before any program here runs.
# Flags on the command line override it; `synsema config` shows every setting in force and
# where it came from. No program can write this file, nor any file it names.

[host]
# The ceiling: the most a program may be granted, whatever it requires. Least privilege:
# add only what main.syn needs, with the narrowest scope, e.g. "file.read=./data",
# "file.write=./out", "net=api.example.com", "env=APP_*", "llm".
cap_set = ["stdout", "time"]
# labels = true              # track private values: private data cannot reach a sink it may not
# audit = "audit.jsonl"      # log every capability check as JSON lines
# time_limit = 60            # seconds before a command is stopped
# memory_limit = "1G"
# mcp_config = "mcp.json"    # the MCP servers a program may reach (require mcp("name"))
# env_file = ".env"          # read API keys and SYNSEMA_LLM_* from this file (never read unless named)

[llm]
# provider = "replay"        # offline (default), openai, anthropic, replay or record
# model = "gpt-4.1-mini"
# cassette = "main.cassette.jsonl"
"""

MAIN = """\
-- Start here: `synsema run main.syn` runs it, `synsema test main.syn` runs its tests.

task greet(name: text)
    give "hello, " + name

print(greet("world"))

test "greet says hello"
    assert_eq(greet("Ada"), "hello, Ada")

test "greet keeps the name as written"
    assert_eq(greet(""), "hello, ")
"""

GITIGNORE = """\
.venv/
__pycache__/
# API keys: name it with --env-file or [host] env_file; never commit it
.env
audit.jsonl
"""

FILES = (("synsema.toml", PROJECT_FILE), ("main.syn", MAIN), (".gitignore", GITIGNORE))


class ScaffoldError(Exception):
    """The project cannot be created as asked (a file exists, the directory cannot be made)."""


def scaffold(directory: str) -> list[str]:
    """Create the project's files in `directory` (made if missing); the paths written."""
    targets = [(os.path.join(directory, name), text) for name, text in FILES]
    existing = [path for path, _ in targets if os.path.lexists(path)]
    if existing:
        raise ScaffoldError(f"{existing[0]} exists already; init writes nothing over a file "
                            "(start the project in an empty or new directory)")
    try:
        os.makedirs(directory, exist_ok=True)
        for path, text in targets:
            with open(path, "x", encoding="utf-8") as handle:
                handle.write(text)
    except OSError as problem:
        raise ScaffoldError(f"cannot create {problem.filename or directory}: {problem.strerror}") from None
    return [path for path, _ in targets]
