"""parallel_map holds exactly what the sequential loop holds: each program below runs with
`apply(xs, f)` and with `parallel_map(f, xs, 3)`, under --labels (and the audit log), with two
secrets; the pair must agree on exit code, stdout, stderr and audit records for each secret,
and — the noninterference the labels promise (TINI) — two runs that both finish must agree
across the two secrets."""

from __future__ import annotations

import json

import pytest

from conftest import run_synsema

PROGRAMS = {
    "private results": '''let s be private(int(args()[0]), "bank")
task f(x)
    give x * s
let r be MAP([1, 2, 3], f)
print(r)
print(is_private(r), length(r))
''',
    "branch on the secret inside an item": '''let s be private(int(args()[0]), "bank")
task f(x)
    when s > 100
        give x
    give 0 - x
print(MAP([1, 2], f))
''',
    "print under private control flow in an item": '''let s be private(int(args()[0]), "bank")
task f(x)
    print("item", x)
    when s > 100
        print("big")
    give x
print(MAP([1, 2, 3], f))
''',
    "an error raised under a private branch": '''let s be private(int(args()[0]), "bank")
task f(x)
    when s > 100 and x == 2
        raise("too big")
    give x
try
    print(MAP([1, 2, 3], f))
recover e
    print("caught", e)
print("after")
''',
    "capabilities and the audit log": '''require stdout, file.read("./data.txt")
task f(x)
    when x == 2
        give read_file("./secret.txt")
    give read_file("./data.txt")
try
    print(MAP([1, 3], f))
    print(MAP([1, 2, 3], f))
recover e
    print("refused")
''',
    "a private closure and a secret": '''require stdout, secret("API_KEY")
let s be private(int(args()[0]), "bank")
let k be secret("API_KEY")
let add be (x) => x + s
print(MAP([1, 2], add))
print(MAP(["a"], (x) => x + k))
''',
}


def _run(tmp_path, name: str, source: str, secret: str) -> tuple:
    folder = tmp_path / f"{name}-{secret}"
    folder.mkdir()
    (folder / "data.txt").write_text("public data", encoding="utf-8")
    (folder / "secret.txt").write_text("not allowed", encoding="utf-8")
    program = folder / "p.syn"
    program.write_text(source, encoding="utf-8")
    from conftest import synsema_env
    done = run_synsema("run", "--labels", "--audit", folder / "audit.jsonl", program, "--", secret, cwd=folder,
                       env=synsema_env(API_KEY="sk-plain-55aa"))
    records = [json.loads(line) for line in (folder / "audit.jsonl").read_text().splitlines()]
    audit = [{k: (v.replace(str(folder), "DIR") if k in ("file", "scope") and v else v) for k, v in r.items()
              if k not in ("ts", "run", "start")} for r in records]
    return done.returncode, done.stdout.replace(str(folder), "DIR"), done.stderr.replace(str(folder), "DIR"), audit


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_parallel_map_is_the_sequential_loop_under_labels(tmp_path, name):
    source = PROGRAMS[name]
    outcomes = {}
    for secret in ("42", "170"):
        sequential = _run(tmp_path, f"seq-{name[:8]}", source.replace("MAP(", "apply("), secret)
        parallel = _run(tmp_path, f"par-{name[:8]}",
                        source.replace("MAP([", "parallel_map([").replace("], f)", "], f, 3)")
                        .replace("], add)", "], add, 3)").replace('(x) => x + k))', '(x) => x + k, 3))'), secret)
        assert parallel == sequential, name
        assert "sk-plain-55aa" not in parallel[1] + parallel[2]
        outcomes[secret] = parallel
    if outcomes["42"][0] == outcomes["170"][0] == 0:   # TINI: runs that both finish must agree
        assert outcomes["42"] == outcomes["170"], f"{name}: the public outcome depends on the secret"
