"""The prompt-toolkit front end, driven through a pipe: keys in, the session's output out.

Keys are sent in small steps from the test while the prompt runs on its own thread, as in
`synsema repl`: completion and history loading run as background tasks of the prompt, and keys
that arrive all at once would be handled before those tasks finish.
"""

from __future__ import annotations

import threading
import time

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from synsema.lang.highlight import SynsemaLexer
from synsema.runtime.repl import HistoryFile, build_prompt, run_interactive

from .conftest import CapturedRepl

UP, CTRL_C, CTRL_D, CTRL_R, BACKSPACE = "\x1b[A", "\x03", "\x04", "\x12", "\x7f"


class Terminal:
    """A session at a (piped) prompt; `keys` types, `leave` ends with Ctrl-D and gives the exit status."""

    def __init__(self, history_path: str):
        self.repl = CapturedRepl()
        self.store = HistoryFile(history_path)
        self._pipe = create_pipe_input()
        self._input = self._pipe.__enter__()
        self._result: list[int] = []
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        self._result.append(run_interactive(self.repl.session, self.store, self._input, DummyOutput()))

    def keys(self, *steps: str) -> "Terminal":
        for step in steps:
            time.sleep(0.1)
            self._input.send_text(step)
        return self

    def wait_for(self, text: str, stream: str = "out") -> str:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            shown = "".join(getattr(self.repl, stream))
            if text in shown:
                return shown
            time.sleep(0.02)
        raise AssertionError(f"{text!r} never appeared on {stream}: {''.join(getattr(self.repl, stream))!r}")

    def leave(self, *steps: str) -> int:
        self.keys(*(steps or (CTRL_D,)))
        self._thread.join(10)
        self._pipe.__exit__(None, None, None)
        assert not self._thread.is_alive(), "the prompt did not end"
        return self._result[0]

    @property
    def out(self) -> str:
        return "".join(self.repl.out)

    @property
    def err(self) -> str:
        return "".join(self.repl.err)


@pytest.fixture
def history_path(tmp_path):
    return str(tmp_path / "data" / "synsema" / "repl_history")


def test_definitions_persist_and_blocks_take_several_lines(history_path):
    terminal = Terminal(history_path)
    # Enter after a header indents the next line; an empty line ends the block.
    terminal.keys("let base be 20\r", "task twice(n)\r", "give n * 2\r", "\r", "twice(base + 1)\r")
    terminal.wait_for("42\n")
    assert terminal.leave() == 0
    assert (terminal.out, terminal.err) == ("42\n", "")
    assert HistoryFile(history_path).load() == ["let base be 20", "task twice(n)\n    give n * 2",
                                                "twice(base + 1)"]


def test_an_error_then_a_correct_line(history_path):
    terminal = Terminal(history_path)
    terminal.keys("let x be nope + 1\r")
    terminal.wait_for("Undefined variable: 'nope'", "err")
    terminal.keys("let x be 1 + 1\r", "x\r")
    terminal.wait_for("2\n")
    assert terminal.leave() == 0
    assert terminal.err == ("Runtime error: <repl>:1:10: Undefined variable: 'nope'\n"
                            "  1 | let x be nope + 1\n"
                            "    |          ^^^^\n")


def test_history_is_recalled_in_a_later_session_with_up_and_ctrl_r(history_path):
    first = Terminal(history_path)
    first.keys("6 * 7\r", '"other"\r')
    first.wait_for('"other"')
    assert first.leave() == 0
    second = Terminal(history_path)
    second.keys(UP, UP, "\r")            # two entries back: 6 * 7
    second.wait_for("42\n")
    second.keys(CTRL_R, "oth", "\r", "\r")  # search accepted, then submitted
    second.wait_for('"other"\n')
    assert second.leave() == 0
    assert second.out == '42\n"other"\n'


def test_ctrl_c_cancels_the_entry_being_typed(history_path):
    terminal = Terminal(history_path)
    terminal.keys("task half_typed(", "\r", CTRL_C, "2 + 2\r")
    terminal.wait_for("4\n")
    assert terminal.leave() == 0
    assert (terminal.out, terminal.err) == ("4\n", "")
    assert HistoryFile(history_path).load() == ["2 + 2"]


def test_tab_completes_defined_names_and_builtins(history_path):
    terminal = Terminal(history_path)
    terminal.keys("let velocity be 3\r", "velo", "\t", " + 1\r")
    terminal.wait_for("4\n")
    terminal.keys("upp", "\t", '("ok")\r')
    terminal.wait_for('"OK"\n')
    assert terminal.leave() == 0
    assert HistoryFile(history_path).load()[1:] == ["velocity + 1", 'upper("ok")']


def test_tab_indents_and_backspace_dedents_in_the_indentation(history_path):
    terminal = Terminal(history_path)
    terminal.keys("when true\r", "print(1)\r", BACKSPACE, "print(2)\r", "\r")
    terminal.wait_for("2\n")
    terminal.keys("\t", BACKSPACE, "3\r")  # Tab in the indentation is four spaces; backspace takes them back
    terminal.wait_for("3\n")
    assert terminal.leave() == 0
    assert terminal.out == "1\n2\n3\n"
    assert HistoryFile(history_path).load()[0] == "when true\n    print(1)\nprint(2)"


def test_exit_and_quit_end_the_prompt(history_path):
    assert Terminal(history_path).leave("exit(4)\r") == 4
    assert Terminal(history_path).leave(":q\r") == 0


def test_the_completer_and_highlighter_are_wired(history_path):
    repl = CapturedRepl()
    repl.enter("let velocity be 1")
    prompt = build_prompt(repl.session, HistoryFile(history_path), output=DummyOutput())
    offered = lambda text: [c.text for c in prompt.completer.get_completions(Document(text), CompleteEvent())]
    assert offered("print(velo") == ["velocity"]
    assert "length" in offered("len")
    assert prompt.lexer.pygments_lexer_cls is SynsemaLexer


def test_a_history_that_cannot_be_saved_is_one_note(tmp_path):
    (tmp_path / "blocker").write_text("")
    terminal = Terminal(str(tmp_path / "blocker" / "repl_history"))
    terminal.keys("1\r", "2\r")
    terminal.wait_for("2\n")
    assert terminal.leave() == 0
    assert terminal.err.count("note: history is not saved") == 1
