"""The SDK's log records as one line each, never a traceback.

The `mcp` SDK logs through `logging` (a server line that is not JSON-RPC, a failed request, …)
with tracebacks attached; with no handler configured Python would print them to stderr as they
are. Every failure that matters to a script already reaches it as a language error, so here
the SDK's warnings become one `synsema: mcp: …` line on stderr and its debug chatter is dropped.
"""

from __future__ import annotations

import logging
import sys


class _OneLine(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        try:
            sys.stderr.write(f"synsema: mcp: {record.getMessage()}\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass


def one_line_sdk_logs() -> None:
    """Route the `mcp` logger's warnings and errors to one line each (idempotent)."""
    logger = logging.getLogger("mcp")
    if not any(isinstance(h, _OneLine) for h in logger.handlers):
        logger.addHandler(_OneLine(logging.WARNING))
        logger.setLevel(logging.WARNING)
        logger.propagate = False
