"""Every builtin that builds a text, list, map or bytes stays within the documented limits
(issue 25 item 6). The registry is the list: each builtin is either run just past its limit
below (PAST_LIMIT) or named in BOUNDED with the reason its result cannot pass one; a builtin
added to the registry without either fails test_every_builtin_is_classified."""

from __future__ import annotations

import pytest

from synsema.runtime.limits import MAX_LIST_LENGTH, MAX_TEXT_LENGTH
from synsema.stdlib.registry import load_all
from tests.bounds.conftest import DEADLINE, assert_language_error, run_bounded

TEXT, ITEMS = MAX_TEXT_LENGTH, MAX_LIST_LENGTH


def text_of(name: str, char: str, size: int) -> str:
    """A program line building `name`, a text of `size` copies of `char`, by doubling."""
    return (f'let {name} be "{char}"\nwhile length({name}) * 2 <= {size}\n    set {name} to {name} + {name}\n'
            f'set {name} to {name} + slice({name}, 0, {size} - length({name}))\n')


# builtin: (program, fragment of the refusal) — each builds its input within the limits and
# asks for a result one step past one.
PAST_LIMIT = {
    "split": (text_of("t", "a", ITEMS + 1) + 'split(t, "")', "split would make a list of 10,000,001 items"),
    "hex": (text_of("t", "a", TEXT // 2 + 1) + "hex(bytes(t))", "hex would make a text of 50,000,004"),
    "decode": (text_of("t", "a", TEXT // 2 + 1) + 'decode(bytes(t), "hex")', "a text of 50,000,002"),
    "jsonl_encode": (text_of("t", "a", TEXT - 2) + "jsonl_encode([t])", "jsonl_encode would make a text"),
    "json_encode": (text_of("t", "\\u0001", TEXT // 6 + 1) + "json_encode(t)", "json_encode would make a text"),
    "csv_encode": (text_of("t", '\\"', TEXT // 2) + "csv_encode([[t]])", "csv_encode would make a text"),
    "fmt": (text_of("t", "a", TEXT // 2 + 1) + 'fmt("{a}{a}", {a: t})', "fmt would make a text"),
    "upper": (text_of("t", "ß", TEXT // 2 + 1) + "upper(t)", "upper would make a text of 50,000,002"),
    "lower": (text_of("t", "İ", TEXT // 2 + 1) + "lower(t)", "lower would make a text of 50,000,002"),
    "replace": (text_of("t", "a", TEXT // 2 + 1) + 'replace(t, "a", "aa")', "replace would make a text"),
    "replace_text": (text_of("t", "a", TEXT // 2 + 1) + 'replace_text(t, "a", "aa")', "would make a text"),
    "regex_replace": (text_of("t", "a", TEXT // 2 + 1) + 'regex_replace(t, "^", t)',
                      "regex_replace would make a text"),
    "replace_re": (text_of("t", "a", TEXT // 2 + 1) + 'replace_re(t, "^", t)', "would make a text"),
    "join": (text_of("t", "a", TEXT // 2 + 1) + 'join([t, t], "")', "join would make a text"),
    "text": (text_of("t", "a", TEXT // 2) + "text([t, t])", "would make a text"),
    "bytes": (text_of("t", "é", TEXT // 2 + 1) + "bytes(t)", "bytes would make 50,000,002 bytes"),
    "append": ("let xs be range(10000000)\nappend(xs, 1)", "append would make a list of 10,000,001"),
    "insert": ("let xs be range(10000000)\ninsert(xs, 0, 1)", "insert would make a list of 10,000,001"),
    "range": ("range(10000001)", "range would make a list of more than 10,000,000 items"),
    "flatten": ("let xs be range(10000000)\nflatten([xs, [1]])", "flatten would make a list of 10,000,001"),
    "json_decode": (text_of("t", "0,", 2 * ITEMS) + 'json_decode("[" + t + "0]")', "a list of 10,000,001"),
    "tool_result": (text_of("t", "\\u0001", TEXT // 6 + 1) + 'tool_result({id: "1", name: "f"}, [t])',
                    "tool_result would make a text"),
}

# builtin: why its result cannot pass a limit (no text, list, map or bytes; or no larger than
# an argument that is already within its limit; or bounded by what it reads).
_SAME = "its result is no larger than a list, map or text argument (each within its limit)"
_SMALL = "returns a number, bool, nothing or a small fixed-shape value"
BOUNDED = {
    **{name: _SMALL for name in (
        "print eprint flush steps number float decimal int type_of is_integer is_decimal is_text is_list "
        "is_map length raise exit assert assert_eq assert_ne assert_error skip only starts_with ends_with "
        "matches contains index_of find_first every some count_where reduce min max floor ceil trunc round "
        "round_to abs sign clamp sqrt cbrt hypot pow exp ln log10 log2 log_base sin cos tan asin acos atan "
        "tanh asinh acosh cosh radians degrees sinh atanh atan2 gcd lcm factorial is_nan is_infinite "
        "is_finite sum product mean median var std mode is_bytes sha256 sha512 hmac constant_time_eq "
        "secret as_secret bearer now sleep format_time parse_time date_parts random random_int "
        "write_file append_file file_exists delete_file call call_tool tool_spec llm_available "
        "llm_usage math.describe math.prewarm math.tool math.check label_of is_private "
        "private declassify reveal").split()},
    **{name: _SAME for name in (
        "trim slice reverse unique keys values items get remove enumerate apply where transform collect "
        "zip_with group_by sort sort_by percentile quantile regex_capture capture").split()},
    "args": "the program's arguments, bounded by the operating system's argument limit",
    "env": "an environment variable, bounded by the operating system",
    "read_line": "checked like every builtin result (runtime.calls); a line longer than the text limit is refused",
    "read_file": "checked like every builtin result (runtime.calls)",
    "list_dir": "checked like every builtin result (runtime.calls)",
    "fetch": "the body is refused past the text limit (stdlib.net)",
    "llm_step": "a model's reply is bounded by SYNSEMA_LLM_MAX_TOKENS",
    "llm_stream": "a model's reply is bounded by SYNSEMA_LLM_MAX_TOKENS",
    "math.find": "at most `limit` catalog entries, never more than the catalog holds",
    **{name: "bounded by what it reads: one memory file of at most 16 MB (runtime.memory)" for name in (
        "remember recall forget_memory memory_summary add_rule get_rules check_rules create_progress "
        "start_step complete_step fail_step resume_point progress_display progress_percent").split()},
    "math.run": "a math operation's result is bounded by the library's own limits (MATH.md)",
    "hmac_sha256": "64 hex digits",
    "verify_hmac": "a bool",
    "parallel_map": "one result per item of a list that is itself within the list limit",
    "chunk": "at most one batch per item of a list within the list limit, each a slice of it",
    "math.run_many": "at most 1,000 results, each bounded as math.run's (MATH.md)",
    "mcp_tools": "at most 1,000 tools (runtime.mcp.client)",
    "regex_find_all": "at most what REGEX_SECONDS of matching finds, far below the list limit; "
                      "checked like every builtin result (runtime.calls)",
    "find_all": "the deprecated name of regex_find_all",
    "fold_text": "accents stripped, then lower case: never longer than its text; checked like every "
                 "builtin result (runtime.calls)",
    "fold": "the deprecated name of fold_text",
    "histogram": "at most 100,000 bins (stdlib.numbers)",
    **{name: "its text is parsed in one linear pass and the list it gives is checked like every "
             "builtin result (runtime.calls), as the json_decode row shows; 10,000,001 rows take "
             "longer to parse than a test should" for name in ("csv_parse", "jsonl_parse", "jsonl_decode")},
    "merge": "the union of its maps is checked like every builtin result (runtime.calls); building "
             "two maps whose union passes 10,000,000 entries takes longer than a test should",
}


def test_every_builtin_is_classified():
    real = {name for name, spec in load_all().items() if spec.module != "synsema.stdlib.unsupported"}
    classified = set(PAST_LIMIT) | set(BOUNDED)
    assert sorted(real - classified) == [], "classify each new builtin in PAST_LIMIT or BOUNDED"
    assert sorted(classified - real) == []
    assert not set(PAST_LIMIT) & set(BOUNDED)


@pytest.mark.parametrize("name", sorted(PAST_LIMIT))
def test_each_builtin_refuses_a_result_just_past_its_limit(program, name):
    source, fragment = PAST_LIMIT[name]
    *setup, last = source.splitlines()
    path = program("\n".join([*setup, f"let result be {last}", 'print("returned")']) + "\n")
    result = run_bounded("run", path, timeout=120)
    assert_language_error(result, "value too large", fragment, f"p.syn:{len(setup) + 1}:")
    assert "returned" not in result.stdout
