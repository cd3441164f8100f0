"""Time and randomness.

`now` and `sleep` observe the world and need the `time` capability; `random` and
`random_int` need `random`. Converting between timestamps and text (`format_time`,
`parse_time`, `date_parts`) is pure: the same input always gives the same output, so it
works everywhere, capabilities or not. Times are Unix timestamps in seconds, always
read and written in UTC so that no result depends on the machine's time zone.
"""

from __future__ import annotations

import math
import time
from decimal import Decimal

from synsema.lang.errors import SynError
from synsema.runtime.values import display, type_name
from synsema.stdlib.core import short, wrong_type
from synsema.stdlib.registry import builtin

_ISO_SECONDS = "%Y-%m-%dT%H:%M:%S"
# `datetime` is imported by the builtins that convert times, not by every run; `random` (and
# the generator, seeded from the system on first use) by the builtins that draw.
_RNG: list = []


def _rng():
    if not _RNG:
        import os
        import random as _random
        _RNG.append(_random.Random())
        # A forked child (each `mcp serve` call runs in one, forked from a process that may have
        # drawn already) seeds its own generator: otherwise every call would draw the same numbers.
        os.register_at_fork(after_in_child=_RNG[0].seed)
    return _RNG[0]


def _seconds(fname: str, value) -> float | int:
    t = type(value)
    if t is int or t is float:
        if t is float and not math.isfinite(value):
            raise SynError(f"{fname}: {display(value)} is not a time")
        return value
    if t is Decimal:
        return float(value)
    raise wrong_type(fname, "a timestamp (seconds since 1970, UTC)", value)


def _moment(fname: str, value) -> datetime:
    from datetime import datetime, timezone
    seconds = _seconds(fname, value)
    try:
        return datetime.fromtimestamp(seconds, tz=timezone.utc)
    except (OverflowError, OSError, ValueError):
        raise SynError(f"{fname}: {short(value)} is outside the years 1 to 9999") from None


def _pattern(fname: str, pattern) -> str:
    if type(pattern) is not str:
        raise wrong_type(fname, "a strftime pattern (text) such as \"%Y-%m-%d %H:%M\"", pattern)
    return pattern


# ------------------------------------------------------------------ clock
@builtin("now", 0, cap="time", flow="clock")
def now(rt):
    """The current time as a Unix timestamp in seconds (a float). Under --labels it is private to
    every principal the run has touched: the time that has passed may depend on them.

    Example: now() > 0 => true
    """
    rt.check_cap("time", None)
    return time.time()


@builtin("sleep", 1, cap="time", flow="sink")
def sleep(rt, seconds):
    """Pause for `seconds` (a number, fractions allowed). Under --labels waiting is an output
    (anyone can time it): refused under private control flow or for a private duration.

    Example: sleep(0) => nothing
    """
    rt.check_cap("time", None)
    t = type(seconds)
    if t not in (int, float, Decimal) or not 0 <= seconds < math.inf:
        raise SynError(f"sleep expects a non-negative number of seconds, got {short(seconds)}")
    try:
        time.sleep(float(seconds))
    except OverflowError:
        raise SynError(f"sleep: {short(seconds)} seconds is longer than this system can wait") from None


# ------------------------------------------------------------------ conversions
@builtin("format_time", 1, 2)
def format_time(rt, timestamp, pattern=None):
    """A timestamp as text: ISO 8601 in UTC by default, or with a strftime `pattern`.

    The ISO form is `1970-01-01T00:00:00Z`, with the fraction of a second only when there is
    one.

    Example: format_time(0) => "1970-01-01T00:00:00Z"
    Example: format_time(0, "%Y") => "1970"
    """
    moment = _moment("format_time", timestamp)
    if pattern is not None:
        return moment.strftime(_pattern("format_time", pattern))
    text = moment.strftime(_ISO_SECONDS)
    if moment.microsecond:
        text += f".{moment.microsecond:06d}".rstrip("0")
    return text + "Z"


@builtin("parse_time", 1, 2)
def parse_time(rt, text, pattern=None):
    """Text as a Unix timestamp: ISO 8601 by default, or a strftime `pattern`; UTC without an offset.

    Text → timestamp: ISO 8601 by default (date, date and time, optional fraction, `Z` or
    an offset), or a strftime pattern. A time without an offset is UTC. The result is an
    integer when the time has no fraction of a second.

    Example: parse_time("1970-01-02") => 86400
    """
    from datetime import datetime, timezone
    if type(text) is not str:
        raise wrong_type("parse_time", "text", text)
    try:
        if pattern is None:
            moment = datetime.fromisoformat(text.strip())
        else:
            moment = datetime.strptime(text, _pattern("parse_time", pattern))
    except ValueError:
        expected = "ISO 8601 (like 2024-01-31T12:00:00Z)" if pattern is None else f"the pattern {short(pattern)}"
        raise SynError(f"parse_time: {short(text)} does not match {expected}") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    elapsed = moment - datetime(1970, 1, 1, tzinfo=timezone.utc)
    if elapsed.microseconds:
        return elapsed.total_seconds()
    return elapsed.days * 86_400 + elapsed.seconds


@builtin("date_parts", 1)
def date_parts(rt, timestamp):
    """`{year, month, day, hour, minute, second}` of a timestamp, in UTC.

    Example: date_parts(86400).day => 2
    """
    m = _moment("date_parts", timestamp)
    return {"year": m.year, "month": m.month, "day": m.day, "hour": m.hour, "minute": m.minute,
            "second": m.second}


# ------------------------------------------------------------------ randomness
@builtin("random", 0, cap="random")
def random(rt):
    """A random float in [0, 1).

    Example: random() < 1 => true
    """
    rt.check_cap("random", None)
    return _rng().random()


@builtin("random_int", 2, cap="random")
def random_int(rt, lo, hi):
    """A random integer from lo to hi, both included.

    Example: random_int(3, 3) => 3
    """
    rt.check_cap("random", None)
    for bound in (lo, hi):
        if type(bound) is not int:
            raise SynError(f"random_int expects integers, got {type_name(bound)} {short(bound)}")
    if lo > hi:
        raise SynError(f"random_int: the lower bound {lo} is above the upper bound {hi}")
    return _rng().randint(lo, hi)
