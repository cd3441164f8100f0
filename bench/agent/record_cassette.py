"""Write agent.cassette.jsonl: the replies agent_loop.syn's 30 questions get from the replay provider.

The cassette is produced through the interpreter's own `record` provider (runtime.llm.cassette.Record)
wrapped around a scripted stand-in for a model, not by hand: replay finds a reply by a hash of the
exact request (prompt, context so far, tool catalog with its schemas), and only the interpreter
itself can be trusted to build those requests byte for byte. Re-run this script whenever
agent_loop.syn or the request format changes; `bench/run.py` reports a replay miss as an error row.

    .venv/bin/python bench/agent/record_cassette.py
"""

from __future__ import annotations

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROGRAM = os.path.join(HERE, "agent_loop.syn")
CASSETTE = os.path.join(HERE, "agent.cassette.jsonl")


class ScriptedModel:
    """A deterministic 'model': picks the next tool from the question and what the context holds.

    Weather questions take one tool call; sums take two chained `add` calls; "who is" questions
    first ask for a tool that is not on the allow-list (the loop must refuse it), then `lookup`.
    """

    def complete(self, ask):
        from synsema.runtime.llm.exchange import Reply
        prompt, ctx = ask.prompt, ask.context
        tokens = 30 + len(prompt) // 4 + len(ctx) // 4
        weather = re.match(r"What is the weather in (\w+)\?", prompt)
        if weather:
            if "get_weather =>" not in ctx:
                return Reply("tool", name="get_weather", args={"city": weather.group(1)}, tokens=tokens)
            return Reply("text", text=f"It is sunny in {weather.group(1)}.", tokens=tokens)
        total = re.match(r"What is (\d+) plus (\d+), and then plus (\d+)\?", prompt)
        if total:
            results = re.findall(r"add => (\d+)", ctx)
            if not results:
                return Reply("tool", name="add", args={"a": int(total.group(1)), "b": int(total.group(2))},
                             tokens=tokens)
            if len(results) == 1:
                return Reply("tool", name="add", args={"a": int(results[0]), "b": int(total.group(3))},
                             tokens=tokens)
            return Reply("text", text=f"The answer is {results[-1]}.", tokens=tokens)
        who = re.match(r"Who is (\w+)\?", prompt)
        if who:
            if "delete_logs" not in ctx:
                return Reply("tool", name="delete_logs", args={}, tokens=tokens)
            found = re.search(r"lookup => ([^\]]+)\]", ctx)
            if not found:
                return Reply("tool", name="lookup", args={"key": who.group(1)}, tokens=tokens)
            return Reply("text", text=f"That is {found.group(1)}.", tokens=tokens)
        return Reply("text", text="I cannot help with that.", tokens=tokens)


def main() -> int:
    sys.path.insert(0, ROOT)
    os.environ["SYNSEMA_LLM_PROVIDER"] = "replay"
    os.environ["SYNSEMA_LLM_CASSETTE"] = CASSETTE
    from synsema.runtime import cli
    from synsema.runtime.llm import cassette, session
    if os.path.exists(CASSETTE):
        os.remove(CASSETTE)
    current = session.reset()
    # Session builds its provider lazily; installing one first makes every request go through
    # Record, which appends {key, request, reply} exactly as `SYNSEMA_LLM_PROVIDER=record` would.
    current._provider = cassette.Record(ScriptedModel(), CASSETTE)
    code = cli.main(["run", PROGRAM])
    with open(CASSETTE, encoding="utf-8") as handle:
        exchanges = sum(1 for _ in handle) - 1
    sys.stderr.write(f"recorded {exchanges} exchanges in {CASSETTE}\n")
    return code


if __name__ == "__main__":
    sys.exit(main())
