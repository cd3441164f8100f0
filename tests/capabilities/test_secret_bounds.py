"""Secrets go only where the host (or the program, narrowing) sends them; `reveal` needs every
part; equality, digests and joins answer nothing about the plaintext (issue 25 items 2 and 3).

Table-driven like Deno's permission tests: each row is the host's flags, the program, and the
one outcome allowed — the output it prints, or the refusal it ends with. No row ever shows the
secret's plaintext."""

from __future__ import annotations

import pytest

from .cli import run_program

KEY = "sk-plaintext-0451"
ENV = {"API_KEY": KEY, "OTHER_KEY": "other-plaintext-77"}


def _fetch(host: str, header: str = "bearer(k)") -> str:
    return (f'let r be fetch("http://{host}:PORT/echo-headers", headers = {{"Authorization": {header}}})\n'
            'print(r["status"])\n')


# name: (ceiling, program requires, body, expected) — expected is ("ok", stdout) or ("deny", fragment)
DESTINATIONS = {
    "unbound goes to any granted host": (
        "stdout,net,secret=API_KEY", "", _fetch("localhost"), ("ok", "200\n")),
    "bound host receives it": (
        "stdout,net,secret=API_KEY@127.0.0.1", "", _fetch("127.0.0.1"), ("ok", "200\n")),
    "bound host, another host refused": (
        "stdout,net,secret=API_KEY@127.0.0.1", "", _fetch("localhost"),
        ("deny", "secret API_KEY may not be sent to localhost:PORT — the host bound it with "
                 "--cap-set secret=API_KEY@127.0.0.1; the program cannot change this")),
    "bound host and port, another port refused": (
        "stdout,net,secret=API_KEY@127.0.0.1:1", "", _fetch("127.0.0.1"),
        ("deny", "secret API_KEY may not be sent to 127.0.0.1:PORT")),
    "bound host and its port": (
        "stdout,net,secret=API_KEY@127.0.0.1:PORT", "", _fetch("127.0.0.1"), ("ok", "200\n")),
    "a prefix binding covers the name": (
        "stdout,net,secret=API_*@127.0.0.1", "", _fetch("localhost"),
        ("deny", "secret API_KEY may not be sent to localhost:PORT")),
    "a join with text keeps the binding": (
        "stdout,net,secret=API_KEY@127.0.0.1", "", _fetch("localhost", '"Token " + k'),
        ("deny", "secret API_KEY may not be sent to localhost:PORT")),
    "a join of two secrets checks both": (
        "stdout,net,secret=API_KEY@127.0.0.1,secret=OTHER_KEY", 'require secret("OTHER_KEY")\n',
        _fetch("localhost", 'secret("OTHER_KEY") + k'),
        ("deny", "secret API_KEY may not be sent to localhost:PORT")),
    "an HMAC signature keeps the binding": (
        "stdout,net,secret=API_KEY@127.0.0.1", "", _fetch("localhost", 'hex(hmac("body", k))'),
        ("deny", "secret API_KEY may not be sent to localhost:PORT")),
    "a binding of another name does not apply": (
        "stdout,net,secret=API_KEY,secret=OTHER_KEY@127.0.0.1", "", _fetch("localhost"), ("ok", "200\n")),
    "the program binds its own secret": (
        "stdout,net,secret=API_KEY", 'require secret("API_KEY@127.0.0.1")\n', _fetch("localhost"),
        ("deny", 'the program bound it with require secret("API_KEY@127.0.0.1")')),
    "the program's binding still lets the bound host receive it": (
        "stdout,net,secret=API_KEY", 'require secret("API_KEY@127.0.0.1")\n', _fetch("127.0.0.1"),
        ("ok", "200\n")),
    "the program cannot widen the host's binding": (
        "stdout,net,secret=API_KEY@127.0.0.1", 'require secret("API_KEY@localhost")\n', _fetch("localhost"),
        ("deny", "the host bound it with --cap-set secret=API_KEY@127.0.0.1")),
    "a secret never follows a redirect": (
        "stdout,net,secret=API_KEY", "",
        'let r be fetch("http://127.0.0.1:PORT/redirect?to=http://localhost:PORT/echo-headers", '
        'headers = {"Authorization": bearer(k)})\nprint(r["body"])\n', ("ok", "None|None\n")),
}


@pytest.mark.parametrize("name", list(DESTINATIONS))
def test_secret_destinations(tmp_path, http_server, name):
    ceiling, requires, body, (outcome, expected) = DESTINATIONS[name]
    port = str(http_server)
    source = ('require net, secret("API_KEY")\n' + requires + 'let k be secret("API_KEY")\n' + body)
    result = run_program(source.replace("PORT", port), tmp_path, "--cap-set", ceiling.replace("PORT", port),
                         env=ENV)
    if outcome == "ok":
        assert (result.code, result.out) == (0, expected.replace("PORT", port)), result
    else:
        assert result.code == 1, result
        assert expected.replace("PORT", port) in result.err, result
        assert "prog.syn:" in result.err and "Traceback" not in result.err
    assert KEY not in result.out + result.err


def test_a_refused_destination_is_audited_without_the_value(tmp_path, http_server):
    audit = tmp_path / "audit.jsonl"
    result = run_program(f'require net, secret("API_KEY")\nlet k be secret("API_KEY")\n'
                         + _fetch("localhost").replace("PORT", str(http_server)), tmp_path,
                         "--cap-set", "stdout,net,secret=API_KEY@127.0.0.1", "--audit", str(audit), env=ENV)
    assert result.code == 1
    log = audit.read_text()
    assert f'"scope": "API_KEY@localhost:{http_server}", "granted": false' in log
    assert KEY not in log


def test_a_malformed_binding_is_a_usage_error(tmp_path):
    result = run_program('print(1)\n', tmp_path, "--cap-set", "stdout,secret=API_KEY@http://x/")
    assert result.code == 2 and "net scope" in result.err, result


# name: (ceiling, program, expected)
REVEALS = {
    "a join needs reveal for each part (the prefix attack)": (
        "stdout,secret=API_KEY,reveal=DEMO_*", 'require secret("API_KEY"), reveal("DEMO_*")\n'
        'print(reveal(as_secret("", "DEMO_x") + secret("API_KEY")))\n',
        ("deny", 'Capability not granted: reveal("API_KEY")')),
    "a prefix scope matches each part on its own": (
        "stdout,reveal=DEMO_*", 'require reveal("DEMO_*")\n'
        'print(reveal(as_secret("a", "DEMO_x") + as_secret("b", "DEMO_y")))\n', ("ok", "ab\n")),
    "exact names for every part": (
        "stdout,secret=API_KEY,reveal=API_KEY,reveal=DEMO_x",
        'require secret("API_KEY"), reveal("API_KEY"), reveal("DEMO_x")\n'
        'print(length(reveal(as_secret("<", "DEMO_x") + secret("API_KEY"))))\n', ("ok", f"{len(KEY) + 1}\n")),
    "a bearer header is still the secret": (
        "stdout,secret=API_KEY,reveal=DEMO_*", 'require secret("API_KEY"), reveal("DEMO_*")\n'
        'print(reveal(bearer(secret("API_KEY"))))\n', ("deny", 'reveal("API_KEY")')),
    "a join's display name is no scope": (
        "stdout,secret=API_KEY,reveal=*", 'require secret("API_KEY"), reveal("DEMO_x+API_KEY")\n'
        'print(reveal(as_secret("", "DEMO_x") + secret("API_KEY")))\n', ("deny", 'reveal("API_KEY")')),
}

ORACLES = {
    "two reads of one variable are equal": (
        'print(secret("API_KEY") == secret("API_KEY"))\n', ("ok", "true\n")),
    "a guess sealed under the same name is not": (
        f'print(secret("API_KEY") == as_secret("{KEY}", "API_KEY"))\n', ("ok", "false\n")),
    "two sealings of one text are two secrets": (
        'print(as_secret("a", "t") == as_secret("a", "t"), unique([secret("API_KEY"), secret("API_KEY")]))\n',
        ("ok", "false [secret(API_KEY)]\n")),
    "a secret is no map key": (
        'let m be {}\nset m[secret("API_KEY")] to 1\n', ("deny", "cannot be a map key")),
    "an HMAC under a secret key is sealed": (
        'print(hmac("known", secret("API_KEY")), hex(hmac("known", secret("API_KEY"))))\n',
        ("ok", "secret(API_KEY) secret(API_KEY)\n")),
    "an HMAC under a secret has no length or bytes": (
        'print(length(hmac("known", secret("API_KEY"))))\n', ("deny", "length expects")),
    "the HMAC padding length oracle": (
        'let k be secret("API_KEY")\nprint(hmac("m", k + "\\u0000") == hmac("m", k))\n'
        'print(constant_time_eq(hmac("m", k + "\\u0000"), hmac("m", k)))\n',
        ("deny", "both sides are made from the secret API_KEY")),
    "a guess with constant_time_eq is one documented bit": (
        f'print(constant_time_eq(secret("API_KEY"), "{KEY}"), constant_time_eq(secret("API_KEY"), "x"))\n',
        ("ok", "true false\n")),
}


def _half_full_text() -> str:
    # 49,999,998 characters: two 2^24 runs and the rest
    return ('let s be "a"\neach i in range(24)\n    set s to s + s\n'
            'let t be s + s + slice(s, 0, 50000000 - 2 * length(s) - 2)\n')


@pytest.mark.parametrize("name", list(REVEALS) + list(ORACLES))
def test_reveal_and_oracles(tmp_path, name):
    if name in REVEALS:
        ceiling, source, (outcome, expected) = REVEALS[name]
        flags = ("--cap-set", ceiling)
    else:
        source, (outcome, expected) = ORACLES[name]
        source = 'require secret("API_KEY")\n' + source
        flags = ()
    result = run_program(source, tmp_path, *flags, env=ENV)
    if outcome == "ok":
        assert (result.code, result.out) == (0, expected), result
    else:
        assert result.code == 1 and expected in result.err and "prog.syn:" in result.err, result
    assert KEY not in result.out + result.err


def test_joining_text_to_a_secret_does_not_tell_its_length(tmp_path):
    # The text limit is checked with the secret's bound, so a long text joined to a 1- or
    # 60-character secret is refused the same way, with the same message.
    source = 'require secret("K")\n' + _half_full_text() + 'print(length(reveal(t + secret("K"))))\n'
    messages = []
    for key in ("x", "y" * 60):
        result = run_program(source, tmp_path, env={"K": key})
        assert result.code == 1 and "value too large: `+`" in result.err, result
        messages.append(result.err)
    assert messages[0] == messages[1]
