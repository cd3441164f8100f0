"""Every reproducer of unbounded work ends quickly with `value too large` (or a regex time-out)
at the line that asked for it, catchable by `recover`, with no traceback."""

from __future__ import annotations

import pytest

from tests.bounds.conftest import assert_language_error, assert_no_leak, run_bounded

# (a program that must fail, what the error says)
REPRODUCERS = {
    "catastrophic regex": ('print(matches("' + "a" * 40 + 'b", "(a|aa)+$"))', "took more than 1 s"),
    "huge power": ("print(2 ** 4999999)", "`**` would make an integer"),
    "repeated big multiply": ("let x be 3\nwhile true\n    set x to x * x", "`*` would make an integer"),
    "doubling text": ('let s be "ab"\nwhile true\n    set s to s + s', "`+` would make a text"),
    "doubling list": ("let s be [1]\nwhile true\n    set s to s + s", "`+` would make a list"),
    "doubling template": ('let s be "ab"\nwhile true\n    set s to `{s}{s}`', "a template would make a text"),
    "decimal exponent": ('print(decimal("1e3000000000"))', "decimal with exponent 3,000,000,000"),
    "decimal literal": ("print(1e3000000000d)", "a decimal literal would make"),
    "int of a huge decimal": ("print(int(1e999999d))", "a decimal literal would make"),
    "decimal overflow in +": ("let d be 1e20000d\nprint(d * 10 + d)", "`*` would make a decimal"),
    "int from long text": ('print(int(join(apply(range(60000), (i) => "7"), "")))', "int: the text has 60,000 digits"),
    "factorial": ("print(factorial(100000))", "factorial(100000) has more than 50,000 digits"),
    "product": ("print(product(apply(range(2000), (i) => 2 ** 1000)))", "product would make an integer"),
    "self-nesting list shown": ("let x be [1]\neach i in range(60)\n    set x to [x, x]\nprint(x)",
                                "showing a list or map as text would make a text"),
    "self-nesting list encoded": ("let x be [1]\neach i in range(60)\n    set x to [x, x]\nprint(json_encode(x))",
                                  "json_encode would make a text"),
    "replace blow-up": ('let s be join(apply(range(100000), (i) => "a"), "")\n'
                        'let big be replace(s, "a", s)', "replace would make a text"),
    "join blow-up": ('let s be join(apply(range(100000), (i) => "a"), "")\n'
                     'print(length(join(apply(range(1000), (i) => s), "")))', "join would make a text"),
    "flatten blow-up": ("let l be range(1000000)\nprint(length(flatten(apply(range(100), (i) => l))))",
                        "flatten would make a list"),
}


@pytest.mark.parametrize("name", sorted(REPRODUCERS))
def test_each_reproducer_ends_with_a_language_error(program, name):
    source, message = REPRODUCERS[name]
    result = run_bounded("run", program(source + "\n"), timeout=60)
    assert_language_error(result, message, "p.syn:")


@pytest.mark.parametrize("name", ["huge power", "doubling text", "catastrophic regex", "decimal exponent"])
def test_recover_catches_the_size_errors(program, name):
    source, message = REPRODUCERS[name]
    body = "\n".join("    " + line for line in source.splitlines())
    result = run_bounded("run", program(f"try\n{body}\nrecover e\n    print(\"caught: \" + e)\n"), timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("caught: ") and message in result.stdout
    assert_no_leak(result)


def test_values_within_the_limits_still_work(program):
    source = "\n".join([
        "print(length(text(2 ** 166000)))",          # 49,971 digits: shown
        "print(length(text(factorial(13524))))",     # 49,999 digits
        'print(int(join(apply(range(50000), (i) => "7"), "")) > 0)',
        "print(1e20000d > 0)",
        "print(decimal(\"1.50\") + decimal(\"2.25\"))",
        'print(matches("aaaa", "(a|aa)+"))',
        "print(json_decode(json_encode([[1, 2], {\"a\": [3]}])))",
        "let x be [1]\neach i in range(10)\n    set x to [x, x]\nprint(length(json_encode(x)))",
    ])
    result = run_bounded("run", program(source + "\n"), timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["49971", "49999", "true", "true", "3.75", "true",
                                          '[[1, 2], {a: [3]}]', "6141"]


def test_crafted_json_is_checked_in_linear_time(program):
    # Many escaped quotes after deep brackets made the old depth scan quadratic (64 KB: 55 s).
    source = ('let crafted be join(apply(range(129), (i) => "["), "") + "\\"" + '
              'join(apply(range(40000), (i) => "\\\\\\""), "")\n'
              'print(json_decode(crafted, nothing))\n'
              'print(json_decode(join(apply(range(200), (i) => "["), ""), nothing))\n')
    result = run_bounded("run", program(source), timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "nothing\nnothing\n"


def test_nul_bytes_in_paths_are_catchable_errors(program):
    source = "\n".join([
        'require file.read("/tmp/**")', 'require file.write("/tmp/**")', "require env",
        'try\n    read_file("/tmp/a\\u0000b")\nrecover e\n    print(e)',
        'try\n    write_file("/tmp/a\\u0000b", "x")\nrecover e\n    print(e)',
        'try\n    env("A\\u0000B")\nrecover e\n    print(e)',
        'try\n    use "./a\\u0000.syn" as m\nrecover e\n    print(e)',
    ])
    result = run_bounded("run", program(source + "\n"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("NUL character") == 4, result.stdout
    assert_no_leak(result)


def test_deeply_nested_data_fails_with_a_position(program):
    source = "let x be []\neach i in range(300000)\n    set x to [x]\nprint(x)\n"
    result = run_bounded("run", program(source), timeout=60)
    assert_language_error(result, "p.syn:4:", "maximum recursion depth exceeded")
