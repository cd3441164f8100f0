"""The narrowest `require` that covers one capability-gated call, written for the program.

A hint to add a capability is only useful if it can be pasted: so it names what the call
touches and no more (`require net("api.example.com")`, not `require net`), and a path keeps the
form the program wrote it in (`require file.read("./data/*")` for `read_file("data/" + name)`),
never the absolute path of the machine that ran it — a relative path in a program and in its
`require` both resolve against the same working directory, wherever it runs.

One function for every front end: `synsema run` (a denied check, runtime.capabilities), and
`synsema check` and the language server (the lint of a call whose target is a literal). A
statically unknown target gives the bare capability, which is the narrowest thing known.

Decisions: a file is granted by its own path (`./data/t.json`), and by its folder
(`./data/*`) only when the source names no more than the folder (`read_file("data/" + name)`);
a folder (`list_dir`) by its own path; a URL by its host, with the port only when the URL
names a non-default one; a name (env, secret, mcp server) exactly.
"""

from __future__ import annotations

import json
import posixpath

from synsema.lang import ast

_FILE_CAPS = ("file", "file.read", "file.write")
_DEFAULT_PORTS = {"http": 80, "https": 443}
# Capabilities no call names: the program's preamble does (the memory builtins use the memory of
# `require memory("notes")`, and a bare `require memory` grants nothing), so the hint shows a name.
_NAMED_BY_PREAMBLE = {"memory": "notes"}


def require_line(capability: str, target: str | None) -> str:
    """`require <grant>` for a call needing `capability` on `target` (as the program wrote it:
    a URL or host, a path, a name), or the bare capability when `target` is None."""
    return "require " + grant(capability, target)


def grant(capability: str, target: str | None) -> str:
    """The grant itself, `net("api.example.com")`, without the `require`."""
    if capability in _NAMED_BY_PREAMBLE:
        return f'{capability}("{_NAMED_BY_PREAMBLE[capability]}")'
    if target is None or target == "":
        return capability
    if capability in _FILE_CAPS:
        scope = path_scope(target)
    elif capability == "net":
        scope = host_scope(target)
    else:
        scope = target
    return f"{capability}({json.dumps(scope, ensure_ascii=False)})"


def path_scope(path: str) -> str:
    """`data/t.json` → `./data/t.json`; `data/*` (some file of a folder, known statically) →
    `./data/*`; `/etc/hostname`, `~/notes`, `../x` as written (normalised)."""
    normal = posixpath.normpath(path)
    if path.startswith(("/", "~")) or normal == "." or normal.startswith("../"):
        return normal
    return "./" + normal


def host_scope(target: str) -> str:
    """`https://api.example.com/v1` → `api.example.com`; `http://127.0.0.1:8080/` → `127.0.0.1:8080`;
    a host or host:port as is."""
    from urllib.parse import urlsplit
    if "//" not in target:
        return target
    try:
        parts = urlsplit(target)
    except ValueError:
        return target
    netloc = parts.netloc.rpartition("@")[2]
    try:
        host, port = parts.hostname, parts.port
    except ValueError:          # a port that is no number: the text as written
        return netloc or target
    if not host:
        return target
    if ":" in host:
        host = f"[{host}]"
    return host if port is None or port == _DEFAULT_PORTS.get(parts.scheme) else f"{host}:{port}"


def static_target(call) -> str | None:
    """What a capability-gated call touches, when the source says: its first argument as a text
    literal, or the literal head of a template or a `"dir/" + name` up to its last `/` (then the
    folder is known, the file is not). None otherwise."""
    if not call.args:
        return None
    first = call.args[0]
    if type(first) is ast.Str:
        return first.value
    head = _literal_head(first)
    if head and "/" in head:
        return head[:head.rindex("/") + 1] + "*"   # some file of that folder
    return None


def _literal_head(node) -> str | None:
    """The text a template or a `+` chain surely begins with."""
    if type(node) is ast.Str:
        return node.value
    if type(node) is ast.Binary and node.op == "+":
        return _literal_head(node.left)
    if type(node) is ast.Template and node.parts and isinstance(node.parts[0], str):
        return node.parts[0]
    return None
