"""The table of `synsema`'s commands: what each accepts, and the help text made from it.

One entry per command and per sub-command (`code outline`, `llm status`, `mcp serve`, …), with
its usage line, arguments, flags (each with a one-line description), exit statuses and an
example. `synsema CMD --help`, `-h` and `synsema help CMD` print the entry; the top-level
`synsema --help` lists them all. The same table decides which flags a command accepts: runtime.cli
refuses any other flag before the command's own parser sees it, with the flags that exist and a
did-you-mean, so a flag cannot be added to a parser without being added (and described) here.

Flags are read up to the first `--`, and for `run` up to the first word after FILE that is not
a flag: what follows is the program's own (`synsema run prog.syn -- --help` passes `--help` to
the program). Help is wrapped at WIDTH columns, whatever the terminal, so it reads the same in a
pipe and in a test.

`run`'s entry is written here and every other one in runtime.command_table, which the first use
of TABLE or COMMANDS loads: `synsema run` does not compile the rest (start-up without `.pyc`).
"""

from __future__ import annotations

WIDTH = 100


class Flag:
    """A flag and its spellings; `value` names what follows it (None: a switch).

    A plain class, not a dataclass: every command line imports this table, and generating a
    dataclass's methods costs more than the rest of the module (issue 19, start-up)."""

    __slots__ = ("names", "help", "value")

    def __init__(self, names: tuple[str, ...], help: str, value: str | None = None):
        self.names = names
        self.help = help
        self.value = value

    @property
    def shown(self) -> str:
        return ", ".join(self.names) + (f" {self.value}" if self.value else "")


class Command:
    """One command (`name` may be two words); a group (`code`, `llm`, `math`, `mcp`) lists its
    sub-commands and runs none of its own. `program_after_file` (`run`): the first word after
    FILE that is no flag starts the program's arguments."""

    __slots__ = ("name", "usage", "summary", "arguments", "flags", "exits", "examples", "subcommands",
                 "program_after_file")

    def __init__(self, name: str, usage: str, summary: str, arguments: tuple[tuple[str, str], ...] = (),
                 flags: tuple[Flag, ...] = (), exits: str = "0 success, 2 a usage error",
                 examples: tuple[str, ...] = (), subcommands: tuple[str, ...] = (),
                 program_after_file: bool = False):
        self.name = name
        self.usage = usage
        self.summary = summary
        self.arguments = arguments
        self.flags = flags
        self.exits = exits
        self.examples = examples
        self.subcommands = subcommands
        self.program_after_file = program_after_file

    def accepts(self, word: str) -> Flag | None:
        """The flag `word` spells (also `--flag=value` for a flag with a value), or None."""
        name, has_value, _ = word.partition("=")
        for flag in self.flags + (HELP_FLAG,):
            if name in flag.names and (not has_value or (flag.value and name.startswith("--"))):
                return flag
        return None


HELP_FLAG = Flag(("-h", "--help"), "show this help and exit")

# Where the host configuration comes from (runtime.project); `llm status` takes them too.
CONFIG_FLAGS = (
    Flag(("--env-file",), "read LLM settings (SYNSEMA_LLM_*, API keys) from this KEY=value file; no "
                          ".env is read unless named here or in synsema.toml", "FILE"),
    Flag(("--no-env-file",), "read no env file, even the one synsema.toml names"),
    Flag(("--config",), "the project file to use instead of the synsema.toml found above the paths", "FILE"),
    Flag(("--no-config",), "use no project file (synsema.toml)"),
)
HOST_FLAGS = (
    Flag(("--labels",), "track private values: a private value reaching a sink ends the run (a label violation)"),
    Flag(("--sandbox",), "allow only the capabilities stdout and time, whatever the program requires"),
    Flag(("--cap-set",), "the most the program may be granted: capabilities with optional scopes, "
                         "e.g. \"stdout,file.read=/tmp\"; under --labels, llm=PRINCIPAL@HOST lets data "
                         "private to PRINCIPAL reach the model at HOST (replaying, the host the cassette was "
                         "recorded against; offline, nothing is sent) and declassify=PRINCIPAL lets the "
                         "program publish it", "LIST"),
    Flag(("--audit",), "log every capability check as JSON lines: json (to stderr), fd:N or a file",
         "json|fd:N|PATH"),
    Flag(("--mcp-config",), "the MCP servers the program may reach (the mcpServers JSON format)", "FILE"),
    Flag(("--memory-dir",), "the folder of the persistent memory files, one per require memory(\"NAME\") "
                            "(default: SYNSEMA_MEMORY_DIR, else .synsema/memory in the project)", "DIR"),
    *CONFIG_FLAGS,
)
# Every program-running command, mcp serve included.
MATH_PREWARM = Flag(("--math-prewarm",), "load these math domains' backends while the command "
                    "starts, e.g. nt,smt (the first math call waits for them)", "DOMAINS|all")
# Applied around the whole command (HostFlags.run): run, test and repl, not mcp serve.
LIMIT_FLAGS = (
    Flag(("--time-limit",), "stop the command after this many seconds, exit 3 "
                            "(default: SYNSEMA_TIME_LIMIT, else none)", "SECONDS"),
    Flag(("--memory-limit",), "the most memory the command may use, e.g. 512M, 2G or off, exit 3 past it "
                              "(default: SYNSEMA_MEMORY_LIMIT, else 4G)", "SIZE"),
    MATH_PREWARM,
)
# mcp serve: the same flags bound each tool call (a process of its own), with their own defaults.
CALL_LIMIT_FLAGS = (
    Flag(("--time-limit",), "stop any one tool call after this many seconds (default 60, or "
                            "SYNSEMA_TIME_LIMIT; off for none)", "SECONDS"),
    Flag(("--memory-limit",), "the most memory any one tool call may use, e.g. 256M or off "
                              "(default 1G, or SYNSEMA_MEMORY_LIMIT)", "SIZE"),
)
_JSON = Flag(("--json",), "print JSON instead of text")
# `run` (and `eval`, per row): a trace of the model calls, tools, denials and violations.
TRACE_FLAG = Flag(("--trace",), "write the run's trace (model calls, tool calls, capability denials, label "
                                "events) as JSON lines to FILE; see docs/tracing.md", "FILE")


def _format_flag(what: str) -> Flag:
    return Flag(("--format",), f"human (the default) or json: {what}", "human|json")


RUN = Command(
    "run", "synsema run [host flags] [--format human|json] FILE|- [-- args…]",
    "Run a program. Its tests are not run (see synsema test).",
    arguments=(("FILE|-", "the program, or - to read it from stdin"),
               ("args…", "the program's arguments, after FILE or after --: args() returns them")),
    flags=(_format_flag("one JSON report with the output, errors, audit, exit and steps"),
           *HOST_FLAGS, *LIMIT_FLAGS, TRACE_FLAG),
    exits="0 success (or exit(n)'s n), 1 a program error, 2 a usage error, 3 a host limit",
    examples=("synsema run examples/hello.syn", "synsema run --sandbox prog.syn -- first second",
              "echo 'print(1 + 1)' | synsema run -",
              "synsema run --labels --cap-set \"stdout,llm=customer@api.anthropic.com,declassify=customer\" "
              "examples/private_agent.syn"),
    program_after_file=True)


def __getattr__(name: str):
    """`TABLE` (every command, `run` first) and `COMMANDS` (the same by name), made at their first use."""
    if name not in ("TABLE", "COMMANDS"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return _table(name)


_LOADED: dict = {}


def _table(name: str):
    if not _LOADED:
        from synsema.runtime.command_table import OTHERS
        table = (RUN, *OTHERS)
        _LOADED.update(TABLE=table, COMMANDS={command.name: command for command in table})
    return _LOADED[name]


def find(words: list[str]) -> tuple[Command | None, int]:
    """The command the first words name (two words for a sub-command), and how many it took."""
    if words and words[0] == RUN.name:
        return RUN, 1
    commands = _table("COMMANDS")
    if len(words) >= 2 and f"{words[0]} {words[1]}" in commands:
        return commands[f"{words[0]} {words[1]}"], 2
    if words and words[0] in commands:
        return commands[words[0]], 1
    return None, 0


def own_words(command: Command, args: list[str]) -> list[str]:
    """The words of `args` (after the command's name) where flags are read: up to `--`, and for
    `run` up to FILE; the values of flags are left out."""
    words: list[str] = []
    positionals = 0
    i = 0
    while i < len(args):
        word = args[i]
        if word == "--":
            break
        if word.startswith("-") and word != "-":
            words.append(word)
            flag = command.accepts(word)
            if flag is not None and flag.value and "=" not in word:
                i += 1
        else:
            positionals += 1
            if command.program_after_file and positionals > 1:
                break
        i += 1
    return words


def unknown_flag(command: Command, args: list[str]) -> str | None:
    """The message for the first flag in `args` that `command` does not accept, or None."""
    for word in own_words(command, args):
        if command.accepts(word) is None:
            from synsema.lang.suggest import did_you_mean
            names = [name for flag in command.flags for name in flag.names]
            guess = did_you_mean(word.partition("=")[0], names)
            hint = f" — did you mean {guess}?" if guess else ""
            known = f"its flags: {', '.join(names)}" if names else "it takes no flags"
            return f"unknown flag for {command.name}: {word}{hint} ({known})"
    return None


def wants_help(command: Command, args: list[str]) -> bool:
    """`-h` or `--help` among the command's own flags (not the program's, not a flag's value)."""
    return any(word in HELP_FLAG.names for word in own_words(command, args))


def unknown_subcommand(group: Command, word: str | None) -> str:
    """The message for a group (`code`, `llm`, …) given no sub-command, or one it lacks."""
    from synsema.lang.suggest import did_you_mean
    choices = ", ".join(group.subcommands)
    if word is None:
        return f"{group.name} needs a command: {choices}"
    guess = did_you_mean(word, group.subcommands)
    hint = f" — did you mean {guess}?" if guess else ""
    return f"{group.name} has no command '{word}'{hint} (its commands: {choices})"


def unknown_command(word: str) -> str:
    from synsema.lang.suggest import did_you_mean
    guess = did_you_mean(word, [c.name for c in _table("TABLE") if " " not in c.name])
    return f"unknown command: {word}" + (f" — did you mean {guess}?" if guess else "")


def render(command: Command) -> str:
    """`synsema CMD --help`: usage, what it does, arguments, flags, exit statuses, examples."""
    import textwrap  # only help needs it: not imported by a command that runs
    lines = [f"usage: {command.usage}", "", *textwrap.wrap(command.summary, WIDTH)]
    if command.subcommands:
        lines += ["", "commands:"]
        commands = _table("COMMANDS")
        lines += _rows((name, commands[f"{command.name} {name}"].summary) for name in command.subcommands)
        lines += ["", f"synsema {command.name} COMMAND --help describes one of them."]
    if command.arguments:
        lines += ["", "arguments:"] + _rows(command.arguments)
    if not command.subcommands:
        lines += ["", "flags:"] + _rows((flag.shown, flag.help) for flag in command.flags + (HELP_FLAG,))
        lines += ["", *textwrap.wrap(f"exit status: {command.exits}", WIDTH, subsequent_indent="  ")]
    lines += ["", "example:" if len(command.examples) == 1 else "examples:"]
    lines += [f"  {example}" for example in command.examples]
    return "\n".join(lines) + "\n"


def render_overview() -> str:
    """`synsema --help`: every command with its usage and summary."""
    import textwrap
    lines = ["usage: synsema <command> [options]", "", "commands:"]
    for command in _table("TABLE"):
        if " " in command.name:
            continue
        lines.append(f"  {command.usage.removeprefix('synsema ')}")
        lines += textwrap.wrap(command.summary, WIDTH, initial_indent=" " * 6, subsequent_indent=" " * 6)
    lines += ["", "host flags (run, test, repl; mcp serve takes the first five and --math-prewarm):"]
    lines += _rows((flag.shown, flag.help) for flag in HOST_FLAGS + LIMIT_FLAGS)
    lines += ["", "synsema COMMAND --help (or synsema help COMMAND) describes one command, its flags and "
                  "exit statuses."]
    return "\n".join(lines) + "\n"


def _rows(pairs) -> list[str]:
    """Two columns, the right one wrapped; a left entry too wide for its column gets a line of its own."""
    import textwrap
    pairs = list(pairs)
    width = min(max(len(left) for left, _ in pairs), 26)
    indent = " " * (width + 4)
    rows = []
    for left, right in pairs:
        if len(left) > width:
            rows.append(f"  {left}")
            rows += textwrap.wrap(right, WIDTH, initial_indent=indent, subsequent_indent=indent)
        else:
            rows += textwrap.wrap(right, WIDTH, initial_indent=f"  {left:<{width}}  ", subsequent_indent=indent)
    return rows
