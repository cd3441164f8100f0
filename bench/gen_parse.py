"""Generate the parsing benchmark's input: a 10,000-line Synsema program and its CPython twin.

The two are generated side by side, block for block and line for line, so "lines per second"
means the same amount of code on both sides. Each block exercises a different corner of the
grammar (tasks with defaults and types, when/otherwise chains, each, while, match with list and
map patterns, lambdas, pipes, templates, maps, try/recover) so the measurement is not dominated by
one production. The output is deterministic; `run.py` writes it to a temporary directory.

    .venv/bin/python bench/gen_parse.py OUT_DIR [LINES]
"""

from __future__ import annotations

import os
import sys

SYN_BLOCK = '''task f_{n}(a, b = {n}, label: text = "t{n}")
    let c be a * b + {n} // 3 - (a % 7)
    when c > 100 and not (c == 200)
        give `big {{c}} from {{label}}`
    otherwise when c < 0 or c in [1, 2, 3]
        give [c, "x", {{"k": c, "n": {n}}}]
    otherwise
        give c ** 2
let v_{n} be f_{n}({n}, label = "v") |> text
let xs_{n} be apply(range(5), (x) => x * {n} + 1)
each i in xs_{n}
    set v_{n} to v_{n} + text(i)
let m_{n} be {{"id": {n}, "tags": ["a", "b"], "ok": true}}
match m_{n}
    is {{id, tags}} when id > 5
        set m_{n}["seen"] to length(tags)
    is [first, ...rest]
        print(first, rest)
    otherwise
        print("other {n}")
try
    set v_{n} to v_{n} + text(xs_{n}[2] * 1.5)
recover err
    print(err)
'''

PY_BLOCK = '''def f_{n}(a, b={n}, label: str = "t{n}"):
    c = a * b + {n} // 3 - (a % 7)
    if c > 100 and not (c == 200):
        return f"big {{c}} from {{label}}"
    elif c < 0 or c in [1, 2, 3]:
        return [c, "x", {{"k": c, "n": {n}}}]
    else:
        return c ** 2
v_{n} = str(f_{n}({n}, label="v"))
xs_{n} = list(map(lambda x: x * {n} + 1, range(5)))
for i in xs_{n}:
    v_{n} = v_{n} + str(i)
m_{n} = {{"id": {n}, "tags": ["a", "b"], "ok": True}}
match m_{n}:
    case {{"id": id, "tags": tags}} if id > 5:
        m_{n}["seen"] = len(tags)
    case [first, *rest]:
        print(first, rest)
    case _:
        print("other {n}")
try:
    v_{n} = v_{n} + str(xs_{n}[2] * 1.5)
except Exception as err:
    print(err)
'''

STATEMENTS_PER_BLOCK = 7  # top-level statements in one block, on either side


def generate(lines: int = 10_000) -> tuple[str, str, int]:
    """(Synsema source, Python source, top-level statement count), each exactly `lines` lines."""
    syn_parts, py_parts = [], []
    block_lines = SYN_BLOCK.count("\n")
    assert block_lines == PY_BLOCK.count("\n"), "the twins must have equal line counts"
    blocks, extra = divmod(lines, block_lines)
    for n in range(blocks):
        syn_parts.append(SYN_BLOCK.format(n=n))
        py_parts.append(PY_BLOCK.format(n=n))
    for k in range(extra):
        syn_parts.append(f"let pad_{k} be {k}\n")
        py_parts.append(f"pad_{k} = {k}\n")
    return "".join(syn_parts), "".join(py_parts), blocks * STATEMENTS_PER_BLOCK + extra


def main(argv: list[str]) -> int:
    out = argv[0] if argv else "."
    lines = int(argv[1]) if len(argv) > 1 else 10_000
    syn, py, statements = generate(lines)
    os.makedirs(out, exist_ok=True)
    for name, text in (("parse_input.syn", syn), ("parse_input.py", py)):
        with open(os.path.join(out, name), "w", encoding="utf-8") as handle:
            handle.write(text)
    print(f"{lines} lines, {statements} top-level statements, in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
