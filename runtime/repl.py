"""`synsema repl`: an interactive session whose definitions outlive the line that made them.

An *entry* is what the user submits: one line, or several when a line opens a block or leaves a
bracket or a backtick template open. Each entry is compiled as a small program against the
session's one global dictionary (`rt.globals`), so `let`, `task`, `type`, `enum` and `use`
stay for later entries, and top-level `require` grants stay for the session. When an entry ends
in an expression statement its value is echoed the way it would look inside a list (text
quoted, like Python's repr), unless it is `nothing`. Errors are printed in the language's own
format and never end the session, and neither does a Python exception (an internal error line,
never a traceback): only `:quit`, Ctrl-D on an empty line, end of input or `exit(n)` do.

How a session ends sets the exit status: `exit(n)` gives n. At a terminal, leaving gives 0, as
Python's interactive prompt does. From a pipe or a file (`synsema repl < script`), the session
goes on after an error, as at a terminal, so every entry's output and every error appear; but it
then ends with status 1 (at end of input or `:quit`), so a script feeding the REPL can tell that
something failed — CPython's `python < file` gives 1 too (it stops at the first error instead).
An interrupted entry (Ctrl-C) is not a failure.

There are two front ends over one `Session`: prompt-toolkit at a terminal (history, completion,
highlighting; imported only then, so `synsema run` never pays for it), and a plain line loop
when stdin is not a terminal, with the same entries and output but no prompt and no history.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import sys
import threading

FILE = "<repl>"
PROMPT = "syn> "
CONTINUATION = "...  "
INDENT = "    "
HISTORY_LIMIT = 10_000

# The parse error of a block header whose block has not been typed yet, and the lexer's words
# for an open bracket or template at the end of the text: both mean "keep reading".
NEEDS_BLOCK = "Expected indented block"
AT_END = "(reached end of file)"
# Line-leading words that only ever open a block, though they cannot be parsed on their own.
CLAUSE_HEADERS = frozenset({"otherwise", "recover", "is"})

# What `handle` returns for `:quit`: the session ends as at end of input (see the module
# docstring). Never a status `exit(n)` can ask for, which is 0 to 255.
QUIT = -1

COMMANDS = {
    ":help": "this text",
    ":quit": "leave the session (so do Ctrl-D on an empty line and exit(n))",
    ":load": "FILE — run a .syn file into this session",
    ":reset": "start over: fresh globals, grants and modules",
    ":caps": "the capabilities in effect now",
    ":type": "EXPR — the type of EXPR's value, as type_of answers",
    ":doc": "NAME — a builtin's reference entry, or the signature of a task in this session",
}
HELP = (
    "Type statements and expressions; a value is shown as it would look inside a list.\n"
    "A line that opens a block (task, when, each, while, match, try, …) continues until an\n"
    "empty line; an open bracket or backtick template continues until it is closed.\n"
    + "".join(f"  {name:<8} {what}\n" for name, what in COMMANDS.items())
    + "Commands may be shortened (:q, :t EXPR). At a terminal: Tab completes names, Up and Down\n"
    "recall earlier entries, Ctrl-R searches them, Ctrl-C cancels the entry being typed or\n"
    "stops the one running.\n"
)


# ------------------------------------------------------------------ entries
def needs_more(text: str) -> bool:
    """Whether `text` is an unfinished entry that the next line should be added to.

    It is while a bracket or backtick template is open, and while it holds a block (a header
    such as `task f()` or `when x`, or indented lines) that no empty line has ended yet. Other
    text is complete, and so is text the lexer rejects: its error is better shown at once.
    """
    from synsema.lang.errors import SynError
    from synsema.lang.lexer import tokenize
    from synsema.lang.parser import parse
    if not text.strip() or text.lstrip().startswith(":"):
        return False
    try:
        tokens = tokenize(text + "\n", FILE)
    except SynError as error:
        return error.message.endswith(AT_END)
    if "\n" in text and not text.rsplit("\n", 1)[1].strip():
        return False
    if any(token.type == "_INDENT" for token in tokens):
        return True
    try:
        parse(text, FILE)
    except SynError as error:
        return error.message == NEEDS_BLOCK
    return False


def opens_block(line: str) -> bool:
    """Whether this one line is a block header, so the line after it is indented one step more."""
    from synsema.lang.errors import SynError
    from synsema.lang.parser import parse
    words = line.split(None, 1)
    if not words:
        return False
    if words[0] in CLAUSE_HEADERS:
        return True
    try:
        parse(line.strip(), FILE)
    except SynError as error:
        return error.message == NEEDS_BLOCK
    return False


def next_indent(line: str) -> str:
    """The indentation a new line after `line` starts with: the same, one step deeper after a header."""
    indent = line[:len(line) - len(line.lstrip())]
    return indent + INDENT if opens_block(line) else indent


def echo_text(value) -> str:
    """How the REPL shows a value: its form inside a list, so text is quoted and `"1"` differs from `1`."""
    from synsema.runtime.values import display, quote
    return quote(value) if type(value) is str else display(value)


# ------------------------------------------------------------------ the session
class Session:
    """What one REPL keeps between entries: a Runtime, whose globals and grants persist.

    `out` and `err` receive text exactly as written; the runtime prints through the same two,
    so a test can capture everything the session shows.
    """

    def __init__(self, options: dict, out=None, err=None):
        self.options = dict(options)
        self.failures = 0  # entries that ended in an error: a piped session then exits 1
        self.out = out or _writer(sys.stdout)
        self.err = err or _writer(sys.stderr)
        self.rt = self._fresh_runtime()
        from synsema.lang.diagnostics import Sources
        self.sources = Sources()
        self.entry = _Entry(FILE)

    def _fresh_runtime(self):
        from synsema.runtime.interp import Runtime
        rt = Runtime(mode="run", out=self.out, err=self.err, **self.options)
        rt.file = FILE
        return rt

    def finish(self, code: int) -> None:
        """End of session: the audit log (`--audit`) gets its summary line."""
        self.rt.caps.finish(code)

    # -- entries
    def handle(self, entry: str) -> int | None:
        """Run one entry, code or command; an exit status when the session must end."""
        from synsema.lang.diagnostics import Sources
        entry = entry.rstrip()
        if not entry.strip():
            return None
        self.entry = _Entry(FILE)
        self.sources = Sources()  # what an error's caret points into: this entry, or a file
        self.sources.add(FILE, entry)
        if entry.lstrip().startswith(":"):
            return self._guarded(lambda: self._command(entry.strip()))
        return self._guarded(lambda: self._run_code(entry))

    def _run_code(self, source: str) -> None:
        from synsema.lang import ast
        from synsema.lang.parser import parse
        body = parse(source, self.entry).body
        value = self._evaluate(source, self.entry)
        for stmt in body:
            if type(stmt) is ast.TestBlock:
                self.err(f"note: test {echo_text(stmt.name)} is not run in the REPL; "
                         "run its file with synsema test\n")
        last = body[-1] if body else None
        if (type(last) is ast.ExprStmt and value is not None
                and not (type(last.expr) is ast.HumanExpr and last.expr.kind == "show")):
            self.rt.stdout(echo_text(value) + "\n")

    def _evaluate(self, source: str, file: str):
        """Compile `source` against the session's globals and run it; its last statement's value."""
        from synsema.runtime.calls import REG
        code, _ = self.rt.compile(source, file, self.rt.globals)
        REG.depth = 0
        with INTERRUPTS.armed():
            return code(None)

    def _guarded(self, action) -> int | None:
        """Run `action`, turning every way it can fail into a line on `err`; an exit status ends the session."""
        from synsema.lang.errors import SynError
        from synsema.runtime.calls import REG
        from synsema.runtime.control import ExitProgram, StopLoop
        try:
            return action()
        except ExitProgram as done:
            return done.code
        except KeyboardInterrupt:
            self.err("Interrupted\n")
            return None
        except SynError as error:
            from synsema.lang.diagnostics import human
            self.err(human(error, self._sources_for(error), hints=not self.options.get("labels")) + "\n")
        except StopLoop:
            where = f"{REG.stop_span}: " if REG.stop_span is not None else ""
            self.err(f"Runtime error: {where}stop used outside a loop\n")
        except RecursionError:
            self.err(f"Runtime error: {FILE}: maximum recursion depth exceeded\n")
        except Exception as bug:  # a bug in the interpreter: reported, and the session goes on
            self.err(f"Internal error: {type(bug).__name__}: {bug} (a bug in synsema, not in your "
                     "code; the session goes on)\n")
        self.failures += 1
        return None

    def _sources_for(self, error):
        """Where the caret of `error` may point: this entry or a loaded file, never an earlier
        entry (its lines are numbered like this one's but are not this one's)."""
        span = error.span
        if error.phase == "Usage" or span is None or (span.file == FILE and span.file is not self.entry):
            return None
        return self.sources

    # -- commands
    def _command(self, line: str) -> int | None:
        from synsema.lang.errors import SynError
        word, _, argument = line.partition(" ")
        argument = argument.strip()
        matches = [name for name in COMMANDS if name.startswith(word)] if len(word) > 1 else []
        if len(matches) != 1:
            raise SynError(f"unknown command '{word}' — commands: {', '.join(COMMANDS)}", None, "Usage")
        name = matches[0]
        takes_argument = name in (":load", ":type", ":doc")
        if bool(argument) != takes_argument:
            need = f"{name} {COMMANDS[name].split(' —')[0]}" if takes_argument else f"{name} alone"
            raise SynError(f"write {need}", None, "Usage")
        if name == ":quit":
            return QUIT
        if name == ":help":
            self.out(HELP)
        elif name == ":caps":
            self.out(", ".join(self.rt.caps.effective()) or "none")
            self.out("\n")
        elif name == ":reset":
            self.rt = self._fresh_runtime()
            self.out("fresh session: earlier definitions and grants are gone\n")
        elif name == ":load":
            self._load(argument)
        elif name == ":doc":
            self.out(self._doc(argument))
        else:
            self._type(argument)
        return None

    def _load(self, argument: str) -> None:
        from synsema.lang.errors import SynError
        path = argument[1:-1] if len(argument) > 1 and argument[0] == argument[-1] in "\"'" else argument
        full = os.path.join(self.rt.cwd, os.path.expanduser(path))
        from synsema.runtime.capabilities import CEILING_FLAGS
        ceiling = self.rt.caps.ceiling
        if ceiling is not None and not ceiling.allows_access("file.read", full, self.rt.cwd):
            # Under --sandbox/--cap-set the session reads only what the host allows; otherwise
            # a parse error's excerpt would show the first lines of any file on the machine.
            raise SynError(f":load cannot read {path}: the host ceiling ({CEILING_FLAGS}) does not "
                           f"allow file.read of it", None, "Usage")
        try:
            with open(full, encoding="utf-8") as handle:
                source = handle.read()
        except (OSError, UnicodeDecodeError) as problem:
            reason = getattr(problem, "strerror", None) or "not UTF-8 text"
            raise SynError(f":load cannot read {path}: {reason}", None, "Usage") from None
        self._evaluate(source, path)

    def _type(self, source: str) -> None:
        from synsema.lang import ast
        from synsema.lang.errors import SynError
        from synsema.lang.parser import parse
        from synsema.runtime.labels import unwrap, wrap
        from synsema.runtime.values import display, type_name
        self.sources.add(FILE, source)
        body = parse(source, self.entry).body
        if len(body) != 1 or type(body[0]) is not ast.ExprStmt:
            raise SynError(":type takes one expression, as in :type [1, 2]", None, "Usage")
        value, labels = unwrap(self._evaluate(source, self.entry))
        # Under --labels the answer is as private as the value, as with type_of.
        self.rt.stdout(display(wrap(type_name(value), labels)) + "\n")

    def _doc(self, name: str) -> str:
        """What `:doc NAME` shows: a task's signature (and where it comes from), else the
        builtin reference's entry for NAME."""
        from synsema.lang.errors import SynError
        from synsema.runtime.values import Builtin, Task
        from synsema.stdlib.reference import describe, render_entry
        value = self.rt.globals.get(name)
        if type(value) is Task:
            return task_signature(value) + "\n"
        doc = describe(value.spec.name if type(value) is Builtin else name)
        if doc is None:
            raise SynError(f":doc: no task or builtin named '{name}' (synsema doc lists the builtins)",
                           None, "Usage")
        return render_entry(doc)

    # -- completion
    def completions(self, before: str) -> tuple[str, list[tuple[str, str]]]:
        """What the word ending at the cursor may become: (that word, [(candidate, kind), …]).

        Names come from the session's globals (builtins included, except tier-C names that only
        refuse), keywords and, after `name.`, the members of a global map or module.
        """
        stripped = before.lstrip()
        if stripped.startswith(":") and " " not in stripped:
            return stripped, [(name, "command") for name in COMMANDS if name.startswith(stripped)]
        member = _MEMBER.search(before)
        if member is not None:
            owner, word = member.groups()
            found = self._members(self.rt.globals.get(owner), word)
        else:
            match = _WORD.search(before)
            if match is None:
                return "", []
            word = match.group(1)
            found = self._names(word)
        return word, sorted(found)

    def _names(self, prefix: str) -> list[tuple[str, str]]:
        from synsema.lang.lexer import AFTER_WORDS, CLAUSE_WORDS, HARD_KEYWORDS, STATEMENT_WORDS
        found = {word: "keyword" for group in (HARD_KEYWORDS, STATEMENT_WORDS, CLAUSE_WORDS, AFTER_WORDS)
                 for word in group if word.startswith(prefix)}
        for name, value in self.rt.globals.items():
            if name.startswith(prefix) and not _refuses(value):
                found[name] = _kind(value)
        return list(found.items())

    @staticmethod
    def _members(owner, prefix: str) -> list[tuple[str, str]]:
        from synsema.runtime.values import ModuleValue
        if type(owner) is ModuleValue:
            return [(name, _kind(owner.globals.get(name))) for name in owner.exported if name.startswith(prefix)]
        if type(owner) is dict:
            return [(key, _kind(value)) for key, value in owner.items()
                    if type(key) is str and key.isidentifier() and key.startswith(prefix)]
        return []


_MEMBER = re.compile(r"(?<![\w.])([^\W\d]\w*)\.(\w*)$")
_WORD = re.compile(r"(?<![\w.])([^\W\d]\w*)$")


class _Entry(str):
    """The file name an entry is compiled under: equal to FILE, but its own object, so the spans
    of the entry being run can be told from those of earlier entries."""


def task_signature(task) -> str:
    """`task greet(name: text, greeting = …)`: how a task defined in the session is called."""
    params = []
    for p in task.params:
        shown = f"{p.name}: {p.type}" if p.type else p.name
        params.append(f"{shown} = …" if p.has_default else shown)
    return f"{'lambda' if task.is_lambda else 'task ' + task.name}({', '.join(params)})"


def _refuses(value) -> bool:
    """A tier-C builtin: present so that using it explains itself, but never worth offering."""
    from synsema.runtime.values import Builtin
    return type(value) is Builtin and value.spec.unsupported


def _kind(value) -> str:
    from synsema.runtime.values import Builtin, type_name
    return "builtin" if type(value) is Builtin else type_name(value)


def _writer(stream):
    def write(text: str) -> None:
        try:
            stream.write(text)
            stream.flush()
        except BrokenPipeError:  # piped into `head`: the session ends quietly
            from synsema.runtime.control import quiet_broken_pipe
            raise quiet_broken_pipe(stream) from None
    return write


# ------------------------------------------------------------------ history
def history_path() -> str:
    """Where the history lives: `$XDG_DATA_HOME/synsema/repl_history`, else under ~/.local/share.

    A relative XDG_DATA_HOME is ignored, as the XDG base-directory rules say.
    """
    base = os.environ.get("XDG_DATA_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "synsema", "repl_history")


class HistoryFile:
    """The history on disk, shared by every session of the user: one JSON string per line.

    Several sessions may run at once, so every change happens under an exclusive `flock` on a
    lock file beside the history, and an entry is appended with a single write to a file opened
    for appending: sessions interleave whole entries, never parts of them. The lock lives in its
    own file because trimming replaces the history by renaming a new file over it; a session
    waiting for a lock on the history itself would afterwards append to the replaced file.
    Failures never stop the REPL: the first one is kept in `problem` and saving stops.
    """

    def __init__(self, path: str, limit: int = HISTORY_LIMIT):
        self.path = path
        self.limit = limit
        self.problem: str | None = None

    def load(self) -> list[str]:
        """Every saved entry, oldest first; trims the file when it has grown well past the limit."""
        if self.problem is not None:
            return []
        try:
            with self._locked():
                entries = self._read()
                if len(entries) > self.limit + self.limit // 4:
                    entries = entries[-self.limit:]
                    self._replace(entries)
        except OSError as failure:
            self._fail(failure)
            return []
        return entries[-self.limit:]

    def append(self, entry: str) -> None:
        if self.problem is not None:
            return
        data = (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8")
        try:
            with self._locked():
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
                try:
                    while data:
                        data = data[os.write(fd, data):]
                finally:
                    os.close(fd)
        except OSError as failure:
            self._fail(failure)

    @contextlib.contextmanager
    def _locked(self):
        import fcntl
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        fd = os.open(self.path + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing releases the lock

    def _read(self) -> list[str]:
        try:
            with open(self.path, "rb") as handle:
                raw = handle.read()
        except FileNotFoundError:
            return []
        entries = []
        for line in raw.decode("utf-8", errors="replace").splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue  # a line some other program wrote; the rest is still good
            if type(entry) is str:
                entries.append(entry)
        return entries

    def _replace(self, entries: list[str]) -> None:
        temporary = f"{self.path}.{os.getpid()}.tmp"
        data = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries).encode("utf-8")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, self.path)

    def _fail(self, failure: OSError) -> None:
        where = failure.filename or self.path
        self.problem = f"history is not saved: {where}: {failure.strerror or failure}"


# ------------------------------------------------------------------ interrupts
class Interrupts:
    """Deliver Ctrl-C to the session's thread while it evaluates an entry.

    `synsema repl` runs the session on a worker thread with a large stack
    (runtime.cli.on_big_stack), but Python runs signal handlers only on the main thread, which
    sits in `Thread.join` meanwhile: left alone, Ctrl-C during a long loop would raise there and
    end the command with a traceback. The handler installed here passes the interrupt on to the
    session's thread while an entry runs, and ignores it while the session waits for input (the
    prompt reads Ctrl-C as a key). Handlers can only be installed from the main thread, which is
    why `install` runs when runtime.cli imports this module; with no session running, Ctrl-C
    behaves exactly as before.
    """

    def __init__(self):
        self.thread: int | None = None
        self._armed = False

    def install(self) -> None:
        if (threading.current_thread() is threading.main_thread()
                and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
            signal.signal(signal.SIGINT, self._on_sigint)

    def _on_sigint(self, signum, frame) -> None:
        target = self.thread
        if target is None:
            raise KeyboardInterrupt
        if not self._armed:
            return
        if target == threading.get_ident():
            raise KeyboardInterrupt
        import ctypes
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target), ctypes.py_object(KeyboardInterrupt))

    @contextlib.contextmanager
    def session(self):
        """The calling thread is the session's for the duration."""
        self.thread = threading.get_ident()
        try:
            yield
        finally:
            self.thread = None

    @contextlib.contextmanager
    def armed(self):
        """An entry is running: Ctrl-C interrupts it."""
        self._armed = True
        try:
            yield
        finally:
            self._armed = False


INTERRUPTS = Interrupts()


# ------------------------------------------------------------------ front ends
def run_piped(session: Session, stream, prompt_to=None) -> int:
    """Entries read line by line from a pipe or file; an entry still open at end of input runs too.

    `prompt_to` gets the prompts when a person types without a terminal for output. The status
    is `exit(n)`'s n, else 1 when an entry failed and 0 when none did (see the module docstring).
    """
    lines: list[str] = []
    while True:
        if prompt_to is not None:
            prompt_to(CONTINUATION if lines else PROMPT)
        raw = stream.readline()
        if not raw:
            break
        line = raw.rstrip("\n").rstrip("\r")
        if not lines and not line.strip():
            continue
        lines.append(line)
        entry = "\n".join(lines)
        if needs_more(entry):
            continue
        lines = []
        code = session.handle(entry)
        if code is not None:
            return _piped_status(session, code)
    if lines:
        code = session.handle("\n".join(lines))
        if code is not None:
            return _piped_status(session, code)
    return _piped_status(session, QUIT)


def _piped_status(session: Session, code: int) -> int:
    """`exit(n)` ends a piped session with n; end of input and `:quit` with 1 after any error."""
    if code != QUIT:
        return code
    return 1 if session.failures else 0


def build_prompt(session: Session, store: HistoryFile, input=None, output=None):
    """The prompt-toolkit PromptSession: history on `store`, completion, highlighting, block-aware Enter.

    `input` and `output` let tests drive it through a pipe instead of a terminal.
    """
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import Completer, Completion
    from prompt_toolkit.enums import DEFAULT_BUFFER
    from prompt_toolkit.filters import Condition, has_focus
    from prompt_toolkit.history import History
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.lexers import PygmentsLexer

    from synsema.lang.highlight import SynsemaLexer

    class SavedHistory(History):
        def load_history_strings(self):
            return reversed(store.load())

        def store_string(self, string: str) -> None:
            store.append(string)

    class NameCompleter(Completer):
        def get_completions(self, document, complete_event):
            word, found = session.completions(document.text_before_cursor)
            for name, kind in found:
                yield Completion(name, start_position=-len(word), display_meta=kind)

    bindings = KeyBindings()
    editing = has_focus(DEFAULT_BUFFER)

    @Condition
    def in_indentation() -> bool:
        from prompt_toolkit.application import get_app
        return not get_app().current_buffer.document.current_line_before_cursor.strip()

    @bindings.add("enter", filter=editing)
    def _enter(event):
        """Submit a complete entry; otherwise a new line, indented for what comes next."""
        buffer = event.current_buffer
        document = buffer.document
        if document.on_last_line and not needs_more(buffer.text):
            if buffer.text != buffer.text.rstrip():
                buffer.text = buffer.text.rstrip()
            buffer.validate_and_handle()
        else:
            buffer.insert_text("\n" + next_indent(document.current_line_before_cursor))

    @bindings.add("tab", filter=editing & in_indentation)
    def _indent(event):
        event.current_buffer.insert_text(INDENT)

    @bindings.add("backspace", filter=editing & in_indentation)
    def _dedent(event):
        """In the indentation, go back one step rather than one space."""
        before = event.current_buffer.document.current_line_before_cursor
        width = len(before) % len(INDENT) or len(INDENT)
        event.current_buffer.delete_before_cursor(min(width, len(before)) or 1)

    return PromptSession(
        PROMPT, multiline=True, prompt_continuation=CONTINUATION, history=SavedHistory(),
        completer=NameCompleter(), complete_while_typing=False, lexer=PygmentsLexer(SynsemaLexer),
        key_bindings=bindings, enable_history_search=False, input=input, output=output)


def run_interactive(session: Session, store: HistoryFile, input=None, output=None) -> int:
    """The terminal front end: read entries with prompt-toolkit until the user leaves."""
    prompt = build_prompt(session, store, input, output)
    warned = False
    while True:
        try:
            entry = prompt.prompt()
        except KeyboardInterrupt:
            continue
        except EOFError:
            return 0
        except Exception as bug:
            session.err(f"Internal error in the prompt: {type(bug).__name__}: {bug}\n")
            return 1
        if store.problem is not None and not warned:
            session.err(f"note: {store.problem}\n")
            warned = True
        code = session.handle(entry)
        if code is not None:
            return 0 if code == QUIT else code


def main(options: dict) -> int:
    """`synsema repl` with the host flags' Runtime options (ceiling, audit, labels); the exit status."""
    session = Session(options)
    with INTERRUPTS.session():
        if sys.stdin.isatty() and sys.stdout.isatty():
            from synsema.runtime.cli import VERSION
            session.out(f"Synsema {VERSION} — :help lists the commands, Ctrl-D leaves\n")
            code = run_interactive(session, HistoryFile(history_path()))
        else:
            # Bytes that are not UTF-8 become U+FFFD (and then errors of the language), not a crash.
            sys.stdin.reconfigure(errors="replace")
            code = run_piped(session, sys.stdin, session.err if sys.stdin.isatty() else None)
    session.finish(code)
    return code
