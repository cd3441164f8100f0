"""Effects that outlive a branch, and their one rule under `--labels`.

A builtin that changes process state — something a later, public part of the run can observe —
declares it with `builtin(..., changes=(…), reads=(…))` (stdlib/registry.py), as it declares its
capability and its flow; a task value built in Python (an MCP tool, `math.tool`) declares it
where the task is made. `LabelState.effect` is the one place the declarations are checked:

* **refuse** — changing it under a private pc, or from private arguments, is a
  `label_violation` before anything happens (a process started or a connection opened in one
  branch only would be visible to every later call).
* **store** — the change outlives the run (persistent memory): it is refused under a private
  pc, since that it happened is visible to every later run; private arguments are allowed, and
  the builtin keeps their principals with the value it stores, so every later reading of it is
  private to them (stdlib/memory.py).
* **taint** — the change is allowed, and the state keeps the principals of the pc and of the
  arguments that changed it; every later reading of it (the builtins that declare it in `reads`)
  is private to them. A state untouched by private data reads as public, at no cost.

A capability check is the other effect every run has: the audit log records it with its line,
so under a private pc the check itself is a violation (`Capabilities.check`), whether or not
the host asked for the log — a program behaves the same audited or not.
"""

from __future__ import annotations


class Effect:
    """One process state: its name, its rule ("refuse" or "taint"), and what it is."""

    __slots__ = ("name", "rule", "state")

    def __init__(self, name: str, rule: str, state: str):
        self.name = name
        self.rule = rule
        self.state = state


EFFECTS = {effect.name: effect for effect in (
    Effect("mcp", "refuse",
           "the MCP server processes and connections of the run (started on first use, dead for "
           "the rest of the run once they die)"),
    Effect("llm", "taint",
           "the model session of the process: its configuration (read once), the tokens used "
           "(llm_usage) and the budget left (SYNSEMA_LLM_BUDGET)"),
    Effect("memory", "store",
           "the program's persistent memory (every later run reads it)"),
    Effect("math", "taint",
           "the math worker process and the backends it has loaded (math.prewarm reports them)"),
)}
