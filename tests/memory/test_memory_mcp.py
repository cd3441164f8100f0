"""`synsema mcp serve` and persistent memory: each tool call (a process of its own) writes the
script's memory, and a later server — a later run — recalls it; the ceiling bounds every call."""

from __future__ import annotations

import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests" / "mcp"))
from mcp_support import text_of, with_session  # noqa: E402

NOTES = '''\
require memory("served")

-- Remember a note.
task note(text: text)
    require memory("served")
    give remember("context", text, ["note"])

-- Every note, oldest first.
task notes()
    require memory("served")
    give reverse(apply(recall("context", ["note"]), (e) => e.content))

task undeclared()
    give length(recall())
'''


def test_tool_calls_write_the_scripts_memory_and_a_later_server_reads_it(tmp_path):
    script = tmp_path / "notes.syn"
    script.write_text(NOTES, encoding="utf-8")

    async def write(session):
        return [await session.call_tool("note", {"text": word}) for word in ("alpha", "beta")] + \
            [await session.call_tool("undeclared", {})]

    first, second, undeclared = with_session(script, cwd=tmp_path)(write)
    assert not first.isError and text_of(first).startswith("mem_"), text_of(first)
    assert not second.isError
    assert undeclared.isError and "call_tool runs task 'undeclared'" in text_of(undeclared)

    async def read(session):
        return await session.call_tool("notes", {})

    later = with_session(script, cwd=tmp_path)(read)
    assert (later.isError, later.structuredContent) == (False, {"result": ["alpha", "beta"]})
    assert (tmp_path / ".synsema" / "memory" / "served.db").is_file()
    refused = with_session("--cap-set", "stdout,memory=other", script, cwd=tmp_path)(read)
    assert refused.isError and "above the host ceiling" in text_of(refused)
