"""Print, per domain, the slowest published example, and per operation the slowest of its
largest accepted inputs, each timed through the real run path against its deadline.
A measurement, not a test:

    .venv/bin/python tests/math/measure_bounds.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from math_support import largest_inputs, more_largest_inputs  # noqa: E402

from synsema.stdlib.math import catalog, script  # noqa: E402


def timed(identifier: str, payload: dict) -> tuple[float, str]:
    started = time.perf_counter()
    result = script.run(identifier, payload)
    status = result.get("status", "value") if isinstance(result, dict) else "value"
    return time.perf_counter() - started, status


def main() -> None:
    script.run("comb.binomial", {"n": 1, "k": 1})  # start the worker outside the timings
    slowest: dict[str, tuple[float, str]] = {}
    for tool in catalog.TOOLS.values():
        for example in tool.examples:
            seconds, _ = timed(tool.identifier, example.payload)
            if seconds > slowest.get(tool.domain, (0.0, ""))[0]:
                slowest[tool.domain] = (seconds, tool.identifier)
    print("slowest published example per domain (s):")
    for domain, (seconds, identifier) in sorted(slowest.items()):
        print(f"  {domain:<9} {identifier:<28} {seconds:6.3f}")
    worst: dict[str, tuple[float, str]] = {}
    for _, identifier, payload in largest_inputs() + more_largest_inputs():
        seconds, status = timed(identifier, payload)
        if seconds >= worst.get(identifier, (0.0, ""))[0]:
            worst[identifier] = (seconds, status)
    print("largest accepted input per operation (markdown; % of the deadline):")
    print("| operation | deadline (s) | measured worst (s) | % | outcome |\n|---|---|---|---|---|")
    for identifier, (seconds, status) in sorted(worst.items()):
        deadline = catalog.TOOLS[identifier].deadline
        print(f"| {identifier} | {deadline:.0f} | {seconds:.2f} | {100 * seconds / deadline:.0f} "
              f"| {status} |")
    missing = sorted(set(catalog.TOOLS) - set(worst))
    print("operations without a largest-input row:", ", ".join(missing) or "none")

if __name__ == "__main__":
    main()
