"""Non-error control flow that must cross Python frames.

`give` and `stop` inside one task body travel as returned sentinels (see `runtime.compiler`);
only the cases that leave a task's own code become exceptions: `exit(code)`, which ends the
program from any depth, a `stop` whose task has no loop of its own, which breaks the
caller's loop, and `skip(reason)`, which ends the running test. All derive from BaseException
so `try`/`recover` (which catches SynError) and stray `except Exception` clauses never swallow
them.

A reader that goes away (`synsema … | head -1`) also ends the run quietly, with
BROKEN_PIPE_EXIT, the status a shell reports for a tool killed by SIGPIPE.
"""

import os

BROKEN_PIPE_EXIT = 141


class ExitProgram(BaseException):
    """`exit(code)`: end the run with this exit status."""

    def __init__(self, code: int = 0):
        super().__init__(code)
        self.code = code


class StopLoop(BaseException):
    """A `stop` that left its task: the nearest enclosing loop of a caller ends."""

    def __init__(self, value=None):
        super().__init__()
        self.value = value


class SkipTest(BaseException):
    """`skip(reason)` inside a test: the test ends here and is reported as skipped, not failed.
    A BaseException like the others, so `recover` and `assert_error` never absorb it."""

    def __init__(self, reason: str = ""):
        super().__init__(reason)
        self.reason = reason


def quiet_broken_pipe(stream) -> ExitProgram:
    """Point the broken `stream` at /dev/null (so Python's exit-time flush stays silent) and
    give back the ExitProgram that ends the run with BROKEN_PIPE_EXIT."""
    try:
        fd = stream.fileno()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
    return ExitProgram(BROKEN_PIPE_EXIT)
