"""Where a command's project file is: the first `synsema.toml` in the directory its paths have
in common, or in a directory above it (runtime.project describes the file).

Apart from runtime.project so that a command with no project file (most runs) does not compile
the settings table and the file's reader (start-up without `.pyc` files, issue 31).
"""

from __future__ import annotations

import os

FILE_NAME = "synsema.toml"


def find(start: str) -> str | None:
    """The first synsema.toml in `start` or a directory above it."""
    here = os.path.abspath(start)
    while True:
        candidate = os.path.join(here, FILE_NAME)
        if os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def start_directory(paths: list[str]) -> str:
    """Where the search starts: the deepest directory every path lies in (pytest's rule)."""
    places = [os.path.abspath(p if os.path.isdir(p) else os.path.dirname(p) or ".")
              for p in paths if p != "-"]
    return os.path.commonpath(places) if places else os.getcwd()
