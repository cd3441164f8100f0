"""`python -m labels.nifuzz [--seed S] [-n N] [--jobs J]`: a campaign (tests/ on PYTHONPATH);
`… show SEED [--avoid-known]`: one generated program, its two secrets and what each run showed;
`… worker …`: the campaign's own worker process."""

from __future__ import annotations

import argparse
import random
import signal
import sys

from .campaign import run_campaign, worker_main
from .generator import KNOWN_LEAKS


def main(argv: list[str]) -> int:
    if argv[:1] == ["worker"]:
        return worker_main(argv[1:])
    if argv[:1] == ["show"]:
        return show(int(argv[1]), KNOWN_LEAKS if "--avoid-known" in argv else frozenset())
    parser = argparse.ArgumentParser(prog="python -m labels.nifuzz",
                                     description="noninterference fuzzing of synsema run --labels")
    parser.add_argument("--seed", type=int, default=None, help="campaign seed (default: random, printed)")
    parser.add_argument("-n", type=int, default=1000, help="programs to generate and judge")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--minimise", type=int, default=30, help="violations to minimise per worker")
    parser.add_argument("--avoid-known", action="store_true",
                        help="leave out the constructs of the leak classes still open (generator.KNOWN_LEAKS)")
    parser.add_argument("--control-every", type=int, default=1, metavar="K",
                        help="run the control (secret unlabelled) for every K-th program only")
    parser.add_argument("--no-confirm", action="store_true",
                        help="do not re-run violations with the real command in a subprocess")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(1, 2 ** 31)
    avoid = KNOWN_LEAKS if args.avoid_known else frozenset()
    # SIGINT or SIGTERM (a background campaign ignores SIGINT) ends it early with its report.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    print(f"nifuzz: campaign seed {seed}, {args.n} programs, {args.jobs} worker(s)", flush=True)
    summary = run_campaign(seed, args.n, args.jobs, args.minimise, not args.no_confirm, avoid,
                           args.control_every, progress=lambda text: print(text, flush=True))
    sys.stdout.write(summary.report())
    return 1 if summary.problems() else 0


def show(seed: int, avoid: frozenset) -> int:
    from .generator import generate, secrets
    from .oracle import judge
    program = generate(seed, avoid)
    pair = secrets(seed)
    verdict = judge(program, seed, pair)
    print(program.source(), end="")
    for secret, seen in zip(pair, (verdict.labelled.first, verdict.labelled.second)):
        print(f"== --labels, secret {secret}: {seen.outcome}")
        print(seen.shown(), end="")
    print(f"== control differs in: {verdict.control.differs}; violation in: {verdict.labelled.leaked}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
