"""A smoke test at a real terminal: `synsema repl` inside tmux, keys typed, the screen read back.

It needs the tmux program; where it is missing and cannot be installed (CI without apt) the test is
skipped, saying so.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import time

import pytest

from .conftest import repl_env


def _tmux() -> str | None:
    found = shutil.which("tmux")
    if found is None and shutil.which("apt-get") is not None:
        subprocess.run(["apt-get", "install", "-y", "tmux"], capture_output=True, timeout=300)
        found = shutil.which("tmux")
    return found


class Screen:
    """One tmux server of our own (its own socket), running one command in an 100×40 window."""

    def __init__(self, tmux: str, socket: str, command: str):
        self.tmux = [tmux, "-S", socket]
        subprocess.run([*self.tmux, "new-session", "-d", "-s", "repl", "-x", "100", "-y", "40", command],
                       check=True, timeout=30)

    def keys(self, *keys: str) -> None:
        for key in keys:
            subprocess.run([*self.tmux, "send-keys", "-t", "repl", key], check=True, timeout=30)
            time.sleep(0.2)

    def text(self) -> str:
        return subprocess.run([*self.tmux, "capture-pane", "-p", "-t", "repl"], check=True, timeout=30,
                              capture_output=True, text=True).stdout

    def wait_for(self, fragment: str, count: int = 1) -> str:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            screen = self.text()
            if screen.count(fragment) >= count:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{fragment!r} (×{count}) never appeared on the screen:\n{self.text()}")

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], capture_output=True, timeout=30)


@pytest.fixture
def screen(tmp_path):
    tmux = _tmux()
    if tmux is None:
        pytest.skip("tmux is not installed and could not be installed with apt-get")
    env = repl_env(tmp_path / "data")
    settings = " ".join(f"{name}={shlex.quote(env[name])}"
                        for name in ("PYTHONPATH", "XDG_DATA_HOME", "SYNSEMA_LLM_PROVIDER"))
    command = (f"cd {shlex.quote(str(tmp_path))} && env {settings} TERM=xterm-256color "
               f"{shlex.quote(sys.executable)} -m synsema repl; echo EXITED $?; sleep 60")
    opened = Screen(tmux, str(tmp_path / "tmux.sock"), command)
    yield opened
    opened.close()


def test_a_block_history_recall_and_ctrl_c_at_a_real_terminal(screen, tmp_path):
    screen.wait_for("syn>")  # (the screen is read without trailing spaces)
    screen.keys("task twice(n)", "Enter", "give n * 2", "Enter", "Enter")
    screen.keys("twice(21)", "Enter")
    first = screen.wait_for("\n42\n")
    assert "syn> task twice(n)\n...      give n * 2\n" in first  # the block was indented for us
    screen.keys("Up", "Enter")                  # the previous entry, recalled
    screen.wait_for("\n42\n", count=2)
    screen.keys("let velocity be 3", "Enter", "velo", "Tab", " + 1", "Enter")
    screen.wait_for("syn> velocity + 1\n4\n")
    screen.keys("nope", "Enter")
    screen.wait_for("Runtime error: <repl>:1:1: Undefined variable: 'nope'")
    screen.keys("while true", "Enter", "let spin be 1", "Enter", "Enter")
    time.sleep(1)
    screen.keys("C-c")                          # interrupts the running loop, not the session
    screen.wait_for("Interrupted")
    screen.keys("C-r", "twi", "Enter", "Enter")  # search the history
    screen.wait_for("\n42\n", count=3)
    screen.keys("C-d")
    final = screen.wait_for("EXITED 0")
    assert "Traceback" not in final
    history = (tmp_path / "data" / "synsema" / "repl_history").read_text(encoding="utf-8")
    assert '"task twice(n)\\n    give n * 2"' in history.splitlines()
