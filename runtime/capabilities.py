"""Capabilities: what a running program may touch, and who must act when it may not.

Synsema denies by default. A program gains a capability with a top-level `require`; the host
bounds what any program can gain with a ceiling (`--sandbox`, `--cap-set`); `call_tool` and
`sandbox` narrow the set further for the code they run. Every builtin with an effect asks this
module before acting, and a refusal names the party who can fix it: the program (add a
`require`), the host (widen the ceiling) or the enclosing tool/sandbox declaration.

API used by the evaluator and the command line
----------------------------------------------
``Ceiling.parse(text)``         the `--cap-set` list `"name,name=scope,…"`; `"none"` is empty.
                                Unknown names and malformed scopes raise a SynError with phase
                                "Usage" (the CLI exits 2). Scopes cannot contain commas.
``Ceiling.sandbox()``           the `--sandbox` ceiling: `stdout,time`.
``ceiling.items_named(name)``   the scope texts of the ceiling's items called `name`, in order,
                                including items that are not capabilities (`declassify=…`) and
                                label items such as `llm=customers@api.host` (labels use them).
``validate_cap_name(name, span)``  SynError (phase "Runtime", at `span`) for an unknown name,
                                listing the known ones; the evaluator calls it at load time.
``Capabilities(ceiling, auto_grants, audit, cwd=None)``
    ``grant(name, scope, span)``   a top-level `require`; scope text, or None for "any".
    ``check(name, scope, span)``   returns if the request is allowed, else raises SynError (phase
                                "Runtime") whose message says who must act; audited either way.
    ``enter_tool(declared, task_name=None)`` / ``enter_sandbox(under)`` → token; ``leave(token)``.
    ``effective()``                display forms of the current set (the REPL's `:caps`).
    ``finish(exit_code)``          writes the audit summary line.
    ``ceiling``                    the Ceiling, or None when the host set none.
``Audit.open(spec)``            (runtime.audit) `"json"` → JSON lines on stderr, `fd:N` → an
                                inherited descriptor, anything else is a file path (OSError when
                                it cannot be created: the CLI reports it). Every line carries the
                                run's random id (``audit.run``); ``audit.summary(exit)`` ends the
                                log, once.
``resolve_path(path, cwd)``     the real absolute path a file builtin must both check and use.

Rules (SPEC §6, LANGUAGE §8), and the decisions taken where the documents are silent
----------------------------------------------------------------------------------------
* Scopes by kind.  net: `host` (any port), `host:port` (only that port), `*.domain` (strict
  subdomains, never the bare domain), `*` or no scope (any host); IPv6 in brackets. Hosts compare
  case-insensitively, a trailing dot ignored; a URL is refused as a scope. file/file.read/
  file.write: a path, `~/` expanded, relative to the working directory, `..` resolved, symlinks of
  its literal part resolved; it covers itself and everything below it, component by component;
  `*`, `?`, `[…]` inside a component glob that one component, so `/data/*` covers what is below
  `/data` but neither `/data` itself nor `/database`. A checked path is fully resolved with
  `realpath` first, so a symlink inside a scope that points outside it is refused. `file` covers
  `file.read` and `file.write`. env/secret/reveal, and mcp (a server named in the host's
  `--mcp-config`): an exact name or a trailing-`*` prefix. A secret scope may end in `@host`
  (`secret=API_KEY@api.x.com` in the ceiling, `require secret("API_KEY@api.x.com")` in the
  program): secrets derived from that name then go only to that host (a net scope), checked by
  `check_secret_destination` where the plaintext would leave; each binding only narrows.
  llm/judge: a principal (`llm("customers")`); a ceiling item `llm=customers@host` bounds the
  principal `customers`; a check without scope (an ordinary model call) is allowed by any grant of
  the name. time/random/stdout/stdin take no scope. Other names (exec, db, serve, memory, …):
  exact text, `*` for any.
* The ceiling bounds whole grants: a `require` counts only when all of it fits under some ceiling
  item, so `require net("*")` under `--cap-set "net=api.mock"` gets nothing (LANGUAGE §8), and the
  denial tells the program to narrow its require. The run-mode auto-grants (`stdout`, `stdin`,
  `time`, `llm`) are filtered the same way, so `--sandbox` keeps stdout and time, and `stdout` is a
  real capability under any ceiling.
* `call_tool` and `sandbox` frames are filters over accesses: a request must pass the program's
  set and every active frame, so a tool gets exactly declared ∩ program (a tool declaring
  `env("APP_*")` in a program granting `env("APP_NAME")` may read APP_NAME and nothing else),
  nested calls intersect again, and `sandbox under CAPS` is CAPS ∩ the current set — never
  wider than the code around it, so never above the ceiling. `stdout` passes every frame
  (printing still works); everything else must be listed.
* `grant` is a no-op while a tool or sandbox is active: nested code cannot self-grant, whatever
  the evaluator considers top level.
* The audit log cannot be forged or read by the program it audits. Every line carries `run`, a
  random id made for this run that is in no value the program can reach, and the summary counts
  the records before it: a line a script prints (stderr is shared with `--audit json`) lacks the
  id. The file the log goes to — the `--audit` path, the descriptor, or stderr — is refused to
  every file builtin, compared by device and inode after the path is resolved, so no link, no
  `/proc/self/fd/N` and no `/dev/stderr` reaches it.
"""

from __future__ import annotations

import json
import os
import re
from fnmatch import fnmatchcase

from synsema.lang.errors import Span, SynError

# LANGUAGE.md §8, in its order; then `mcp` (issue 16: a server the host lists in --mcp-config).
KNOWN_NAMES = (
    "net", "file", "file.read", "file.write", "exec", "env", "secret", "reveal", "time", "random",
    "stdout", "stdin", "llm", "judge", "db", "serve", "memory", "sign", "wallet", "spend",
    "sandbox_run", "attest", "mcp",
)
# Ceiling items that are not capabilities but policy for the labels system.
CEILING_EXTRAS = ("declassify",)
RUN_MODE_AUTO_GRANTS = ("stdout", "stdin", "time", "llm")
CEILING_FLAGS = "--sandbox/--cap-set"


def validate_cap_name(name: str, span: Span | None) -> None:
    """Refuse a capability name the language does not know, before the program runs."""
    if name not in KNOWN_NAMES:
        raise SynError(_unknown_name_message(name, KNOWN_NAMES), span, "Runtime")


# Capabilities a program may not take: the features behind them are out of scope (SPEC.md §2).
UNSUPPORTED_NAMES = ("judge",)
# Capabilities that exist only with a scope: `require memory` alone names no memory.
NAMED_ONLY = {"memory": 'require memory("notes")'}


def validate_required(name: str, scoped: bool, span: Span | None) -> None:
    """What a program's require, a tool's declaration or a sandbox's `under` may name: a known
    capability that this implementation supports, with a scope where one is needed."""
    validate_cap_name(name, span)
    if name in UNSUPPORTED_NAMES:
        from synsema.lang.parse_errors import unsupported_message
        raise SynError(unsupported_message(name), span, "Runtime")
    if name in NAMED_ONLY and not scoped:
        raise SynError(f"the capability {name} needs a name: write {NAMED_ONLY[name]} — "
                       f"a bare `require {name}` names nothing to grant", span, "Runtime")


def _unknown_name_message(name: str, known) -> str:
    import difflib  # only on this error path: it is slow to import
    close = difflib.get_close_matches(name, known, n=1)
    hint = f" — did you mean '{close[0]}'?" if close else ""
    return f"Unknown capability '{name}'{hint} Known capabilities: {', '.join(known)}"


# ---------------------------------------------------------------- scope kinds
#
# Each kind turns scope text into a comparable key (None = any scope) and decides whether one
# key covers another. `covers` must hold only when every concrete access the inner key allows is
# also allowed by the outer one; that one relation serves checks, ceilings and tool bounds.

class _ScopeError(ValueError):
    """A malformed scope; the caller turns it into a SynError at the right place."""


class _Exact:
    """exec, db, serve, memory, …: the scope text itself; `*` or no scope for any."""

    def parse(self, name: str, text: str | None, cwd: str):
        if text is None or text == "*":
            return None
        if not text:
            raise _ScopeError(f"{name} scope is empty")
        return text

    def request(self, name: str, text: str | None, cwd: str):
        """The key of a concrete access; by default read like a grant's scope."""
        return self.parse(name, text, cwd)

    def covers(self, outer, inner) -> bool:
        return outer is None or outer == inner

    def covers_request(self, outer, inner) -> bool:
        return self.covers(outer, inner)


class _Unscoped(_Exact):
    """time, random, stdout, stdin: all or nothing."""

    def parse(self, name, text, cwd):
        if text is not None:
            raise _ScopeError(f"capability '{name}' takes no scope; write require {name}")
        return None


class _Principal(_Exact):
    """llm/judge: the key is the principal; a ceiling's `customers@host` bounds `customers`."""

    def parse(self, name, text, cwd):
        key = super().parse(name, text, cwd)
        return None if key is None else key.partition("@")[0]

    def covers_request(self, outer, inner) -> bool:
        # An unscoped request is an ordinary model call: any grant of the name allows it.
        return inner is None or self.covers(outer, inner)


class _Prefix(_Exact):
    """env/secret/reveal: `NAME` exactly, or `APP_*` for every name starting with `APP_`."""

    def parse(self, name, text, cwd):
        key = super().parse(name, text, cwd)
        if key is not None and "*" in key[:-1]:
            raise _ScopeError(f"{name} scope {key!r}: '*' is allowed only at the end")
        return key

    def request(self, name, text, cwd):
        if not text:
            raise _ScopeError(f"{name} needs a name")
        return text

    def covers(self, outer, inner) -> bool:
        if outer is None:
            return True
        if inner is None:
            return False
        if outer.endswith("*"):
            return inner.startswith(outer[:-1])
        return outer == inner


class _SecretName(_Prefix):
    """secret: a name or prefix, optionally bound to the hosts that may receive it:
    `API_KEY@api.x.com` grants (or bounds) API_KEY and sends it to api.x.com only."""

    def parse(self, name, text, cwd):
        if text is not None and "@" in text:
            text, _, host = text.partition("@")
            _KINDS["net"].parse("net", host, cwd)
        return super().parse(name, text, cwd)


def secret_binding(text: str | None, cwd: str):
    """(name key, net key) of a `NAME@host` secret scope, or None when it binds no host."""
    if text is None or "@" not in text:
        return None
    name, _, host = text.partition("@")
    return _KINDS["secret"].parse("secret", name, cwd), _KINDS["net"].parse("net", host, cwd)


# The patterns of this module are compiled at their first use (`re`'s cache keeps them): a run
# that checks no net, path or memory scope (hello world) never compiles them.
_HOST = r"(\*|(\*\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)*|\[[0-9a-f:.]+\])"


class _Net(_Exact):
    """net: the key is (host pattern, port or None)."""

    def parse(self, name, text, cwd):
        if text is None:
            return None
        raw = text.strip().lower()
        if "/" in raw:
            raise _ScopeError(f"net scope {text!r} is not a host: write a host name, host:port or "
                              f"*.domain (for example net(\"api.x.com\")), not a URL or path")
        host, port = raw, None
        if raw.startswith("["):
            end = raw.find("]")
            host, rest = raw[:end + 1], raw[end + 1:]
            if rest:
                if not rest.startswith(":"):
                    raise _ScopeError(f"net scope {text!r} is not host:port")
                port = rest[1:]
        elif raw.count(":") == 1:
            host, port = raw.split(":")
        elif raw.count(":") > 1:
            raise _ScopeError(f"net scope {text!r}: write an IPv6 address in brackets, like [::1]:8080")
        host = host.rstrip(".")
        if not re.fullmatch(_HOST, host):
            raise _ScopeError(f"net scope {text!r} is not a host name (a '*' may only stand alone "
                              f"or begin the name as '*.')")
        if port is not None:
            if not port.isdigit() or not 0 < int(port) < 65536:
                raise _ScopeError(f"net scope {text!r}: the port must be a number from 1 to 65535")
            port = int(port)
        if host == "*" and port is None:
            return None
        return host, port

    def covers(self, outer, inner) -> bool:
        if outer is None:
            return True
        if inner is None:
            return False
        (o_host, o_port), (i_host, i_port) = outer, inner
        if o_port is not None and o_port != i_port:
            return False
        if o_host == "*":
            return True
        if o_host.startswith("*."):
            domain = o_host[1:]          # ".x.com"
            return i_host != "*" and (i_host.endswith(domain) or i_host == o_host)
        return o_host == i_host


_GLOB = r"[*?\[]"


def resolve_path(path: str, cwd: str) -> str:
    """The real absolute path for `path`: `~` expanded, relative to `cwd`, symlinks and `..` resolved.

    File builtins check this path and then operate on it, so what was checked is what is touched.
    """
    expanded = os.path.expanduser(path) if path.startswith("~") else path
    return os.path.realpath(os.path.join(cwd, expanded))


class _Path(_Exact):
    """file, file.read, file.write: the key is the tuple of path components below `/`."""

    def parse(self, name, text, cwd):
        if text is None:
            return None
        if not text:
            raise _ScopeError(f"{name} scope is an empty path")
        expanded = os.path.expanduser(text) if text.startswith("~") else text
        parts = os.path.join(cwd, expanded).split("/")
        literal = next((i for i, part in enumerate(parts) if re.search(_GLOB, part)), len(parts))
        real = os.path.realpath("/".join(parts[:literal]) or "/")
        full = os.path.normpath("/".join([real, *parts[literal:]]))
        return tuple(part for part in full.split("/") if part)

    def request(self, name, text, cwd):
        if not text:
            raise _ScopeError(f"{name} needs a path")
        return tuple(part for part in resolve_path(text, cwd).split("/") if part)

    def covers(self, outer, inner) -> bool:
        if outer is None:
            return True
        if inner is None or len(inner) < len(outer):
            return False
        return all(_component_covers(o, i) for o, i in zip(outer, inner))


def _component_covers(outer: str, inner: str) -> bool:
    if re.search(_GLOB, inner):  # a pattern is covered only by an identical pattern or a bare `*`
        return outer == inner or outer in ("*", "**")
    return fnmatchcase(inner, outer)


# Where memory files live unless the host says (--memory-dir): beside the program, in the project.
DEFAULT_MEMORY_FOLDER = os.path.join(".synsema", "memory")
# A memory's name names a file in the host's memory folder (runtime.memory), so it is an
# identifier: no separator, no dot, nothing a path could be made of.
MEMORY_NAME = r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}"


class _MemoryName(_Prefix):
    """memory: one memory's name, or `NAME*` (a ceiling's `memory=shop-*`) for every name
    starting with NAME."""

    def parse(self, name, text, cwd):
        key = super().parse(name, text, cwd)
        if key is not None and not re.fullmatch(MEMORY_NAME, key.removesuffix("*") or "x"):
            raise _ScopeError(f"memory name {text!r} is not allowed: a memory name is 1 to 64 letters, "
                              "digits, '_' or '-', starting with a letter or digit (it names a file in "
                              "the host's memory folder, never a path)")
        return key

    request = parse


_KINDS = {name: _Exact() for name in KNOWN_NAMES}
_KINDS.update({name: _Unscoped() for name in ("time", "random", "stdout", "stdin")})
_KINDS.update({name: _Principal() for name in ("llm", "judge")})
_KINDS.update({name: _Prefix() for name in ("env", "reveal", "mcp")})
_KINDS["secret"] = _SecretName()
_KINDS.update({name: _Path() for name in ("file", "file.read", "file.write")})
_KINDS["net"] = _Net()
_KINDS["memory"] = _MemoryName()


# ---------------------------------------------------------------- capability items

class Cap:
    """One capability as written (`name`, `text`) plus its comparable key.

    `origin` says where it came from, for audit reasons: "require", "auto-granted", "ceiling",
    "call_tool declaration", "sandbox under".
    """

    __slots__ = ("name", "text", "key", "origin")

    def __init__(self, name: str, text: str | None, key, origin: str):
        self.name = name
        self.text = text
        self.key = key
        self.origin = origin

    @classmethod
    def parse(cls, name: str, scope, cwd: str, origin: str, span: Span | None = None) -> "Cap":
        """Read `name(scope)` as written in a require, a declaration or a ceiling item."""
        validate_cap_name(name, span)
        if isinstance(scope, bool) or not isinstance(scope, (str, int, type(None))):
            raise SynError(f"the scope of {name} must be text, got {type(scope).__name__}", span)
        text = None if scope is None else str(scope)
        try:
            key = _KINDS[name].parse(name, text, cwd)
        except _ScopeError as bad:
            raise SynError(str(bad), span) from None
        return cls(name, text, key, origin)

    def covers(self, other: "Cap") -> bool:
        """Whether every access `other` allows is allowed by this item too."""
        return _family_covers(self.name, other.name) and _KINDS[other.name].covers(self.key, other.key)

    def display(self) -> str:
        return self.name if self.text is None else f"{self.name}({json.dumps(self.text, ensure_ascii=False)})"

    def __repr__(self) -> str:
        return self.display()


def _family_covers(outer: str, inner: str) -> bool:
    return outer == inner or (outer == "file" and inner in ("file.read", "file.write"))


class _Request:
    """A concrete access a builtin asks for."""

    __slots__ = ("name", "text", "key")

    def __init__(self, name: str, scope, cwd: str, span: Span | None):
        validate_cap_name(name, span)
        self.name = name
        kind = _KINDS[name]
        self.text = None if scope is None else str(scope)
        try:
            self.key = kind.request(name, self.text, cwd)
        except _ScopeError as bad:
            raise SynError(str(bad), span) from None
        if isinstance(kind, _Path):  # show and audit the path that was actually checked
            self.text = "/" + "/".join(self.key)

    def allowed_by(self, cap: Cap) -> bool:
        return _family_covers(cap.name, self.name) and _KINDS[self.name].covers_request(cap.key, self.key)

    def display(self) -> str:
        """The form a program would write to ask for this access (default web ports left out)."""
        text = self.text
        if self.name == "net" and self.key is not None and self.key[1] in (80, 443):
            text = self.key[0]
        return self.name if text is None else f"{self.name}({json.dumps(text, ensure_ascii=False)})"

    def refused(self) -> str:
        """How a refusal names the access: upstream's spelling (`file_read("…")`, which tools
        match on after `Capability not granted: `); the `require` a hint offers keeps the
        program's own (`file.read`)."""
        return self.display().replace(".", "_", 1) if self.name in ("file.read", "file.write") else self.display()


# ---------------------------------------------------------------- the host ceiling

class Ceiling:
    """What the host allows any program in this run, at most. Parsed once from the command line."""

    def __init__(self, caps: list[Cap], items: list[tuple[str, str | None]]):
        self.caps = caps            # the capability items, as bounds
        self.items = items          # every item as written, extras included: (name, scope)

    @classmethod
    def parse(cls, text: str, base: str | None = None) -> "Ceiling":
        """`--cap-set "stdout,net=api.x.com,llm=customers@api.host,declassify=customers"` or `none`;
        relative path scopes are resolved against `base` (default: the working directory)."""
        if text.strip() == "none":
            return cls([], [])
        entries = [entry.strip() for entry in text.split(",")]
        if not text.strip() or "" in entries:
            raise SynError(f"--cap-set {text!r}: expected a comma-separated list like "
                           f"\"stdout,net=api.x.com\", or none", None, "Usage")
        caps, items = [], []
        for entry in entries:
            name, eq, scope = entry.partition("=")
            name, scope = name.strip(), (scope.strip() if eq else None)
            if name in CEILING_EXTRAS:
                if not scope:
                    raise SynError(f"--cap-set: {name} needs a value ({name}=principal)", None, "Usage")
            elif name in _KINDS:
                try:
                    caps.append(Cap.parse(name, scope, base or os.getcwd(), "ceiling"))
                except SynError as bad:
                    raise SynError(f"--cap-set: {bad.message}", None, "Usage") from None
            else:
                raise SynError(f"--cap-set: {_unknown_name_message(name, KNOWN_NAMES + CEILING_EXTRAS)}",
                               None, "Usage")
            items.append((name, scope))
        return cls(caps, items)

    @classmethod
    def sandbox(cls) -> "Ceiling":
        """`--sandbox`: the program may print and read the clock, nothing else."""
        return cls.parse("stdout,time")

    def items_named(self, name: str) -> list[str | None]:
        return [scope for item, scope in self.items if item == name]

    def covers(self, cap: Cap) -> bool:
        return any(bound.covers(cap) for bound in self.caps)

    def allows_access(self, name: str, scope: str, cwd: str) -> bool:
        """Whether this one access (`file.read` of a path, …) fits under the ceiling."""
        request = _Request(name, scope, cwd, None)
        return any(request.allowed_by(bound) for bound in self.caps)

    def allows(self, name: str) -> bool:
        """Whether any program may gain `name` (in any scope) under this ceiling."""
        return any(_family_covers(bound.name, name) for bound in self.caps)


def _as_required(bound: Cap) -> str:
    """A ceiling item as a program's require would write it (`llm=customer@host` → `llm("customer")`)."""
    if bound.name in ("llm", "judge") and bound.key is not None:
        return f"{bound.name}({json.dumps(bound.key, ensure_ascii=False)})"
    return bound.display()


# ---------------------------------------------------------------- the running set

class _Frame:
    """A narrowing in force — a `call_tool` task or a `sandbox` block — and what it lets through.

    A frame only filters: a request must pass the program's set *and* every active frame, so
    the effective set is the intersection of them all. `stdout` always passes a frame (printing
    still works wherever the program itself may print).
    """

    __slots__ = ("kind", "label", "caps")

    def __init__(self, kind: str, label: str | None, caps: list[Cap]):
        self.kind = kind
        self.label = label
        self.caps = [_ANY_STDOUT, *caps]

    def allowing(self, request: _Request) -> Cap | None:
        return next((cap for cap in self.caps if request.allowed_by(cap)), None)


_ANY_STDOUT = Cap("stdout", None, None, "kept through every narrowing")


PROJECT_FILE = "synsema.toml"   # runtime.project_search.FILE_NAME (this module stays import-light)


class HostFiles:
    """The files of the host's configuration: the project file and every file it or the command
    line names (MCP config, env file, cassette), and every file in `folders` (the memory folder,
    whose files hold what programs remembered, with their labels). No file builtin may read,
    write, delete or replace them, whatever the program is granted — compared by resolved path and by device and
    inode, so no link reaches them — and no program may write a project file anywhere, so a
    script cannot widen its own next run."""

    def __init__(self, paths=(), folders=()):
        self._paths = set()
        self._ids = set()
        self._folders = [os.path.realpath(folder) for folder in folders]
        for path in paths:
            real = os.path.realpath(path)
            self._paths.add(real)
            try:
                found = os.stat(real)
            except (OSError, ValueError):
                continue
            self._ids.add((found.st_dev, found.st_ino))

    def add_folder(self, folder: str) -> None:
        real = os.path.realpath(folder)
        if real not in self._folders:
            self._folders.append(real)

    def refuses(self, name: str, path: str) -> bool:
        """Whether the file request `name` on the resolved `path` touches a host file."""
        if path in self._paths or (name != "file.read" and os.path.basename(path) == PROJECT_FILE):
            return True
        if any(path == folder or path.startswith(folder.rstrip("/") + "/") for folder in self._folders):
            return True
        if not self._ids:
            return False
        try:
            found = os.stat(path)
        except (OSError, ValueError):
            return False
        return (found.st_dev, found.st_ino) in self._ids


class AuditBuffer:
    """A parallel item's audit: its records wait in the item's output buffer, so the caller
    writes them in input order, between the item's own output (runtime.concurrency)."""

    __slots__ = ("_audit", "_buffer")

    def __init__(self, audit, buffer):
        self._audit = audit
        self._buffer = buffer

    def is_sink(self, path: str) -> bool:
        return self._audit.is_sink(path)

    def record(self, *args) -> None:
        self._buffer.parts.append(("audit", args))

    def replay(self, args: tuple) -> None:
        self.record(*args)


class Capabilities:
    """The capabilities of one run: grants, the ceiling, the active narrowings, and the audit."""

    def __init__(self, ceiling: Ceiling | None, auto_grants=RUN_MODE_AUTO_GRANTS,
                 audit: Audit | None = None, cwd: str | None = None, host_files: HostFiles | None = None):
        self.ceiling = ceiling
        self._audit = audit
        self._host_files = host_files if host_files is not None else HostFiles()
        self._cwd = cwd or os.getcwd()
        self._declared = [Cap.parse(name, None, self._cwd, "auto-granted") for name in auto_grants]
        self._base = [cap for cap in self._declared if self._under_ceiling(cap)]
        self._frames: list[_Frame] = []   # per flow of control (set_flow, runtime.concurrency)
        # Where secrets may be sent, by whom it was said: [(name key, net key, as written)].
        self._bindings = {"host": [], "program": []}
        for scope in ceiling.items_named("secret") if ceiling is not None else ():
            self._bind("host", scope)
        self.labels = None   # the run's LabelState under --labels: a check is an audited effect

    # -- changing the set
    def grant(self, name: str, scope: str | None, span: Span | None) -> None:
        cap = Cap.parse(name, scope, self._cwd, "require", span)
        if self._frames:
            return  # a require inside a tool or sandbox never grants
        self._declared.append(cap)
        if self._under_ceiling(cap):
            self._base.append(cap)
        if name == "secret":
            self._bind("program", cap.text)

    def _bind(self, who: str, text: str | None) -> None:
        binding = secret_binding(text, self._cwd)
        if binding is not None:
            self._bindings[who].append((*binding, text))

    def enter_tool(self, declared: list[tuple[str, str | None]], task_name: str | None = None) -> _Frame:
        caps = [Cap.parse(name, scope, self._cwd, "call_tool declaration") for name, scope in declared]
        return self._push("tool", task_name, caps)

    def enter_sandbox(self, under: list[tuple[str, str | None]] | None) -> _Frame:
        caps = [Cap.parse(name, scope, self._cwd, "sandbox under") for name, scope in under or ()]
        return self._push("sandbox", None, caps)

    def leave(self, token: _Frame) -> None:
        for depth in range(len(self._frames) - 1, -1, -1):
            if self._frames[depth] is token:
                del self._frames[depth:]
                return
        raise RuntimeError("capabilities: leave() with a token that is not active")

    def _push(self, kind: str, label: str | None, caps: list[Cap]) -> _Frame:
        frame = _Frame(kind, label, caps)
        self._frames.append(frame)
        return frame

    # -- asking
    def check(self, name: str, scope: str | None, span: Span | None = None, grant: str | None = None) -> None:
        """Allow or refuse one access. `grant` is the narrowest grant covering it as the program
        would write it (lang.grants; a path keeps the program's relative form), for the hint;
        by default the request as checked."""
        if self.labels is not None:
            self.labels.capability_check(name, span)
        request = _Request(name, scope, self._cwd, span)
        if self._audit is not None and name.startswith("file") and self._audit.is_sink(request.text):
            self._audit.record(name, request.text, False, "the audit log of this run", span)
            raise SynError(f"Capability not granted: {request.refused()} — it is where this run's audit "
                           "log is written, which no program may read or change, whatever it is "
                           "granted; the host must send --audit somewhere else", span)
        if name.startswith("file") and request.text is not None and self._host_files.refuses(name, request.text):
            if self._audit is not None:
                self._audit.record(name, request.text, False, "a file of the host configuration", span)
            raise SynError(f"Capability not granted: {request.refused()} — it is part of the host's "
                           "configuration (a project file synsema.toml, or a file the host named: MCP "
                           "config, env file, cassette, the memory folder), which no program may read or "
                           "change, whatever it is granted", span, code="capability")
        allowing = [next((cap for cap in self._base if request.allowed_by(cap)), None)]
        allowing += [frame.allowing(request) for frame in self._frames]
        if None not in allowing:
            if self._audit is not None:
                reason = "; ".join(f"{cap.origin}: {cap.display()}" for cap in allowing)
                self._audit.record(name, request.text, True, reason, span)
            return
        reason, message = self._denial(request, grant or request.display())
        if self._audit is not None:
            self._audit.record(name, request.text, False, reason, span)
        from synsema.runtime import trace   # a denial is an event of the run's trace, if any
        trace.event("capability.denied", {"synsema.capability": name, "synsema.scope": request.text,
                                          "synsema.reason": reason,
                                          "synsema.file": span.file if span else None,
                                          "synsema.line": span.line if span else None})
        error = SynError(message, span, code="capability")
        if scope is None:   # the refusal names nothing the program computed: it may be shown under labels
            error.public = message
        raise error

    def check_secret_destination(self, sources, scope: str, span: Span | None = None) -> None:
        """Refuse sending secrets derived from `sources` (names) to `scope` (`host:port`) when the
        host or the program bound one of those names to other hosts (`secret=NAME@host`).
        Bindings only ever narrow: the program can add its own, never lift the host's."""
        target = _KINDS["net"].parse("net", scope, self._cwd)
        for name in sorted(sources):
            for who, bindings in self._bindings.items():
                allowed = [(net, text) for pattern, net, text in bindings
                           if _KINDS["secret"].covers(pattern, name)]
                if not allowed:
                    continue
                if any(_KINDS["net"].covers(net, target) for net, _ in allowed):
                    if self._audit is not None:
                        self._audit.record("secret", f"{name}@{scope}", True, f"bound by the {who}", span)
                    continue
                said = ", ".join(text for _, text in allowed)
                fix = (f"the host bound it with --cap-set secret={said}; the program cannot change this"
                       if who == "host" else f"the program bound it with require secret(\"{said}\")")
                if self._audit is not None:
                    self._audit.record("secret", f"{name}@{scope}", False, f"bound elsewhere by the {who}", span)
                raise SynError(f"secret {name} may not be sent to {scope} — {fix}", span)

    def protect_folder(self, folder: str) -> None:
        """No file builtin may touch `folder` (the memory folder) or anything in it."""
        self._host_files.add_folder(folder)

    def memory_name(self, span: Span | None = None) -> str:
        """The memory the program names (`require memory("notes")`): the memory builtins' file.
        A program has one; naming none is a refusal like any missing grant, and is audited."""
        if self.labels is not None:
            self.labels.capability_check("memory", span)
        names = list(dict.fromkeys(cap.key for cap in self._declared
                                   if cap.name == "memory" and cap.key is not None and "*" not in cap.key))
        if len(names) == 1:
            return names[0]
        if not names:
            message = ("Capability not granted: memory — this is a permission, not a bug: the memory "
                       "builtins use the memory the program names; add require memory(\"notes\") (any "
                       "name of letters, digits, '_' and '-') to the program's preamble")
            if self._audit is not None:
                self._audit.record("memory", None, False, "no memory required", span)
            error = SynError(message, span, code="capability")
            error.public = message
            raise error
        raise SynError(f"the program requires {len(names)} memories ({', '.join(names)}); the memory "
                       "builtins use one: keep a single require memory(\"NAME\")", span, code="capability")

    def effective(self) -> list[str]:
        """The current set for display: the program's set narrowed by each active frame.

        Where a grant and a frame item only partly overlap (neither covers the other) the
        overlap is not shown; checks are exact either way.
        """
        current = list(self._base)
        for frame in self._frames:
            current = [cap for cap in current if any(item.covers(cap) for item in frame.caps)] + \
                      [item for item in frame.caps[1:]
                       if any(cap.covers(item) and not item.covers(cap) for cap in current)]
        return [cap.display() for cap in current]

    @property
    def audit(self) -> Audit | None:
        return self._audit

    def frames(self) -> list:
        """The active narrowings of the running flow (runtime.interp.Flow)."""
        return self._frames

    def set_flow(self, frames: list, audit) -> None:
        self._frames = frames
        self._audit = audit

    def finish(self, exit_code: int) -> None:
        if self._audit is not None:
            self._audit.summary(exit_code)

    # -- internals
    def _under_ceiling(self, cap: Cap) -> bool:
        return self.ceiling is None or self.ceiling.covers(cap)

    def _denial(self, request: _Request, grant: str) -> tuple[str, str]:
        """(audit reason, message) naming the outermost layer that refuses the request; `grant`
        is the narrowest grant covering it, as the program would write it."""
        shown = request.refused()
        if not any(request.allowed_by(cap) for cap in self._base):
            # The program's own requires come after the auto-grants: name them first.
            wanted = next((cap for cap in reversed(self._declared) if request.allowed_by(cap)), None)
            if wanted is None:
                return "not granted", (
                    f"Capability not granted: {shown} — this is a permission, not a bug: "
                    f"add require {grant} to the program's preamble")
            how = "auto-granted" if wanted.origin == "auto-granted" else "declared"
            bounds = [cap.display() for cap in self.ceiling.caps if request.allowed_by(cap)]
            if bounds:
                fitting = next((cap for cap in self.ceiling.caps if request.allowed_by(cap)))
                fix = ("add a require that fits" if how == "auto-granted" else "narrow the require to fit") + \
                    f": require {_as_required(fitting)}"
                return "grant wider than the host ceiling", (
                    f"Capability not granted: {shown} — {how} as {wanted.display()}, which is wider than the host "
                    f"ceiling ({CEILING_FLAGS}) allows: {', '.join(bounds)}. A grant counts only when "
                    f"all of it fits under the ceiling; {fix}")
            return "above the host ceiling", (
                f"Capability not granted: {shown} — {how} but above the host ceiling ({CEILING_FLAGS}). "
                f"The program cannot fix this; the host must widen the ceiling")
        frame = next(frame for frame in self._frames if frame.allowing(request) is None)
        if frame.kind == "tool":
            task = f"task '{frame.label}'" if frame.label else "the task"
            return "not declared by the call_tool task", (
                f"Capability not granted: {shown} — this is a permission, not a bug: call_tool runs "
                f"{task} with only the capabilities it declares; add require {grant} at the top of "
                f"its body")
        return "inside sandbox", (
            f"Capability not granted: {shown} — this code runs in a sandbox block, which strips "
            f"capabilities; list it in `sandbox under …` if the block needs it")
