"""`synsema eval`: one task of a program over the rows of a dataset, scored, with resume.

Why a process per row: a row must run isolated — fresh globals, its own capabilities, audit
records and label state, and a time limit that can stop it whatever it is doing. The engine
forks the already-loaded interpreter once per row (a few milliseconds, no re-import), at most
`workers` at a time; a row that passes its time limit is killed and replaced by the next.

What a row does (`run_row`, in the child): the program's top level runs (its `require` lines,
its definitions) with the host's ceiling, labels and limits, as `synsema run` would run it;
then the task is called the way `call_tool` calls it (arguments checked strictly against the
declared types, only the capabilities its own `require` lines declare), then each scorer. A
scorer is a task named `score_*` (or each `--score TASK`); it is given `output` (the task's
value) and those of the row's fields it declares, and returns a number or a bool. A field
that neither the task nor any scorer declares is the row's error.

RESULTS is JSON lines, one per finished row, each appended with a single write and an fsync
(`ResultsFile`): a run killed at any moment leaves whole lines and at most one torn last line,
which `--resume` drops before it reads the ids done. The row's trace (runtime.trace's JSON
lines) is written beside RESULTS, in RESULTS.traces/, and its `trace` field names it relative
to RESULTS's folder, so `synsema view RESULTS` links each row.

The budget (SYNSEMA_LLM_BUDGET) is the eval's, not each row's: a row starts with the tokens
every finished row used already counted against it, so rows running at the same moment can
overshoot it by at most what they themselves use (each of them is still stopped by it).
"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import sys
import time

from synsema.runtime.eval_data import Row, typed_cells

DEFAULT_ROW_SECONDS = 300.0


class EvalUsageError(Exception):
    """The command cannot start (unknown task, no scorer named so): exit 2."""


class Plan:
    """Everything a row needs, fixed before the first row runs (a child inherits it by fork)."""

    def __init__(self, path: str, source: str, task: str, params: dict[str, dict[str, str | None]],
                 scorers: list[str], options: dict, row_seconds: float, traces: str, results_dir: str,
                 audit=None):
        self.path = path
        self.source = source
        self.task = task
        self.params = params            # task name → {parameter: declared type or None}
        self.scorers = scorers
        self.options = options          # Runtime keyword arguments (ceiling, labels, …) without audit
        self.row_seconds = row_seconds
        self.traces = traces            # the folder of the rows' trace files
        self.results_dir = results_dir
        self.audit = audit              # the eval's audit log (runtime.audit.Audit) or None
        self.memory = None              # each row's memory limit in bytes (runtime.resources) or None


def program_tasks(source: str, path: str) -> dict[str, dict[str, str | None]]:
    """The program's top-level tasks and their parameters, read without running it."""
    from synsema.lang import ast
    from synsema.lang.parser import parse
    module = parse(source, path)
    return {node.name: {p.name: p.type for p in node.params}
            for node in module.body if type(node) is ast.TaskDef}


def choose(tasks: dict, task: str | None, scores: list[str]) -> tuple[str, list[str]]:
    """(the task, the scorers): --task, else the program's only task that is not a scorer;
    --score TASK… , else every `score_*` task."""
    scorers = scores or sorted(name for name in tasks if name.startswith("score_"))
    for name in scorers:
        if name not in tasks:
            raise EvalUsageError(f"--score {name}: the program has no task named {name}")
    if task is None:
        candidates = [name for name in tasks if name not in scorers]
        if len(candidates) != 1:
            listed = ", ".join(candidates) or "none"
            raise EvalUsageError(f"name the task to run with --task NAME (the program's tasks: {listed})")
        task = candidates[0]
    if task not in tasks:
        raise EvalUsageError(f"--task {task}: the program has no top-level task named {task} "
                             f"(its tasks: {', '.join(tasks) or 'none'})")
    return task, [name for name in scorers if name != task]


# ---------------------------------------------------------------------- one row (in the child)
def run_row(plan: Plan, row: Row, spent: int) -> dict:
    """The RESULTS line of one row; never raises."""
    started = time.monotonic()
    trace_file = trace_path(plan, row.id)
    result = {"row": row.id, "arguments": row.fields, "output": None, "scores": {}, "error": None,
              "tokens": {"input": 0, "output": 0}, "duration": 0.0,
              "trace": os.path.relpath(trace_file, plan.results_dir)}
    audit_records: list[dict] = []
    if row.problem is not None:
        result["error"] = {"kind": "malformed_row", "message": row.problem}
        result["trace"] = None
    else:
        from synsema.runtime import trace
        from synsema.runtime.llm import session
        session.current().used = spent   # the eval's one budget (module docstring)
        try:
            trace.start(trace_file, plan.path)
        except trace.TraceSetupError as problem:
            result["error"] = {"kind": "internal", "message": str(problem)}
        else:
            try:
                _run_task(plan, row, result, audit_records)
            finally:
                trace.stop()
            result["tokens"] = _tokens(trace_file)
    result["duration"] = round(time.monotonic() - started, 6)
    result["audit"] = audit_records
    return result


def _run_task(plan: Plan, row: Row, result: dict, audit_records: list) -> None:
    from synsema.runtime import trace
    from synsema.runtime.audit import Audit
    from synsema.runtime.interp import Runtime
    printed: list[str] = []
    audit = Audit.collecting() if plan.audit is not None else None
    rt = Runtime(mode="run", argv=[], out=printed.append, err=printed.append, audit=audit, **plan.options)
    if trace.enabled():
        trace.current_tracer().labels = rt.labels
    attrs = {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": os.path.basename(plan.path),
             "synsema.file": plan.path, "synsema.row": row.id, "synsema.labels": rt.labels is not None}
    with trace.span("invoke_agent", f"invoke_agent {plan.task} row {row.id}", attrs) as span:
        try:
            _program_then_task(plan, row, rt, result)
        finally:
            if result["error"] is not None:
                span.fail(result["error"]["message"])
                if result["error"]["kind"] == "label_violation":
                    span.event("label.violation", {"synsema.row": row.id})
    if audit is not None:
        rt.caps.finish(1 if result["error"] else 0)
        audit_records += [record for record in audit.records if "capability" in record or "limit" in record]


def _program_then_task(plan: Plan, row: Row, rt, result: dict) -> None:
    from synsema.lang.errors import SynError
    from synsema.runtime.cli import execute
    errors: list = []
    if execute(rt, plan.source, plan.path, errors) != 0 or errors:
        result["error"] = _error_of(errors[0] if errors else "the program's top level called exit", "program")
        return
    task = rt.globals.get(plan.task)
    declared = plan.params[plan.task]
    fields = typed_cells(row.fields, {**{n: t for s in plan.scorers for n, t in plan.params[s].items()}, **declared})
    result["arguments"] = fields
    scorer_fields = {name for scorer in plan.scorers for name in plan.params[scorer]}
    unknown = [name for name in fields if name not in declared and name not in scorer_fields]
    if unknown:
        result["error"] = {"kind": "rejected", "message": f"the row has a field '{unknown[0]}' that neither task "
                                                          f"{plan.task} nor a scorer declares"}
        return
    from synsema.stdlib.tools import _checked_args
    arguments = {name: value for name, value in fields.items() if name in declared}
    try:
        _checked_args(task, arguments, "eval")
    except SynError as problem:
        result["error"] = {"kind": "rejected", "message": problem.message}
        return
    try:
        value = _called(rt, task, arguments)
        result["output"] = _shown(value)
        for name in plan.scorers:
            wanted = {key: fields[key] for key in plan.params[name] if key in fields}
            if "output" in plan.params[name]:
                wanted["output"] = value
            score = _plain(_called(rt, rt.globals.get(name), wanted))
            if type(score) is not bool and type(score) not in (int, float):
                result["error"] = {"kind": "scorer", "message": f"scorer {name} gave {_shown(score)}; a scorer "
                                                                "gives a number or a bool"}
                return
            result["scores"][name] = score
    except _RowFailed as failed:
        result["error"] = failed.error


class _RowFailed(Exception):
    def __init__(self, error: dict):
        self.error = error


def _called(rt, task, arguments: dict):
    """`call_tool(task, arguments)` as a tool call runs; a failure as the row's error."""
    from synsema.lang.errors import SynError
    from synsema.runtime.calls import REG
    from synsema.runtime.control import ExitProgram, StopLoop
    from synsema.runtime.labels import EMPTY
    from synsema.stdlib.tools import call_tool
    REG.depth = 0
    if rt.labels is not None:
        rt.labels.pc = rt.labels.give_taint = EMPTY
    try:
        return call_tool(rt, task, arguments)
    except SynError as problem:
        raise _RowFailed(_error_of(problem, "runtime")) from None
    except ExitProgram as done:
        raise _RowFailed({"kind": "runtime", "message": f"task {task.name} called exit({done.code})"}) from None
    except StopLoop:
        raise _RowFailed({"kind": "runtime", "message": "stop used outside a loop"}) from None
    except RecursionError:
        raise _RowFailed({"kind": "runtime", "message": "maximum recursion depth exceeded"}) from None


def _error_of(problem, kind: str) -> dict:
    if type(problem) is str:
        return {"kind": "internal" if problem.startswith("Internal error") else kind, "message": problem}
    if getattr(problem, "violation", False):
        kind = "label_violation"
    return {"kind": kind, "message": problem.report()}


def _plain(value):
    """A score without its labels: a score is public data, so a private one is refused."""
    from synsema.runtime.labels import deep_labels
    if deep_labels(value):
        raise _RowFailed({"kind": "label_violation", "message": "a scorer's result is private; a score is "
                                                                "written to RESULTS, a public sink"})
    return value


def _shown(value) -> str:
    from synsema.runtime.trace import shown
    return shown(value)


def _tokens(trace_file: str) -> dict:
    """The row's tokens, summed from its chat spans' GenAI usage attributes."""
    tokens = {"input": 0, "output": 0}
    try:
        with open(trace_file, encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                attrs = record.get("attrs") or {}
                if record.get("type") == "span_end":
                    tokens["input"] += attrs.get("gen_ai.usage.input_tokens", 0) or 0
                    tokens["output"] += attrs.get("gen_ai.usage.output_tokens", 0) or 0
    except (OSError, ValueError):
        pass
    return tokens


def trace_path(plan: Plan, row_id: str) -> str:
    """The row's trace file: row-ID.jsonl, the id made safe as a file name (with a digest of
    the id when it had to change, so two ids never share a file)."""
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", row_id)[:80]
    if safe != row_id:
        import hashlib
        safe += "-" + hashlib.sha256(row_id.encode("utf-8")).hexdigest()[:12]
    return os.path.join(plan.traces, f"row-{safe}.jsonl")


# ---------------------------------------------------------------------- RESULTS
class ResultsFile:
    """RESULTS opened for appending whole lines; `done` the row ids already in it."""

    def __init__(self, path: str, resume: bool):
        self.path = path
        self.done: dict[str, dict] = {}
        if resume and os.path.exists(path):
            self._drop_torn_line()
            with open(path, encoding="utf-8") as handle:
                for line in handle:
                    try:
                        record = json.loads(line)
                    except ValueError:
                        continue
                    if type(record) is dict and "row" in record:
                        self.done[str(record["row"])] = record
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | (0 if resume else os.O_TRUNC)
        self._fd = os.open(path, flags, 0o644)

    def _drop_torn_line(self) -> None:
        """A run killed in mid-write leaves a last line without its newline: it is cut off."""
        with open(self.path, "rb+") as handle:
            data = handle.read()
            if data and not data.endswith(b"\n"):
                handle.truncate(data.rfind(b"\n") + 1)

    def append(self, record: dict) -> None:
        line = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
        os.write(self._fd, line)
        os.fsync(self._fd)

    def close(self) -> None:
        os.close(self._fd)


# ---------------------------------------------------------------------- the local engine
class _Child:
    __slots__ = ("pid", "fd", "row", "deadline", "data")

    def __init__(self, pid: int, fd: int, row: Row, deadline: float):
        self.pid, self.fd, self.row, self.deadline, self.data = pid, fd, row, deadline, b""


def run_local(plan: Plan, rows: list[Row], workers: int, on_result) -> None:
    """Each row in a forked child, at most `workers` at once; `on_result(record)` for each as it
    finishes (in the parent, in finishing order); `on_result.spent` is the tokens used so far."""
    waiting = list(rows)
    running: dict[int, _Child] = {}
    try:
        while waiting or running:
            while waiting and len(running) < workers:
                child = _fork_row(plan, waiting.pop(0), on_result.spent)
                running[child.fd] = child
            now = time.monotonic()
            timeout = max(0.0, min(child.deadline for child in running.values()) - now)
            ready, _, _ = select.select(list(running), [], [], timeout)
            for fd in ready:
                child = running[fd]
                chunk = os.read(fd, 1 << 20)
                if chunk:
                    child.data += chunk
                    continue
                del running[fd]
                on_result(_collect(child, plan))
            now = time.monotonic()
            for fd, child in list(running.items()):
                if now >= child.deadline:
                    del running[fd]
                    _stop(child)
                    on_result(failed_record(child.row, plan, "time_limit", time_limit_message(plan)))
    finally:
        for child in running.values():
            _stop(child)


def _fork_row(plan: Plan, row: Row, spent: int) -> _Child:
    read_end, write_end = os.pipe()
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child: run the row, send its line, leave without the parent's cleanups
        code = 0
        try:
            os.close(read_end)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            from synsema.runtime.cli import on_big_stack
            record = on_big_stack(lambda: run_row(plan, row, spent))
            data = json.dumps(record, ensure_ascii=False).encode("utf-8")
            view = memoryview(data)
            while view:
                view = view[os.write(write_end, view):]
        except BaseException:
            code = 70
        finally:
            os._exit(code)
    os.close(write_end)
    return _Child(pid, read_end, row, started + plan.row_seconds)


def _collect(child: _Child, plan: Plan) -> dict:
    os.close(child.fd)
    _, status = os.waitpid(child.pid, 0)
    try:
        return json.loads(child.data)
    except ValueError:
        how = f"signal {-os.waitstatus_to_exitcode(status)}" if os.WIFSIGNALED(status) else \
            f"exit status {os.waitstatus_to_exitcode(status)}"
        return failed_record(child.row, plan, "crashed", f"the row's process ended ({how}) before it gave a result"
                                                   " (out of memory, or a bug in synsema)")


def _stop(child: _Child) -> None:
    try:
        os.kill(child.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.waitpid(child.pid, 0)
    os.close(child.fd)


def time_limit_message(plan: Plan) -> str:
    return f"the row ran past its time limit of {plan.row_seconds:g} s and was stopped"


def failed_record(row: Row, plan: Plan, kind: str, message: str) -> dict:
    """The RESULTS line of a row whose process gave none (stopped, crashed)."""
    trace_file = trace_path(plan, row.id)
    return {"row": row.id, "arguments": row.fields, "output": None, "scores": {},
            "error": {"kind": kind, "message": message}, "tokens": _tokens(trace_file),
            "duration": plan.row_seconds if kind == "time_limit" else 0.0,
            "trace": os.path.relpath(trace_file, plan.results_dir) if os.path.exists(trace_file) else None}


# ---------------------------------------------------------------------- the summary
def summary(records: list[dict]) -> list[str]:
    """The closing lines: rows, passed/failed/errored, each score's mean, tokens, p50/p95."""
    errored = [r for r in records if r.get("error")]
    scored = [r for r in records if not r.get("error")]
    failed = [r for r in scored if any(v is False or (type(v) in (int, float) and v == 0)
                                       for v in (r.get("scores") or {}).values())]
    lines = [f"{len(records)} rows: {len(scored) - len(failed)} passed, {len(failed)} failed, "
             f"{len(errored)} errored"]
    names = sorted({name for r in scored for name in (r.get("scores") or {})})
    for name in names:
        values = [float(r["scores"][name]) for r in scored if name in (r.get("scores") or {})]
        lines.append(f"score {name}: mean {sum(values) / len(values):.4g} over {len(values)} rows")
    tokens_in = sum((r.get("tokens") or {}).get("input", 0) for r in records)
    tokens_out = sum((r.get("tokens") or {}).get("output", 0) for r in records)
    lines.append(f"tokens: {tokens_in} input, {tokens_out} output")
    durations = sorted(float(r.get("duration") or 0) for r in records)
    if durations:
        lines.append(f"duration per row: p50 {_quantile(durations, 0.5):.3f} s, "
                     f"p95 {_quantile(durations, 0.95):.3f} s")
    return lines


def _quantile(ordered: list[float], q: float) -> float:
    """The nearest-rank quantile."""
    import math
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]



# ---------------------------------------------------------------------- the command
class Eval:
    """One `synsema eval`: the rows still to run, RESULTS, the progress line and the audit."""

    def __init__(self, plan: Plan, results: ResultsFile, total: int):
        self.plan = plan
        self.results = results
        self.records = list(results.done.values())
        self.total = total
        self.spent = sum(sum((r.get("tokens") or {}).values()) for r in self.records)
        self.progress = sys.stderr.isatty()

    def __call__(self, record: dict) -> None:
        audit = record.pop("audit", None) or []
        if self.plan.audit is not None:
            for entry in audit:
                self.plan.audit.add_row_record(entry, record["row"])
        self.results.append(record)
        self.records.append(record)
        self.spent += sum((record.get("tokens") or {}).values())
        if self.progress:
            errored = sum(1 for r in self.records if r.get("error"))
            sys.stderr.write(f"\r\x1b[Keval: {len(self.records)}/{self.total} rows, {errored} errored")
            sys.stderr.flush()

    def finish(self) -> int:
        if self.progress:
            sys.stderr.write("\r\x1b[K")
        for line in summary(self.records):
            sys.stdout.write(line + "\n")
        errored = sum(1 for r in self.records if r.get("error"))
        if errored:
            sys.stderr.write(f"eval: {errored} of {len(self.records)} rows errored (see {self.results.path})\n")
        return 1 if errored else 0


def _warm(plan: Plan) -> None:
    """Load in the parent what every row needs (the builtin table, the compiler, call_tool), so
    each forked row starts with it instead of loading it again."""
    from synsema.lang.gcpause import hold
    from synsema.runtime.cli import execute  # noqa: F401 (loaded for the children)
    from synsema.runtime.interp import Runtime, builtin_globals
    from synsema.stdlib.tools import call_tool  # noqa: F401
    builtin_globals()
    if plan.options.get("labels"):
        from synsema.runtime.label_compiler import LabelCompiler  # noqa: F401
    Runtime(mode="run", out=lambda text: None, **plan.options).compile(plan.source, plan.path, builtin_globals())
    hold()   # the children share these pages instead of copying them at their first collection


def command(host, path: str, data: str, task: str | None, scores: list[str], workers: int, out: str,
            resume: bool, limit: int | None, engine: str, ray_address: str | None = None) -> int:
    """The whole `synsema eval` once its flags are read (runtime.cli.cmd_eval); a usage problem
    raises EvalUsageError."""
    from synsema.lang.errors import SynError
    from synsema.runtime import resources
    from synsema.runtime.eval_data import DataError, read_rows
    try:
        with open(path, encoding="utf-8") as handle:
            source = handle.read()
    except (OSError, UnicodeDecodeError) as problem:
        raise EvalUsageError(f"cannot read {path}: {getattr(problem, 'strerror', None) or 'it is not UTF-8 text'}") \
            from None
    try:
        tasks = program_tasks(source, path)
    except SynError as problem:
        raise EvalUsageError(f"{path} does not parse: {problem.report()}") from None
    chosen, scorers = choose(tasks, task, scores)
    if engine == "ray":
        from synsema.runtime.extras import need
        need("ray", "synsema eval --engine ray")   # before RESULTS is touched
    try:
        rows = read_rows(data)
    except DataError as problem:
        raise EvalUsageError(str(problem)) from None
    if limit is not None:
        rows = rows[:limit]
    try:
        seconds, memory = resources.resolve(host.time_limit, host.memory_limit)
    except resources.LimitSpecError as problem:
        raise EvalUsageError(str(problem)) from None
    options = host.runtime_options()
    audit = options.pop("audit")
    results_dir = os.path.dirname(os.path.abspath(out))
    traces = os.path.abspath(out) + ".traces"
    plan = Plan(path, source, chosen, tasks, scorers, options, seconds or DEFAULT_ROW_SECONDS, traces,
                results_dir, audit)
    plan.memory = memory
    _warm(plan)
    if engine == "ray":   # connected before RESULTS is touched, and before the memory limit
        from synsema.runtime import eval_ray
        try:
            eval_ray.connect(ray_address)
        except eval_ray.RayUnavailable as problem:
            host.end_audit(2)
            raise EvalUsageError(str(problem)) from None
    try:
        os.makedirs(traces, exist_ok=True)
        results = ResultsFile(out, resume)
    except OSError as problem:
        host.end_audit(2)
        raise EvalUsageError(f"--out {out}: cannot write it: {problem.strerror}") from None
    pending = [row for row in rows if row.id not in results.done]
    progress = Eval(plan, results, len(rows))
    resources.apply_memory_limit(memory)   # inherited by every row's process
    try:
        if engine == "ray":
            from synsema.runtime.eval_ray import run_ray
            run_ray(plan, pending, workers, progress)
        else:
            run_local(plan, pending, workers, progress)
    finally:
        results.close()
    code = progress.finish()
    host.end_audit(code)
    return code
