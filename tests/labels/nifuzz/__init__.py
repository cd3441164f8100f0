"""The randomized noninterference tester for `--labels` (issue 24): a seeded generator of
Synsema programs that read a secret, a harness that runs each with two secrets, an oracle that
calls any public difference a violation, and a minimiser. `python -m labels.nifuzz --help`
(with tests/ on PYTHONPATH, as `make fuzz-labels` runs it)."""
