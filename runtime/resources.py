"""Host resource limits for `run`, `test` and `repl`: wall-clock time and memory.

The value-size limits (runtime.limits) keep any one operation small; these bound a whole command,
whatever the program does in between, so an agent's script can never take the machine with it.

* `--time-limit SECONDS` (or SYNSEMA_TIME_LIMIT): the command — the program, the whole test run,
  the whole REPL session — ends when the time is up. No default: agents wait on models.
* `--memory-limit SIZE` (or SYNSEMA_MEMORY_LIMIT), `512M`, `2G`, plain bytes, or `off`: the
  process's data segment (RLIMIT_DATA: heap and private mappings, inherited by the math
  workers) may not grow past SIZE plus the interpreter's call-stack reservation. Default 4G.
  Going past it is an `out of memory` language error at the line that asked, which `recover`
  can catch; uncaught, the run ends with it.

Either limit ending a command gives exit code LIMIT_EXIT and an audit record (`--audit`).
"""

from __future__ import annotations

import os
import re

LIMIT_EXIT = 3
DEFAULT_MEMORY = 4 * 1024 ** 3
# The worker thread's stack (runtime.cli.on_big_stack) is reserved up front and counts toward
# RLIMIT_DATA although almost none of it is touched; the limit is granted on top of it.
STACK_RESERVATION = 512 * 1024 * 1024

_UNITS = {"": 1, "k": 1024, "m": 1024 ** 2, "g": 1024 ** 3, "t": 1024 ** 4}
# Compiled by the first size read (re caches it), not at import: a case-insensitive pattern is slow
# to compile, and most runs read no size.
_SIZE = r"(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?"
_OFF = ("0", "off", "none", "unlimited")


class LimitSpecError(ValueError):
    """A limit written in a form this module cannot read (reported as a usage error)."""


def parse_seconds(text: str, source: str) -> float | None:
    """`--time-limit` / SYNSEMA_TIME_LIMIT: seconds (a number), or None for no limit."""
    if text.strip().lower() in _OFF:
        return None
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not seconds > 0 or seconds != seconds or seconds == float("inf"):
        raise LimitSpecError(f"{source} must be a number of seconds greater than 0 (or off), not {text!r}")
    return seconds


def parse_size(text: str, source: str) -> int | None:
    """`--memory-limit` / SYNSEMA_MEMORY_LIMIT: bytes, with an optional K/M/G/T suffix, or None."""
    if text.strip().lower() in _OFF:
        return None
    match = re.fullmatch(_SIZE, text.strip(), re.IGNORECASE)
    if match is None or float(match.group(1)) <= 0:
        raise LimitSpecError(f"{source} must be a size such as 512M or 2G (or off), not {text!r}")
    return int(float(match.group(1)) * _UNITS[match.group(2).lower()])


def describe_size(size: int) -> str:
    for unit, factor in (("G", 1024 ** 3), ("M", 1024 ** 2), ("K", 1024)):
        if size >= factor:
            return f"{size / factor:g}{unit}"
    return f"{size} bytes"


def resolve(time_flag: str | None, memory_flag: str | None) -> tuple[float | None, int | None]:
    """The limits in force: a flag wins over its environment variable, which wins over the default."""
    time_text = time_flag if time_flag is not None else os.environ.get("SYNSEMA_TIME_LIMIT")
    memory_text = memory_flag if memory_flag is not None else os.environ.get("SYNSEMA_MEMORY_LIMIT")
    seconds = None if time_text is None else parse_seconds(
        time_text, "--time-limit" if time_flag is not None else "SYNSEMA_TIME_LIMIT")
    memory = DEFAULT_MEMORY if memory_text is None else parse_size(
        memory_text, "--memory-limit" if memory_flag is not None else "SYNSEMA_MEMORY_LIMIT")
    return seconds, memory


def apply_memory_limit(size: int | None) -> None:
    """Cap this process's data segment at `size` bytes beyond what it uses for its stack.

    Only ever lowers the limit: a host that already set a smaller one keeps it."""
    if size is None:
        return
    import resource
    wanted = size + STACK_RESERVATION
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    if soft == resource.RLIM_INFINITY or wanted < soft:
        resource.setrlimit(resource.RLIMIT_DATA, (wanted, hard))
