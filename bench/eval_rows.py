"""Rows per second of `synsema eval` (issue 30): a small task over ROWS rows at 1, 2 and N local
workers and on a local Ray with 2 CPUs, against a shell loop of `synsema run` (one process per
row, the program reading its row from its arguments). Whole commands, wall clock; not part of
`make bench` (Ray's start-up alone is seconds). Usage: .venv/bin/python bench/eval_rows.py [ROWS]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

PROGRAM = """task solve(a: number, b: number)
    give a * b + a

task score_positive(output)
    give output > 0

when length(args()) == 2
    print(solve(int(args()[0]), int(args()[1])))
"""


def timed(command: list[str], cwd: str) -> float:
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {done.stderr}")
    return time.perf_counter() - started


def main() -> None:
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    synsema = [sys.executable, "-m", "synsema"]
    cpus = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "p.syn"), "w") as handle:
            handle.write(PROGRAM)
        with open(os.path.join(folder, "d.jsonl"), "w") as handle:
            handle.writelines(f'{{"a": {n}, "b": {n + 1}}}\n' for n in range(1, rows + 1))
        table = []
        for workers in sorted({1, 2, cpus}):
            seconds = timed([*synsema, "eval", "p.syn", "--data", "d.jsonl", "--workers", str(workers),
                             "--out", f"w{workers}.jsonl"], folder)
            table.append((f"local, {workers} worker{'s' if workers > 1 else ''}", seconds))
        seconds = timed([*synsema, "eval", "p.syn", "--data", "d.jsonl", "--engine", "ray", "--workers", "2",
                         "--out", "ray.jsonl"], folder)
        table.append(("Ray, local, 2 CPUs (start-up included)", seconds))
        started = time.perf_counter()
        for n in range(1, rows + 1):
            subprocess.run([*synsema, "run", "p.syn", str(n), str(n + 1)], cwd=folder, capture_output=True,
                           check=True)
        table.append(("shell loop of synsema run", time.perf_counter() - started))
    print(f"{rows} rows, {cpus} CPUs\n\n| engine | wall s | rows/s | ms per row |\n|---|---|---|---|")
    for name, seconds in table:
        print(f"| {name} | {seconds:.2f} | {rows / seconds:.1f} | {1000 * seconds / rows:.0f} |")


if __name__ == "__main__":
    main()
