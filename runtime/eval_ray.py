"""`synsema eval --engine ray`: the same rows on a Ray cluster (the `ray` extra).

Why Ray: an existing distributed engine schedules the rows over a cluster's CPUs, so an eval
outgrows one machine without a home-made pool. The driver connects to `--ray-address`, else
RAY_ADDRESS, else starts a local Ray with 2 CPUs (and stops it at the end).

Each row is one Ray task. The task runs the row in a fresh `python -m synsema.runtime.eval_ray`
process on the worker — the same isolation and per-row time limit as the local engine's fork
(a Ray worker is a long-lived, threaded process: neither forking it nor running rows in it is
safe) — and returns the RESULTS line with the row's trace text, which the driver writes beside
RESULTS as the local engine does. Results stream back as rows finish and go through the same
`on_result` (RESULTS appended and fsynced, audit, progress), so `--resume` is the same.

What travels to the workers: the plan (the program's source, the task, the scorers, the host
ceiling, labels and limits) is pickled into each task. Modules the program `use`s are read on
the worker at their path: a cluster's workers must see the program's folder at the same path
(a shared file system or the same image) and have synsema installed.
"""

from __future__ import annotations

import copy
import json
import os
import pickle
import sys

from synsema.runtime import evaluate


class RayUnavailable(Exception):
    """Ray could not start or be reached: the eval cannot begin (exit 2, RESULTS untouched)."""


def connect(address: str | None) -> None:
    """Join the cluster at `address` (else RAY_ADDRESS), or start a local Ray with 2 CPUs."""
    import ray
    address = address or os.environ.get("RAY_ADDRESS") or None
    try:
        if address:
            ray.init(address=address, logging_level="ERROR", log_to_driver=False)
        else:
            ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    except Exception as problem:  # Ray raises ConnectionError, RuntimeError, ValueError, …
        where = f"reach the Ray cluster at {address}" if address else "start a local Ray"
        raise RayUnavailable(f"cannot {where}: {type(problem).__name__}: {problem}") from None


def run_ray(plan: evaluate.Plan, rows: list, workers: int, on_result) -> None:
    """Run `rows` as Ray tasks on the cluster `connect` joined, at most `workers` in flight;
    `on_result` as each finishes. Ray is shut down (the local one stopped) at the end."""
    import ray
    try:
        shipped = copy.copy(plan)
        shipped.audit = True if plan.audit is not None else None   # the log itself stays here
        plan_bytes = ray.put(pickle.dumps(shipped))
        remote = ray.remote(num_cpus=1, max_retries=0)(_row_on_worker)
        waiting = list(rows)
        running: dict = {}
        while waiting or running:
            while waiting and len(running) < workers:
                row = waiting.pop(0)
                running[remote.remote(plan_bytes, row, on_result.spent)] = row
            ready, _ = ray.wait(list(running), num_returns=1)
            for ref in ready:
                row = running.pop(ref)
                try:
                    record, trace_text = ray.get(ref)
                except ray.exceptions.RayError as problem:
                    record, trace_text = evaluate.failed_record(row, plan, "crashed", f"the Ray task failed: "
                                                                f"{type(problem).__name__}"), None
                on_result(_placed(record, trace_text, row, plan))
    finally:
        ray.shutdown()


def _placed(record: dict, trace_text: str | None, row, plan: evaluate.Plan) -> dict:
    """The worker's record with its trace written beside RESULTS, as the local engine writes it."""
    if trace_text is None:
        record["trace"] = None
        return record
    path = evaluate.trace_path(plan, row.id)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(trace_text)
    record["trace"] = os.path.relpath(path, plan.results_dir)
    return record


def _row_on_worker(plan_bytes: bytes, row, spent: int):
    """(the RESULTS line, the row's trace text or None): the row in a process of its own."""
    import subprocess
    import tempfile
    plan = pickle.loads(plan_bytes)
    with tempfile.TemporaryDirectory(prefix="synsema-eval-") as folder:
        plan.traces = plan.results_dir = folder
        try:
            done = subprocess.run([sys.executable, "-m", "synsema.runtime.eval_ray"],
                                  input=pickle.dumps((plan, row, spent)), capture_output=True,
                                  timeout=plan.row_seconds)
            record = json.loads(done.stdout)
        except subprocess.TimeoutExpired:
            record = evaluate.failed_record(row, plan, "time_limit", evaluate.time_limit_message(plan))
        except ValueError:
            record = evaluate.failed_record(row, plan, "crashed", "the row's process ended before it gave a "
                                                                  "result (out of memory, or a bug in synsema)")
        trace_file = evaluate.trace_path(plan, row.id)
        trace_text = None
        if os.path.exists(trace_file):
            with open(trace_file, encoding="utf-8") as handle:
                trace_text = handle.read()
        return record, trace_text


def _row_process() -> None:
    """`python -m synsema.runtime.eval_ray`: one row from the pickled (plan, row, spent) on stdin;
    its RESULTS line on stdout (anything else the process writes goes to stderr)."""
    plan, row, spent = pickle.loads(sys.stdin.buffer.read())
    result_fd = os.dup(1)
    os.dup2(2, 1)
    from synsema.runtime import resources
    from synsema.runtime.cli import on_big_stack
    resources.apply_memory_limit(plan.memory)
    record = on_big_stack(lambda: evaluate.run_row(plan, row, spent))
    with os.fdopen(result_fd, "w", encoding="utf-8") as result:
        result.write(json.dumps(record, ensure_ascii=False))


if __name__ == "__main__":
    _row_process()
