"""`fetch` against a real HTTP server on 127.0.0.1, through the real CLI."""

from __future__ import annotations

import pytest

from .cli import run_program


def fetch_program(port: int, body: str, grant: str | None = None) -> str:
    grant = grant if grant is not None else f'require net("127.0.0.1:{port}")\n'
    return grant + f'let base be "http://127.0.0.1:{port}"\n' + body


def test_get_returns_status_headers_and_text_body(tmp_path, http_server):
    result = run_program(fetch_program(http_server, """\
let r be fetch(base + "/utf8")
print(r["status"])
print(r["body"])
print(r["headers"]["content-type"])
print(r["headers"]["x-test"])
print(sort(keys(r)))
"""), tmp_path)
    assert result.code == 0, result
    assert result.out.splitlines() == ["200", "héllo wörld", "text/plain; charset=utf-8", "one, two",
                                       '["body", "headers", "status"]']


def test_error_statuses_are_data(tmp_path, http_server):
    result = run_program(fetch_program(http_server, 'print(fetch(base + "/status/404")["status"])\n'
                                                    'print(fetch(base + "/status/500")["status"])\n'), tmp_path)
    assert (result.code, result.out) == (0, "404\n500\n"), result


def test_without_require_the_program_is_told_to_add_it(tmp_path, http_server):
    result = run_program(fetch_program(http_server, 'print(fetch(base + "/hello"))\n', grant=""), tmp_path)
    assert result.code == 1
    assert (f'Capability not granted: net("127.0.0.1:{http_server}") — this is a permission, not a bug: '
            f'add require net("127.0.0.1:{http_server}") to the program\'s preamble') in result.err


@pytest.mark.parametrize("grant", ['require net("127.0.0.1")', "require net", 'require net("*")'])
def test_host_grants_without_a_port_cover_every_port(tmp_path, http_server, grant):
    result = run_program(fetch_program(http_server, 'print(fetch(base + "/hello")["body"])\n', grant + "\n"),
                         tmp_path)
    assert (result.code, result.out) == (0, "hello from /hello\n"), result


def test_same_host_by_another_name_is_another_host(tmp_path, http_server):
    result = run_program(f'require net("localhost")\nprint(fetch("http://127.0.0.1:{http_server}/hello"))\n',
                         tmp_path)
    assert result.code == 1 and f'Capability not granted: net("127.0.0.1:{http_server}")' in result.err


def test_redirects_are_followed_and_each_hop_is_checked(tmp_path, http_server):
    inside = f"http://127.0.0.1:{http_server}/hello"
    outside = f"http://localhost:{http_server}/hello"
    ok = run_program(fetch_program(http_server, f'print(fetch(base + "/redirect?to={inside}")["body"])\n'),
                     tmp_path)
    assert (ok.code, ok.out) == (0, "hello from /hello\n"), ok
    denied = run_program(fetch_program(http_server, f'print(fetch(base + "/redirect?to={outside}"))\n'), tmp_path)
    assert denied.code == 1 and f'Capability not granted: net("localhost:{http_server}")' in denied.err


def test_connection_refused_is_a_language_error_naming_the_url(tmp_path, closed_port):
    result = run_program(f'require net("127.0.0.1")\nprint(fetch("http://127.0.0.1:{closed_port}/x"))\n', tmp_path)
    assert result.code == 1 and "Traceback" not in result.err
    assert f"fetch http://127.0.0.1:{closed_port}/x: cannot connect to 127.0.0.1:{closed_port}: Connection refused" in result.err
    assert result.err.startswith("Runtime error: prog.syn:2:7: ")


def test_timeout(tmp_path, http_server):
    result = run_program(fetch_program(http_server, 'print(fetch(base + "/slow?s=2", timeout = 0.3))\n'), tmp_path)
    assert result.code == 1
    assert f"fetch http://127.0.0.1:{http_server}/slow?s=2: timed out after 0.3 s" in result.err


def test_failures_are_catchable(tmp_path, closed_port):
    result = run_program(f"""require net("127.0.0.1")
try
    fetch("http://127.0.0.1:{closed_port}/")
recover err
    print("caught: " + err)
""", tmp_path)
    assert result.code == 0 and result.out.startswith("caught: fetch http://127.0.0.1:"), result


@pytest.mark.parametrize("call, message", [
    ('fetch("ftp://127.0.0.1/file")', "fetch: only http:// and https:// URLs can be fetched, got 'ftp://127.0.0.1/file'"),
    ('fetch("not a url")', "fetch: only http:// and https:// URLs can be fetched"),
    ('fetch("http:///path")', "fetch: the URL 'http:///path' has no host"),
    ('fetch("http://127.0.0.1:99999/")', "fetch: invalid URL 'http://127.0.0.1:99999/'"),
    ("fetch(42)", "fetch expects a URL as text, got number"),
    ('fetch("http://127.0.0.1/", timeout = 0)', "fetch: timeout must be a number of seconds above 0"),
])
def test_bad_arguments_are_clear_errors(tmp_path, call, message):
    result = run_program(f"require net\nprint({call})\n", tmp_path)
    assert result.code == 1 and "Traceback" not in result.err
    assert message in result.err, result


def test_the_port_of_the_scheme_is_what_gets_checked(tmp_path):
    # https://h.invalid/ is port 443: a grant for port 80 does not cover it; the check comes first.
    result = run_program('require net("h.invalid:80")\nprint(fetch("https://h.invalid/"))\n', tmp_path)
    assert result.code == 1 and 'Capability not granted: net("h.invalid")' in result.err


def test_a_secret_header_is_materialized_at_the_socket_only(tmp_path, http_server):
    """The server sees the plaintext; the program only ever sees secret(NAME)."""
    result = run_program(fetch_program(http_server, """\
require secret("API_*")
let key be secret("API_KEY")
let headers be {"Authorization": bearer(key), "X-Api-Key": key}
print(headers)
print(fetch(base + "/echo-headers", headers = headers)["body"])
"""), tmp_path, env={"API_KEY": "s3cr3t-value"})
    assert result.code == 0, result
    assert result.out.splitlines() == ["{Authorization: secret(API_KEY), X-Api-Key: secret(API_KEY)}",
                                       "Bearer s3cr3t-value|s3cr3t-value"]


def test_secret_headers_do_not_follow_a_redirect_to_another_host(tmp_path, http_server):
    other = f"http://localhost:{http_server}/echo-headers"
    result = run_program(fetch_program(http_server, f"""\
require net("localhost:{http_server}"), secret("API_KEY")
let r be fetch(base + "/redirect?to={other}", headers = {{"X-Api-Key": secret("API_KEY")}})
print(r["body"])
"""), tmp_path, env={"API_KEY": "s3cr3t-value"})
    assert (result.code, result.out) == (0, "None|None\n"), result


def test_a_secret_never_shows_in_output_or_errors(tmp_path, http_server):
    result = run_program(fetch_program(http_server, """\
require secret("API_KEY")
let key be secret("API_KEY")
print(key, text(key), json_encode([key]), "x" + key)
eprint(key)
log key
try
    fetch(base + "/hello", headers = {"X-Api-Key": key, "Bad": 5})
recover err
    print(err)
raise key
"""), tmp_path, env={"API_KEY": "s3cr3t-value"})
    assert result.code == 1
    assert "s3cr3t" not in result.out + result.err, result
    assert "secret(API_KEY)" in result.err and "[redacted]" in result.out
