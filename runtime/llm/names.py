"""Tool names as an API can carry them, and back.

OpenAI and Anthropic accept tool names matching `[A-Za-z0-9_-]{1,64}`; a script may name a
tool `linalg.det`. On the way out each name the API cannot carry gets a wire name (`linalg_det`,
made unique with a numeric suffix); on the way back the wire name is turned into the script's
name again, so the script only ever sees its own names. A name the model invents is passed
through unchanged — rejecting it is the script's allow-list's job, not ours.
"""

from __future__ import annotations

import re
from typing import Iterable

MAX_LENGTH = 64
_CARRIED = re.compile(r"[A-Za-z0-9_-]{1,64}")
_NOT_CARRIED = re.compile(r"[^A-Za-z0-9_-]")


class ToolNames:
    """The two-way table for one request's tools."""

    def __init__(self, names: Iterable[str]):
        names = list(names)
        self._wire: dict[str, str] = {}
        self._script: dict[str, str] = {}
        # Names the API already accepts keep themselves, so translated ones cannot take them.
        for name in names:
            if _CARRIED.fullmatch(name):
                self._bind(name, name)
        for name in names:
            if name not in self._wire:
                self._bind(name, self._fresh(_NOT_CARRIED.sub("_", name)[:MAX_LENGTH] or "tool"))

    def _bind(self, name: str, wire: str) -> None:
        self._wire[name] = wire
        self._script[wire] = name

    def _fresh(self, base: str) -> str:
        """`base`, or `base_2`, `base_3`… (kept within the length limit) if already taken."""
        candidate = base
        n = 2
        while candidate in self._script:
            suffix = f"_{n}"
            candidate = base[:MAX_LENGTH - len(suffix)] + suffix
            n += 1
        return candidate

    def wire(self, name: str) -> str:
        """The name to send for the script's tool `name`."""
        return self._wire[name]

    def outgoing(self, name: str) -> str:
        """The name to send for a tool named in the conversation: its wire name when it is one
        of this request's tools, else `name` made carriable (a model's invented name)."""
        return self._wire.get(name) or _NOT_CARRIED.sub("_", name)[:MAX_LENGTH] or "tool"

    def script(self, wire: str) -> str:
        """The script's name for a name the model sent; unknown names pass through."""
        return self._script.get(wire, wire)
