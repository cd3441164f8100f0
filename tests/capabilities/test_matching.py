"""Scope matching, row by row: one grant, one request, allowed or not (SPEC §6).

Each row is `(grant name, grant scope, request name, request scope, allowed)`. Paths live under
/nx-synsema, which does not exist, so matching is purely lexical there; the symlink rows build a
real tree in tmp_path.
"""

import os

import pytest

from synsema.lang.errors import SynError
from synsema.runtime.capabilities import Capabilities

ROOT = "/nx-synsema"

ROWS = [
    # --- net: exact hosts
    ("net", "api.x.com", "net", "api.x.com:443", True),
    ("net", "api.x.com", "net", "api.x.com:8080", True),           # no port in the scope: any port
    ("net", "api.x.com", "net", "API.X.Com:443", True),            # hosts ignore case
    ("net", "api.x.com.", "net", "api.x.com:443", True),           # a trailing dot is the same host
    ("net", "api.x.com", "net", "x.com:443", False),
    ("net", "api.x.com", "net", "evil-api.x.com:443", False),
    ("net", "api.x.com", "net", "api.x.com.evil.com:443", False),
    ("net", "x.com", "net", "api.x.com:443", False),               # a bare domain is not its subdomains
    ("net", "localhost", "net", "127.0.0.1:80", False),            # names are never resolved
    ("net", "127.0.0.1", "net", "127.0.0.1:8000", True),
    ("net", "127.0.0.1", "net", "127.0.0.2:8000", False),
    ("net", "[::1]:8080", "net", "[::1]:8080", True),
    ("net", "[::1]:8080", "net", "[::2]:8080", False),
    # --- net: wildcards
    ("net", "*.x.com", "net", "api.x.com:443", True),
    ("net", "*.x.com", "net", "a.b.x.com:443", True),
    ("net", "*.x.com", "net", "x.com:443", False),                 # `*.` never covers the bare domain
    ("net", "*.x.com", "net", "evilx.com:443", False),
    ("net", "*.x.com", "net", "x.com.evil.com:443", False),
    ("net", "*", "net", "anything.org:1", True),
    ("net", None, "net", "anything.org:1", True),                  # bare `require net` = any
    # --- net: ports
    ("net", "api.x.com:8080", "net", "api.x.com:8080", True),
    ("net", "api.x.com:8080", "net", "api.x.com:443", False),
    ("net", "api.x.com:8080", "net", "api.x.com", False),          # unknown port: not that port
    ("net", "*.x.com:8443", "net", "a.x.com:8443", True),
    ("net", "*.x.com:8443", "net", "a.x.com:443", False),
    ("net", "*:8080", "net", "h.org:8080", True),
    ("net", "*:8080", "net", "h.org:80", False),
    # --- paths: components, not text prefixes
    ("file", f"{ROOT}/data", "file.read", f"{ROOT}/data", True),
    ("file", f"{ROOT}/data", "file.read", f"{ROOT}/data/a/b.txt", True),
    ("file", f"{ROOT}/data", "file.read", f"{ROOT}/database", False),
    ("file", f"{ROOT}/data/*", "file.read", f"{ROOT}/database/x", False),
    ("file", f"{ROOT}/data/*", "file.read", f"{ROOT}/data/x", True),
    ("file", f"{ROOT}/data/*", "file.read", f"{ROOT}/data/x/y/z", True),
    ("file", f"{ROOT}/data/*", "file.read", f"{ROOT}/data", False),   # `/*` is what is below
    ("file", f"{ROOT}/data/", "file.read", f"{ROOT}/data/x", True),   # trailing slash ignored
    ("file", f"{ROOT}/data", "file.read", f"{ROOT}/data/", True),
    ("file", f"{ROOT}/data/*.csv", "file.read", f"{ROOT}/data/a.csv", True),
    ("file", f"{ROOT}/data/*.csv", "file.read", f"{ROOT}/data/a.txt", False),
    ("file", "/", "file.read", f"{ROOT}/anything", True),
    # --- paths: `.` and `..`
    ("file", f"{ROOT}/data", "file.read", f"{ROOT}/data/../secret", False),
    ("file", f"{ROOT}/data", "file.read", f"{ROOT}/data/sub/../x", True),
    ("file", f"{ROOT}/data", "file.read", f"{ROOT}/data/./x", True),
    ("file", f"{ROOT}/data/./sub", "file.read", f"{ROOT}/data/sub/x", True),
    ("file", f"{ROOT}/data/../etc", "file.read", f"{ROOT}/etc/passwd", True),   # the scope is normalised too
    ("file", f"{ROOT}/data/../etc", "file.read", f"{ROOT}/data/x", False),
    ("file", f"{ROOT}/data", "file.read", f"{ROOT}/data/../../etc/passwd", False),
    # --- paths relative to the working directory (ROOT)
    ("file", "data", "file.read", f"{ROOT}/data/x", True),
    ("file", f"{ROOT}/data", "file.read", "data/x", True),
    ("file", f"{ROOT}/data", "file.read", "./data/../../etc/passwd", False),
    ("file", "./data/..", "file.read", f"{ROOT}/other", True),
    # --- file families: `file` is read + write, the narrow ones are not each other
    ("file", f"{ROOT}/d", "file.write", f"{ROOT}/d/x", True),
    ("file.read", f"{ROOT}/d", "file.read", f"{ROOT}/d/x", True),
    ("file.read", f"{ROOT}/d", "file.write", f"{ROOT}/d/x", False),
    ("file.write", f"{ROOT}/d", "file.read", f"{ROOT}/d/x", False),
    ("file", None, "file.write", "/etc/anything", True),
    # --- env / secret / reveal names
    ("env", "APP_KEY", "env", "APP_KEY", True),
    ("env", "APP_KEY", "env", "APP_KEY2", False),
    ("env", "APP_*", "env", "APP_KEY", True),
    ("env", "APP_*", "env", "APP_", True),
    ("env", "APP_*", "env", "APP", False),
    ("env", "APP_*", "env", "XAPP_KEY", False),
    ("env", "app_*", "env", "APP_KEY", False),                     # names are case-sensitive
    ("env", "*", "env", "PATH", True),
    ("env", None, "env", "PATH", True),
    ("secret", "DB_*", "env", "DB_PASSWORD", False),               # different capabilities
    # --- principals, exact names, unscoped capabilities
    ("llm", "customers", "llm", None, True),                       # an ordinary model call
    ("llm", "customers", "llm", "customers", True),
    ("llm", "customers", "llm", "bank", False),
    ("llm", None, "llm", "bank", True),
    ("exec", "git", "exec", "git", True),
    ("exec", "git", "exec", "gitk", False),
    ("time", None, "time", None, True),
    ("time", None, "random", None, False),
]


def allowed(grant_name, grant_scope, name, scope, cwd=ROOT) -> bool:
    caps = Capabilities(None, auto_grants=(), cwd=cwd)
    caps.grant(grant_name, grant_scope, None)
    try:
        caps.check(name, scope)
    except SynError:
        return False
    return True


@pytest.mark.parametrize("grant_name, grant_scope, name, scope, expected", ROWS,
                         ids=[f"{r[0]}({r[1]})~{r[2]}({r[3]})" for r in ROWS])
def test_row(grant_name, grant_scope, name, scope, expected):
    assert allowed(grant_name, grant_scope, name, scope) is expected


def test_home_expansion():
    home = os.path.expanduser("~")
    assert allowed("file", "~/notes", "file.read", os.path.join(home, "notes", "a.txt"))
    assert allowed("file", f"{home}/notes", "file.read", "~/notes/a.txt")
    assert not allowed("file", "~/notes", "file.read", os.path.join(home, "notes-old", "a.txt"))


@pytest.fixture
def tree(tmp_path):
    """scope/ holds a file and two links out; outside/ holds a secret and a link back in."""
    (tmp_path / "scope").mkdir()
    (tmp_path / "outside").mkdir()
    (tmp_path / "scope" / "inside.txt").write_text("in")
    (tmp_path / "outside" / "secret.txt").write_text("secret")
    (tmp_path / "scope" / "link_out").symlink_to(tmp_path / "outside" / "secret.txt")
    (tmp_path / "scope" / "dirlink").symlink_to(tmp_path / "outside")
    (tmp_path / "outside" / "link_in").symlink_to(tmp_path / "scope" / "inside.txt")
    (tmp_path / "alias").symlink_to(tmp_path / "scope")
    return tmp_path


SYMLINK_ROWS = [
    ("scope", "scope/inside.txt", True),
    ("scope", "scope/link_out", False),                  # inside the scope, pointing outside
    ("scope", "scope/dirlink/secret.txt", False),        # through a directory link
    ("scope", "outside/link_in", True),                  # outside, pointing inside: the real file counts
    ("scope", "alias/inside.txt", True),
    ("alias", "scope/inside.txt", True),                 # a scope written through a link
    ("alias/*", "scope/inside.txt", True),
    ("alias", "outside/secret.txt", False),
    ("scope/*", "scope/link_out", False),
]


@pytest.mark.parametrize("grant, request_path, expected", SYMLINK_ROWS,
                         ids=[f"{g}~{r}" for g, r, _ in SYMLINK_ROWS])
def test_symlinks(tree, grant, request_path, expected):
    assert allowed("file.read", grant, "file.read", request_path, cwd=str(tree)) is expected


def test_dotdot_after_a_directory_link_is_resolved_like_the_kernel_does(tree):
    # Read lexically, scope/dirlink/../outside/secret.txt would be scope/outside/secret.txt, inside
    # the scope; the kernel follows dirlink first, so `..` lands in tmp and the file is outside.
    assert not allowed("file.read", "scope", "file.read", "scope/dirlink/../outside/secret.txt", cwd=str(tree))
    assert allowed("file.read", "scope", "file.read", "scope/dirlink/../scope/inside.txt", cwd=str(tree))


@pytest.mark.parametrize("name, scope, fragment", [
    ("net", "https://api.x.com/v1", "not a URL"),
    ("net", "api.*.com", "'*' may only"),
    ("net", "api.x.com:0", "port must be a number"),
    ("net", "api.x.com:http", "port must be a number"),
    ("net", "::1", "in brackets"),
    ("env", "A*B", "only at the end"),
    ("time", "utc", "takes no scope"),
    ("file", "", "empty path"),
])
def test_malformed_scopes_are_errors(name, scope, fragment):
    caps = Capabilities(None, auto_grants=())
    with pytest.raises(SynError) as err:
        caps.grant(name, scope, None)
    assert fragment in err.value.message


def test_unknown_name_suggests_and_lists():
    from synsema.runtime.capabilities import validate_cap_name
    from synsema.lang.errors import Span
    with pytest.raises(SynError) as err:
        validate_cap_name("nett", Span("p.syn", 2, 9))
    assert err.value.phase == "Runtime" and str(err.value.span) == "p.syn:2:9"
    assert "Unknown capability 'nett' — did you mean 'net'?" in err.value.message
    assert "file.read" in err.value.message and "sandbox_run" in err.value.message
