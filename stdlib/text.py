"""Text builtins: case, trimming, searching, splitting and joining, `fmt` templates, and regex.

Everything here is pure. Regular expressions use Python's `re` syntax, run by the `regex`
package, whose matcher takes a time limit: a pattern that backtracks catastrophically
(`(a|aa)+$`) ends after REGEX_SECONDS with an error instead of running until killed, and it
matches with the interpreter lock released, so Ctrl-C is heard. `matches` is a *full*
match (built for validation, so an unanchored pattern cannot accidentally accept a prefix),
while `regex_find_all` / `regex_capture` search anywhere. The v0.6.28 names of the regex and
replace helpers remain as deprecated aliases that warn once per process on stderr.
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal

from synsema.lang.errors import SynError
from synsema.runtime.deadline import Deadline, DeadlineExceeded
from synsema.runtime.limits import MAX_LIST_LENGTH, REGEX_SECONDS, check_length
from synsema.runtime.values import display, type_name
from synsema.stdlib.core import short, wrong_type
from synsema.stdlib.registry import builtin


def _text(fname: str, value, what: str = "text") -> str:
    if type(value) is not str:
        raise wrong_type(fname, what, value)
    return value


# ------------------------------------------------------------------ case, trimming, tests
@builtin("upper", 1)
def upper(rt, t):
    """Text in upper case.

    Example: upper("Hello") => "HELLO"
    """
    return _text("upper", t).upper()


@builtin("lower", 1)
def lower(rt, t):
    """Text in lower case.

    Example: lower("Hello") => "hello"
    """
    return _text("lower", t).lower()


@builtin("trim", 1)
def trim(rt, t):
    """Strip whitespace (any Unicode white space) from both ends.

    Example: trim("  hi  ") => "hi"
    """
    return _text("trim", t).strip()


@builtin("starts_with", 2)
def starts_with(rt, t, prefix):
    """Whether text `t` starts with `prefix`.

    Example: starts_with("https://x.org", "https://") => true
    """
    return _text("starts_with", t).startswith(_text("starts_with", prefix, "a text prefix"))


@builtin("ends_with", 2)
def ends_with(rt, t, suffix):
    """Whether text `t` ends with `suffix`.

    Example: ends_with("report.csv", ".csv") => true
    """
    return _text("ends_with", t).endswith(_text("ends_with", suffix, "a text suffix"))


def _replace(fname: str, t, old, new) -> str:
    if t.__class__ is not str:   # _text's tests, written out: replace is called per item of a list
        raise wrong_type(fname, "text", t)
    if old.__class__ is not str:
        raise wrong_type(fname, "the text to find as its second argument", old)
    if not old:
        raise SynError(f"{fname}: the text to find is empty — there is nothing to replace")
    if new.__class__ is not str:
        raise wrong_type(fname, "replacement text as its third argument", new)
    if len(new) > len(old):
        check_length(fname, "text", len(t) + t.count(old) * (len(new) - len(old)))
    return t.replace(old, new)


@builtin("replace", 3)
def replace(rt, t, old, new):
    """Replace every literal occurrence of `old` with `new` (for patterns, see regex_replace).

    Example: replace("a-b-c", "-", "+") => "a+b+c"
    """
    return _replace("replace", t, old, new)


# ------------------------------------------------------------------ split / join
@builtin("split", 2)
def split(rt, t, sep):
    """Split on a literal separator; an empty separator splits into characters.

    Example: split("a,b,c", ",") => ["a", "b", "c"]
    Example: split("hey", "") => ["h", "e", "y"]
    """
    if t.__class__ is not str:   # _text's tests, written out: split is called per line of a file
        raise wrong_type("split", "text", t)
    if sep.__class__ is not str:
        raise wrong_type("split", "a text separator", sep)
    if not sep:
        check_length("split", "list", len(t))
        return list(t)
    if len(t) >= MAX_LIST_LENGTH:   # a shorter text cannot split into more items than the limit
        check_length("split", "list", t.count(sep) + 1)
    return t.split(sep)


_JOINABLE = (str, int, float, bool, Decimal)


@builtin("join", 2, 4)
def join(rt, items, sep, *table_args):
    """Join a list of texts (numbers and bools by their display form) with `sep` between them.

    `nothing`, lists and maps are refused instead of printed: joining them is almost always a
    bug (a missing field, an unflattened list) that a silent "nothing" would hide.

    Example: join(["a", "b", 3], ", ") => "a, b, 3"
    """
    if table_args:
        raise SynError("join with 3 or 4 arguments (joining tables) is not supported by this "
                       "implementation (tier C: table operations)")
    if type(items) is not list:
        raise wrong_type("join", "a list as its first argument", items)
    _text("join", sep, "a text separator")
    parts = []
    for i, item in enumerate(items):
        if type(item) not in _JOINABLE:
            raise SynError(f"join: item {i} is {type_name(item)} — join takes texts, numbers and "
                           f"bools; convert it on purpose with text(x) or leave it out")
        parts.append(display(item))
    check_length("join", "text", sum(map(len, parts)) + len(sep) * max(len(parts) - 1, 0))
    return sep.join(parts)


# ------------------------------------------------------------------ fmt
# `{{`, `}}`, or a hole `{name}` / `{a.b.c}`; any other brace is literal text.
_FMT = re.compile(r"\{\{|\}\}|\{([^\W\d]\w*(?:\.[^\W\d]\w*)*)\}")


@builtin("fmt", 2)
def fmt(rt, template, values):
    """Fill `{name}` holes in `template` from the map `values` (`{a.b}` walks nested maps).

    Fill `{name}` holes from a map; `{a.b}` walks nested maps. A missing name is an error,
    never an empty string, so a typo in a template cannot go unnoticed.

    Example: fmt("{name} is {age}", {name: "Ada", age: 36}) => "Ada is 36"
    Example: fmt("{x}", {}) => error: fmt: no value for {x}
    """
    _text("fmt", template, "a text template")
    if type(values) is not dict:
        raise wrong_type("fmt", "a map of values as its second argument", values)

    def fill(match: re.Match) -> str:
        path = match.group(1)
        if path is None:
            return match.group(0)[0]
        current = values
        for name in path.split("."):
            if type(current) is not dict or name not in current:
                raise SynError(f"fmt: no value for {{{path}}} — pass it in the map, or write "
                               f"{{{{{path}}}}} for a literal brace")
            current = current[name]
        return display(current)

    return _FMT.sub(fill, template)


# ------------------------------------------------------------------ regex
def _compile(fname: str, pattern):
    """`pattern` compiled by the `regex` package (imported on first use: start-up stays quick),
    under the same bound as matching: its parser (Python) is interrupted after REGEX_SECONDS,
    and the copies its counted repeats make (the C compiler expands `a{1000000,}` into a
    million nodes, out of any time-out's reach) are counted first and refused past
    MAX_REGEX_COPIES."""
    import regex
    if type(pattern) is not str:
        raise wrong_type(fname, "a text pattern", pattern)
    copies = _copies(pattern)
    if copies < 0:
        raise SynError(f"invalid regex {short(pattern)}: a repeat count is above the engine's "
                       f"largest, {_NO_COUNT - 1:,}")
    if copies > MAX_REGEX_COPIES:
        raise SynError(f"{fname}: the regex {short(pattern)} compiles to about {copies:,} parts "
                       f"(the limit is {MAX_REGEX_COPIES:,}; see README, Limits) — a count such as "
                       "{1000} copies its part that many times; use a shorter pattern, a smaller "
                       "count, or + / * / {0,n}, which do not copy")
    try:
        if len(pattern) < _PARSED_QUICKLY:
            return regex.compile(pattern)
        with Deadline(REGEX_SECONDS):
            return regex.compile(pattern)
    except (regex.error, OverflowError, ValueError) as error:
        raise SynError(f"invalid regex {short(pattern)}: {error}") from None
    except RecursionError:
        raise SynError(f"invalid regex {short(pattern)}: nested too deeply") from None
    except DeadlineExceeded:
        raise SynError(f"{fname}: the regex {short(pattern)} took more than {REGEX_SECONDS:g} s to "
                       "compile — use a shorter pattern") from None


# Patterns shorter than this parse in well under REGEX_SECONDS (the parser takes at most ~30 µs
# a character), so they are compiled without arming a timer thread.
_PARSED_QUICKLY = 2_000
MAX_REGEX_COPIES = 100_000
_NO_COUNT = 2 ** 32    # the regex package refuses counts from here on
_COUNT = re.compile(r"\{(\d*)(?:,(\d*))?\}")
_BRACED_ESCAPE = re.compile(r"\\[pPNxgu]\{[^}]*\}|\\.", re.S)


def _copies(pattern: str) -> int:
    """About how many nodes compiling `pattern` makes: each atom counts once, times the minimum
    count of every `{n}`/`{n,}`/`{n,m}` around it. One pass; an over-estimate for alternations.
    -1 when a count is beyond what the engine accepts."""
    levels = [0]
    last = 0
    i, end = 0, len(pattern)
    while i < end:
        c = pattern[i]
        if c == "\\":
            escape = _BRACED_ESCAPE.match(pattern, i)
            i = escape.end() if escape else end
            last = 1
        elif c == "[":
            i = _class_end(pattern, i)
            last = 1
        elif c == "(":
            levels.append(0)
            i += 1
            continue
        elif c == ")" and len(levels) > 1:
            last = levels.pop()
            levels[-1] += last
            i += 1
            continue
        elif c == "{" and (count := _COUNT.match(pattern, i)) is not None and count.group(1):
            times = int(count.group(1)) if len(count.group(1)) < 12 else _NO_COUNT
            if times >= _NO_COUNT:
                return -1       # the engine refuses it: an invalid regex, not a large one
            levels[-1] += last * (times - 1)
            last *= times
            i = count.end()
            if levels[-1] > MAX_REGEX_COPIES:
                break
            continue
        else:
            i += 1
            last = 1
        levels[-1] += last
    return sum(levels)


def _class_end(pattern: str, start: int) -> int:
    """The index after the character class opening at `start` (nested classes, escapes)."""
    depth, i = 0, start
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            depth += 1
        elif c == "]" and i > start + 1:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def _regex_error() -> type:
    import regex
    return regex.error


def _bounded(fname: str, pattern, run):
    """`run(timeout)` for one regex operation; past REGEX_SECONDS, a language error."""
    try:
        return run(REGEX_SECONDS)
    except TimeoutError:
        raise SynError(f"{fname}: the regex {short(pattern.pattern)} took more than {REGEX_SECONDS:g} s "
                       "(it backtracks too much on this text) — simplify it, e.g. avoid nested "
                       "repetition like (a+)+") from None


@builtin("matches", 2)
def matches(rt, t, pattern):
    """Whether the regular expression `pattern` matches the whole text (Python `re` syntax).

    True only when the pattern matches the whole text.

    Example: matches("2024-05-01", "[0-9]{4}-[0-9]{2}-[0-9]{2}") => true
    Example: matches("x2024", "[0-9]+") => false
    """
    compiled = _compile("matches", pattern)
    t = _text("matches", t)
    return _bounded("matches", compiled,
                    lambda limit: compiled.fullmatch(t, timeout=limit, concurrent=True)) is not None


@builtin("regex_find_all", 2)
def regex_find_all(rt, t, pattern):
    """Every match of `pattern` in `t`, in order, as a list of texts.

    Every whole match, in order (groups do not change the result, unlike Python's findall).

    Example: regex_find_all("a1 b22 c333", "[0-9]+") => ["1", "22", "333"]
    """
    return _find_all("regex_find_all", t, pattern)


def _find_all(fname: str, t, pattern) -> list:
    compiled = _compile(fname, pattern)
    t = _text(fname, t)
    return _bounded(fname, compiled, lambda limit: [
        m.group(0) for m in compiled.finditer(t, timeout=limit, concurrent=True)])


def _first_match(fname: str, t, pattern):
    compiled = _compile(fname, pattern)
    t = _text(fname, t)
    return _bounded(fname, compiled, lambda limit: compiled.search(t, timeout=limit, concurrent=True))


@builtin("regex_capture", 2)
def regex_capture(rt, t, pattern):
    """The first match as a list: its groups (an unmatched group is `nothing`), or `[match]`
    when the pattern has none; `nothing` when nothing matches.

    Example: regex_capture("key=value", "([a-z]+)=([a-z]+)") => ["key", "value"]
    """
    m = _first_match("regex_capture", t, pattern)
    if m is None:
        return None
    return list(m.groups()) if m.re.groups else [m.group(0)]


def _regex_replace(fname: str, t, pattern, replacement) -> str:
    compiled = _compile(fname, pattern)
    _text(fname, t)
    _text(fname, replacement, "replacement text as its third argument")
    try:
        return _bounded(fname, compiled,
                        lambda limit: compiled.sub(replacement, t, timeout=limit, concurrent=True))
    except (_regex_error(), IndexError) as error:
        raise SynError(f"{fname}: invalid replacement {short(replacement)}: {error} — use \\1 for "
                       f"a group and \\\\ for a backslash") from None


@builtin("regex_replace", 3)
def regex_replace(rt, t, pattern, replacement):
    """Replace every match of `pattern`; `\\1` (or `\\g<name>`) in `replacement` inserts a group.

    Example: regex_replace("2024-05-01", "([0-9]+)-([0-9]+)-([0-9]+)", "\\3/\\2/\\1") => "01/05/2024"
    """
    return _regex_replace("regex_replace", t, pattern, replacement)


@builtin("fold_text", 1)
def fold_text(rt, t):
    """Text for matching regardless of case and accents: lower-case, accents stripped.

    Letters without a decomposition (ß, ø) stay as they are.

    Example: fold_text("Ártico ÉSTA") => "artico esta"
    """
    decomposed = unicodedata.normalize("NFD", _text("fold_text", t))
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return unicodedata.normalize("NFC", bare).lower()


# ------------------------------------------------------------------ deprecated names
_warned: set[str] = set()


def _deprecated(rt, old: str, new: str) -> None:
    """Warn once per process: the old names keep working until v1.0."""
    if old not in _warned:
        _warned.add(old)
        rt.warn(f"warning: '{old}' is deprecated; use '{new}'\n", old)


@builtin("replace_text", 3)
def replace_text(rt, t, old, new):
    """Deprecated name of replace.

    Example: replace_text("a-b", "-", "+") => "a+b"
    """
    _deprecated(rt, "replace_text", "replace")
    return _replace("replace_text", t, old, new)


@builtin("find_all", 2)
def find_all(rt, t, pattern):
    """Deprecated name of regex_find_all: every match of `pattern`, in order.

    Example: find_all("a1 b22", "[0-9]+") => ["1", "22"]
    """
    _deprecated(rt, "find_all", "regex_find_all")
    return _find_all("find_all", t, pattern)


@builtin("capture", 2)
def capture(rt, t, pattern):
    """Deprecated name of regex_capture, with its old shape: a pattern without groups gives bare text.

    The old shape: the groups as a list, but a pattern without groups gives bare text.

    Example: capture("v1.2", "[0-9]+") => "1"
    """
    _deprecated(rt, "capture", "regex_capture")
    m = _first_match("capture", t, pattern)
    if m is None:
        return None
    return list(m.groups()) if m.re.groups else m.group(0)


@builtin("replace_re", 3)
def replace_re(rt, t, pattern, replacement):
    """Deprecated name of regex_replace.

    Example: replace_re("a1b2", "[0-9]", "#") => "a#b#"
    """
    _deprecated(rt, "replace_re", "regex_replace")
    return _regex_replace("replace_re", t, pattern, replacement)


@builtin("fold", 1)
def fold(rt, t):
    """The old name of fold_text: lower-case, accents stripped; warns once.

    Example: fold("Está") => "esta"
    """
    _deprecated(rt, "fold", "fold_text")
    return fold_text(rt, t)
