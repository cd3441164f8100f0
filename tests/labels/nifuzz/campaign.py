"""A campaign: many generated programs, each judged with two secrets, in worker processes.

Each worker is a fresh Python process that runs its share of the programs in-process (see
harness.py) and writes one JSON line per program. A violation is minimised in the worker and
confirmed with the real `synsema` command in a subprocess before it is reported. A worker that
writes nothing for PROGRAM_SECONDS is stuck in a program: the driver ends it, records that
program as a timeout and starts a new worker at the next one.

Program `i` of campaign seed `S` is generated from seed `S * 1_000_000 + i`: that one number
reproduces it (`python -m labels.nifuzz show SEED`).
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .generator import generate, secrets
from .harness import run_subprocess
from .oracle import judge, minimise, run_pair

TESTS = Path(__file__).resolve().parents[2]
CONTROL_GOAL = 0.30     # share of programs whose control pair must differ
RAN_GOAL = 0.80         # share of programs that must parse and run
PROGRAM_SECONDS = 300   # no program (with its minimising) may keep a worker silent longer
RECYCLE = 1000          # programs per worker process: a long-lived one ran out of threads


def program_seed(seed: int, index: int) -> int:
    return seed * 1_000_000 + index


# ---------------------------------------------------------------------- one worker
def work(seed: int, start: int, stride: int, stop: int, minimise_limit: int, confirm: bool,
         avoid: frozenset, control_every: int, emit) -> None:
    """Judge programs start, start + stride, … below stop; `emit` gets one record each."""
    minimised = 0
    for index in range(start, stop, stride):
        try:
            record, minimised = _judged(seed, index, minimised, minimise_limit, confirm, avoid,
                                        index % control_every == 0)
        except Exception:   # a fault of the tester itself: say so, and go on
            record = {"index": index, "seed": program_seed(seed, index), "crash": True,
                      "ran": False, "crash_text": "the tester failed:\n" + traceback.format_exc(),
                      "source": generate(program_seed(seed, index), avoid).source()}
        emit(record)


def _judged(seed: int, index: int, minimised: int, minimise_limit: int, confirm: bool, avoid: frozenset,
            control: bool):
    ps = program_seed(seed, index)
    program = generate(ps, avoid)
    pair_secrets = secrets(ps)
    verdict = judge(program, ps, pair_secrets, control)
    leaked = verdict.labelled.leaked
    record = {"index": index, "seed": ps, "secrets": pair_secrets, "ran": verdict.ran,
              "outcomes": verdict.outcomes, "comparable": verdict.labelled.comparable,
              "leaked": leaked, "crash": verdict.crashed}
    if control:
        record["control_differs"] = bool(verdict.control.differs)
    if verdict.crashed:
        record["crash_text"] = next(r.stderr for r in verdict.runs if r.outcome == "crash")
        record["source"] = program.source()
    if leaked:
        small = program
        if minimised < minimise_limit:
            small = minimise(program, pair_secrets, leaked)
            minimised += 1
        record["source"] = program.source()
        record["minimised"] = small.source()
        pair = run_pair(small.source(), pair_secrets)
        record["shown"] = [pair.first.shown(), pair.second.shown()]
        record["minimised_leaked"] = pair.leaked
        if confirm:
            real = run_pair(small.source(), pair_secrets, run_subprocess)
            record["confirmed"] = bool(real.leaked)
    return record, minimised


def worker_main(argv: list[str]) -> int:
    seed, start, stride, stop, limit, confirm, control_every = (int(a) for a in argv[:7])
    stop = min(stop, start + stride * RECYCLE)   # then the driver starts a fresh worker
    avoid = frozenset(argv[7].split(",")) - {""}

    def emit(record):
        sys.stdout.write(json.dumps(record) + "\n")
        sys.stdout.flush()
    try:
        work(seed, start, stride, stop, limit, bool(confirm), avoid, control_every, emit)
    except (BrokenPipeError, KeyboardInterrupt):   # the driver went away, or Ctrl-C: stop quietly
        os._exit(0)
    return 0


# ---------------------------------------------------------------------- the driver
@dataclass
class Summary:
    seed: int
    requested: int
    avoid: frozenset = frozenset()
    records: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def programs(self) -> int:
        return len(self.records)

    def count(self, key) -> int:
        return sum(1 for r in self.records if r.get(key))

    def count_judged(self, key) -> int:
        return sum(1 for r in self.records if key in r)

    @property
    def violations(self) -> list[dict]:
        return [r for r in self.records if r.get("leaked")]

    @property
    def real_violations(self) -> list[dict]:
        """Violations the real command confirmed (or all of them when not confirming)."""
        return [r for r in self.violations if r.get("confirmed", True)]

    def rate(self, key) -> float:
        """The share of the programs that have `key` set (of those judged for it)."""
        judged = sum(1 for r in self.records if key in r)
        return self.count(key) / judged if judged else 0.0

    def problems(self) -> list[str]:
        out = []
        if self.programs < self.requested:
            out.append(f"only {self.programs} of {self.requested} programs were judged")
        if self.real_violations:
            out.append(f"{len(self.real_violations)} noninterference violations")
        if self.count("crash"):
            out.append(f"{self.count('crash')} programs made the interpreter crash")
        if self.count("timeout"):
            out.append(f"{self.count('timeout')} programs ran past the time limit")
        if self.count_judged("control_differs") and self.rate("control_differs") < CONTROL_GOAL:
            out.append(f"the control saw differences in only {self.rate('control_differs'):.0%} of pairs "
                       f"(at least {CONTROL_GOAL:.0%} needed): the generator is too weak")
        if self.programs and self.rate("ran") < RAN_GOAL:
            out.append(f"only {self.rate('ran'):.0%} of the programs parsed and ran "
                       f"(at least {RAN_GOAL:.0%} needed)")
        return out

    def report(self) -> str:
        outcomes = Counter(o for r in self.records for o in r.get("outcomes", ()))
        avoided = f" (leaving out the known leak classes {', '.join(sorted(self.avoid))})" if self.avoid else ""
        lines = [f"nifuzz: seed {self.seed}: {self.programs} programs in {self.seconds:.1f} s{avoided}",
                 f"  parsed and ran: {self.count('ran')} ({self.rate('ran'):.1%})",
                 f"  comparable pairs (both runs ended normally or with an ordinary error): "
                 f"{self.count('comparable')} ({self.rate('comparable'):.1%})",
                 f"  control (secret unlabelled) differed: {self.count('control_differs')} of "
                 f"{self.count_judged('control_differs')} ({self.rate('control_differs'):.1%})",
                 "  labelled runs ended: " + ", ".join(f"{k} {v}" for k, v in outcomes.most_common()),
                 f"  violations: {len(self.violations)} (confirmed by the real command: "
                 f"{len(self.real_violations)})"]
        for r in self.violations:
            lines += ["", f"== violation: program seed {r['seed']} (campaign seed {self.seed}, program "
                          f"{r['index']}), secrets {r['secrets'][0]} and {r['secrets'][1]}; differs in: "
                          f"{', '.join(r['leaked'])}; confirmed by the real command: {r.get('confirmed')}",
                      "-- minimised program:", r["minimised"].rstrip(),
                      f"-- run with {r['secrets'][0]}:", r["shown"][0].rstrip(),
                      f"-- run with {r['secrets'][1]}:", r["shown"][1].rstrip()]
        for r in self.records:
            if r.get("crash"):
                lines += ["", f"== crash: program seed {r['seed']}", r["crash_text"].rstrip(), r["source"].rstrip()]
            if r.get("timeout"):
                lines += ["", f"== time limit passed: program seed {r['seed']}"]
        problems = self.problems()
        lines += ["", "nifuzz: " + ("; ".join(problems) if problems else "no violation")]
        return "\n".join(lines) + "\n"


def _worker(seed, start, stride, stop, limit, confirm, avoid, control_every) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY") and not k.startswith("SYNSEMA_")}
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), str(TESTS.parent)])
    return subprocess.Popen([sys.executable, "-m", "labels.nifuzz", "worker", str(seed), str(start),
                             str(stride), str(stop), str(limit), str(int(confirm)), str(control_every),
                             ",".join(sorted(avoid))],
                            stdout=subprocess.PIPE, text=True, env=env, cwd=str(TESTS.parent))


def run_campaign(seed: int, n: int, jobs: int = 1, minimise_limit: int = 30, confirm: bool = True,
                 avoid: frozenset = frozenset(), control_every: int = 1, progress=None) -> Summary:
    """Judge programs 0 … n-1 of `seed` in `jobs` worker processes; the generator leaves out
    the constructs of the leak classes named in `avoid` (generator.KNOWN_LEAKS); the control runs
    for every `control_every`-th program (a long campaign samples it)."""
    summary = Summary(seed, n, avoid)
    began = time.monotonic()
    jobs = max(1, min(jobs, n))
    selector = selectors.DefaultSelector()
    expected: dict[int, int] = {}      # worker lane → the index it is judging now
    heard: dict[int, float] = {}

    def start(lane: int, index: int) -> None:
        if index >= n:
            return
        proc = _worker(seed, index, jobs, n, minimise_limit, confirm, avoid, control_every)
        selector.register(proc.stdout, selectors.EVENT_READ, (lane, proc))
        expected[lane], heard[lane] = index, time.monotonic()

    for lane in range(jobs):
        start(lane, lane)
    try:
        _drive(selector, summary, expected, heard, start, jobs, n, seed, avoid, began, progress)
    except KeyboardInterrupt:   # Ctrl-C ends a long campaign early: report what was judged
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        for key in list(selector.get_map().values()):
            key.data[1].kill()
            key.data[1].wait()
    summary.records.sort(key=lambda r: r["index"])
    summary.seconds = time.monotonic() - began
    return summary


def _drive(selector, summary, expected, heard, start, jobs, n, seed, avoid, began, progress) -> None:
    """Read the workers' records until every worker is done; restart one that died or hung."""
    while selector.get_map():
        for key, _ in selector.select(timeout=5):
            lane, proc = key.data
            line = proc.stdout.readline()
            if line:
                record = json.loads(line)
                summary.records.append(record)
                expected[lane], heard[lane] = record["index"] + jobs, time.monotonic()
                if progress and len(summary.records) % 1000 == 0:
                    progress(f"nifuzz: {len(summary.records)} programs, {len(summary.violations)} "
                             f"violations, {time.monotonic() - began:.0f} s")
                continue
            selector.unregister(proc.stdout)
            proc.wait()
            if expected[lane] >= n:
                continue
            if proc.returncode != 0:   # it died in a program: go on after it
                summary.records.append({"index": expected[lane], "seed": program_seed(seed, expected[lane]),
                                        "crash": True, "ran": False,
                                        "crash_text": f"worker exit {proc.returncode}",
                                        "source": generate(program_seed(seed, expected[lane]), avoid).source()})
                expected[lane] += jobs
            start(lane, expected[lane])   # a fresh worker for the rest of the lane
        for key in list(selector.get_map().values()):
            lane, proc = key.data
            if time.monotonic() - heard[lane] > PROGRAM_SECONDS:   # stuck: a runaway program
                selector.unregister(proc.stdout)
                proc.kill()
                proc.wait()
                summary.records.append({"index": expected[lane], "seed": program_seed(seed, expected[lane]),
                                        "timeout": True, "ran": False})
                start(lane, expected[lane] + jobs)
