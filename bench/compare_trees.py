"""Time the benchmark programs against one or more source trees, in-process, CPU medians.

`bench/run.py` answers "how far from CPython are we"; this answers "did my change help", which
needs a tighter instrument: each tree is imported in its own process, warmed up, and every
program is run 5 times through `runtime.cli.main` with its output captured; the median process
CPU time is printed (CPU, not wall, so other jobs on a shared machine matter less). The numbers
for the prototype in PROFILE.md were taken this way, on a scratch copy with the patch applied:

    cp -r runtime lang stdlib grammar /tmp/proto && (cd /tmp/proto && patch -p1 < bench/profiles/prototype.diff)
    .venv/bin/python bench/compare_trees.py . /tmp/proto
"""

from __future__ import annotations

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = ["fib", "fib30", "while_loop", "each_append", "each_append_global", "text_split", "word_count",
            "sort_numbers", "closures", "match_vm", "agent_script"]
RUNS = 5

WORKER = r'''
import io, os, statistics, sys, time
root, paths = sys.argv[1], sys.argv[2:]
sys.path.insert(0, root)
from synsema.lang.parser import parse
from synsema.runtime import cli, interp
from synsema.stdlib.registry import load_all
load_all()
parse("let warm_up be 1\n", "<warm-up>")
for path in paths:
    cpu = []
    for _ in range(RUNS):
        saved, sys.stdout = sys.stdout, io.StringIO()
        start = time.process_time()
        try:
            cli.main(["run", path])
        finally:
            cpu.append(time.process_time() - start)
            out, sys.stdout = sys.stdout.getvalue(), saved
    print(os.path.basename(path), statistics.median(cpu), out.strip().splitlines()[-1][:50] if out.strip() else "", flush=True)
'''.replace("RUNS", str(RUNS))


def measure(root: str) -> dict[str, tuple[float, str]]:
    """{program: (median CPU seconds, last output line)} for the tree at `root`."""
    paths = [os.path.join(HERE, "programs", name + ".syn") for name in PROGRAMS]
    proc = subprocess.run([sys.executable, "-c", WORKER, os.path.abspath(root), *paths],
                          capture_output=True, text=True, check=True)
    results = {}
    for line in proc.stdout.splitlines():
        name, seconds, *out = line.split(" ", 2)
        results[name.removesuffix(".syn")] = (float(seconds), out[0] if out else "")
    return results


def main(roots: list[str]) -> int:
    if not roots:
        print(__doc__)
        return 2
    table = {root: measure(root) for root in roots}
    head = "program".ljust(20) + "".join(f"{os.path.basename(os.path.abspath(r)) or r:>16}" for r in roots)
    print(head + "   (median CPU ms)")
    for name in PROGRAMS:
        cells = [table[r].get(name, (float("nan"), ""))[0] * 1000 for r in roots]
        outputs = {table[r].get(name, (0, ""))[1] for r in roots}
        flag = "" if len(outputs) == 1 else "   OUTPUTS DIFFER"
        print(name.ljust(20) + "".join(f"{c:16.1f}" for c in cells) + flag)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
