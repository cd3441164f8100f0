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


TABLE = (
    Command(
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
        program_after_file=True),
    Command(
        "test", "synsema test [host flags] [-v] [-x] [-k EXPR] [-j N] [--format human|json] [--junit FILE] PATH…",
        "Run the test blocks of .syn files, directories or globs. In a test, skip(\"reason\") skips it; "
        "only() as its first line runs only the tests so marked and fails the run (remove it before "
        "committing).",
        arguments=(("PATH…", "a .syn file, a directory (searched for .syn files) or a glob"),),
        flags=(Flag(("-v", "--verbose"), "list every test, and the time of tests over a second"),
               Flag(("-x", "--exitfirst"), "stop at the first failure (and say how many tests did not run)"),
               Flag(("-k",), "run only the tests whose name matches: words are case-insensitive substrings, "
                             "/regex/ a regular expression, combined with and, or, not, ( )", "EXPR"),
               Flag(("-j",), "run N files at a time, each in its own process; the report is the same", "N"),
               _format_flag("one JSON event per test {event, file, name, line, outcome, duration, message, "
                            "detail, output, diagnostic}, then a summary"),
               Flag(("--junit",), "also write a JUnit XML report for CI", "FILE"),
               *HOST_FLAGS, *LIMIT_FLAGS),
        exits="0 every test passed (or was skipped), 1 a test failed, a file did not load or only() was used, "
              "2 a usage error, 3 a host limit, 5 no test ran",
        examples=("synsema test examples/", "synsema test -v -k weather --junit report.xml tests/",
                  "synsema test -x -k \"parse and not /slow$/\" -j 4 tests/")),
    Command(
        "check", "synsema check [--format human|json] FILE…",
        "Parse and lint files without running them: undefined names, arity, unknown keywords, "
        "unreachable code, capabilities used without a require.",
        arguments=(("FILE…", "the programs (and, transitively, the modules they use)"),),
        flags=(_format_flag("{ok, exit, errors, warnings, diagnostics}"),),
        exits="0 clean, 1 errors, 2 a usage error, 3 warnings only",
        examples=("synsema check examples/hello.syn", "synsema check --format json *.syn")),
    Command(
        "fmt", "synsema fmt [--check] [--diff] PATH…",
        "Rewrite files in the canonical layout (comments kept).",
        arguments=(("PATH…", "a .syn file, a directory, or - to format stdin to stdout"),),
        flags=(Flag(("--check",), "change nothing; exit 1 if a file would be reformatted"),
               Flag(("--diff",), "change nothing; print what would change as a unified diff")),
        exits="0 nothing to do (or done), 1 a file needs formatting or cannot be formatted, 2 a usage error",
        examples=("synsema fmt examples/", "synsema fmt --check --diff prog.syn")),
    Command(
        "lsp", "synsema lsp",
        "The language server (LSP over stdin and stdout) for any editor.",
        examples=("synsema lsp",)),
    Command(
        "repl", "synsema repl [host flags]",
        "An interactive session; with stdin from a pipe, a plain line loop that exits 1 if an entry failed.",
        flags=(*HOST_FLAGS, *LIMIT_FLAGS),
        exits="0 (or exit(n)'s n); piped: 1 if an entry failed; 2 a usage error, 3 a host limit",
        examples=("synsema repl --sandbox", "synsema repl < session.txt")),
    Command(
        "code", "synsema code outline|check|caps FILE [--json]",
        "Static code intelligence for agents and editors: read a file, never run it.",
        subcommands=("outline", "check", "caps"),
        examples=("synsema code outline --json examples/tool_calling.syn",)),
    Command(
        "code outline", "synsema code outline FILE [--json]",
        "Every task of a file: name, lines, parameters and the JSON Schema of its arguments, as "
        "a model is shown it.",
        arguments=(("FILE", "the program"),),
        flags=(_JSON,),
        exits="0 success, 1 the file does not parse, 2 a usage error",
        examples=("synsema code outline --json examples/tool_calling.syn",)),
    Command(
        "code check", "synsema code check FILE [--json]",
        "Load-time verification of one file, and every declassify site in it and the modules it uses.",
        arguments=(("FILE", "the program"),),
        flags=(_JSON,),
        exits="0 clean, 1 errors, 2 a usage error",
        examples=("synsema code check --json prog.syn",)),
    Command(
        "code caps", "synsema code caps FILE [--json]",
        "The capabilities a program asks for: its requires, each task's, what each needs and what "
        "is missing, and requires that can never grant.",
        arguments=(("FILE", "the program"),),
        flags=(_JSON,),
        exits="0 success, 1 the file does not parse, 2 a usage error",
        examples=("synsema code caps examples/tool_calling.syn",)),
    Command(
        "doc", "synsema doc [NAME] [--markdown]",
        "The builtin reference: every builtin, or one with its parameters, capability and examples.",
        arguments=(("NAME", "a builtin; without it, the index of all of them"),),
        flags=(Flag(("--markdown",), "print the whole reference as Markdown (docs/builtins.md)"),),
        exits="0 success, 1 no builtin of that name, 2 a usage error",
        examples=("synsema doc split", "synsema doc")),
    Command(
        "llm", "synsema llm status [--json]",
        "The LLM provider a run would use.",
        subcommands=("status",),
        examples=("synsema llm status",)),
    Command(
        "llm status", "synsema llm status [--json] [--env-file FILE|--no-env-file] [--config FILE|--no-config]",
        "The resolved LLM configuration, each value with its source; keys only as present or absent. "
        "Nothing is sent.",
        flags=(_JSON, *CONFIG_FLAGS),
        exits="0 the configuration is sound (live or offline), 1 a setting is wrong, 2 a usage error",
        examples=("synsema llm status", "synsema llm status --json")),
    Command(
        "math", "synsema math list [--json] | describe ID | run ID JSON",
        "The exact math operation library.",
        subcommands=("list", "describe", "run"),
        examples=("synsema math list",)),
    Command(
        "math list", "synsema math list [--json]",
        "Every math operation: its identifier, summary and outcomes.",
        flags=(_JSON,),
        examples=("synsema math list --json",)),
    Command(
        "math describe", "synsema math describe ID",
        "One operation as JSON: its request and result schemas, bounds and examples.",
        arguments=(("ID", "the operation, e.g. comb.binomial"),),
        exits="0 success, 1 no such operation, 2 a usage error",
        examples=("synsema math describe comb.binomial",)),
    Command(
        "math run", "synsema math run ID JSON",
        "Run one operation on a JSON payload; the result as JSON.",
        arguments=(("ID", "the operation, e.g. comb.binomial"), ("JSON", "the request payload")),
        exits="0 success, 1 a rejected payload or a failed run, 2 a usage error",
        examples=("synsema math run comb.binomial '{\"n\": 10, \"k\": 3}'",)),
    Command(
        "mcp", "synsema mcp serve [host flags] [--math] [--http PORT] FILE…",
        "Publish tasks (and the math library) as MCP tools.",
        subcommands=("serve",),
        examples=("synsema mcp serve --math",)),
    Command(
        "mcp serve", "synsema mcp serve [host flags] [--math] [--http PORT] FILE…",
        "Serve every top-level task of each FILE (only the exported ones when a file exports any) as "
        "an MCP tool, on stdio.",
        arguments=(("FILE…", "the programs whose tasks become tools"),),
        flags=(Flag(("--math",), "also serve every math operation, as math_<domain>_<operation>"),
               Flag(("--http",), "serve Streamable HTTP on 127.0.0.1:PORT instead of stdio", "PORT"),
               *HOST_FLAGS, *CALL_LIMIT_FLAGS, MATH_PREWARM),
        examples=("synsema mcp serve --sandbox tools.syn", "synsema mcp serve --math --http 8765",
                  "synsema mcp serve --time-limit 10 --memory-limit 256M tools.syn")),
    Command(
        "config", "synsema config [host flags] [--json] [PATH…]",
        "Every host and LLM setting in force for a command run here (or on PATH…), each with its "
        "source: a flag, the environment, the env file, synsema.toml (file:line) or the default.",
        arguments=(("PATH…", "the files a command would be given: the project file is searched from "
                             "their common directory upward (default: the working directory)"),),
        flags=(_JSON, *HOST_FLAGS, *LIMIT_FLAGS[:2]),
        exits="0 success, 1 an LLM setting is wrong, 2 a usage error (a malformed synsema.toml)",
        examples=("synsema config", "synsema config --json examples/")),
    Command(
        "init", "synsema init [DIR]",
        "Start a project in DIR (default: here): synsema.toml with a least-privilege ceiling to "
        "edit, main.syn with a task and its tests, and .gitignore. Existing files are left alone.",
        arguments=(("DIR", "the project directory, created if missing"),),
        exits="0 success, 2 a usage error (a file it would write exists)",
        examples=("synsema init agent && cd agent && synsema test main.syn",)),
    Command(
        "eval", "synsema eval [host flags] FILE --data DATA [--task NAME] [--score TASK]… [--workers N] "
                "[--out RESULTS] [--resume] [--limit K] [--engine local|ray]",
        "Run one task of FILE over every row of DATA (JSON lines, or CSV), each row isolated in its own "
        "process, scored by the program's score_* tasks; one JSON line per row in RESULTS, a summary at "
        "the end. See docs/eval.md.",
        arguments=(("FILE", "the program: its task takes a row's fields as named arguments"),),
        flags=(Flag(("--data",), "the rows: JSON lines (one object per line) or a .csv file with a header",
                    "DATA"),
               Flag(("--task",), "the task each row calls (default: the program's only task that is no "
                                 "scorer)", "NAME"),
               Flag(("--score",), "a scorer task, repeatable (default: every task named score_*)", "TASK"),
               Flag(("--workers",), "rows running at once, each in its own process (default 1)", "N"),
               Flag(("--out",), "the results file, JSON lines (default results.jsonl); row traces go "
                                "to RESULTS.traces/", "RESULTS"),
               Flag(("--resume",), "keep RESULTS and run only the rows not in it yet"),
               Flag(("--limit",), "run only the first K rows of DATA", "K"),
               Flag(("--engine",), "local worker processes (the default) or a Ray cluster (synsema[ray]; "
                                   "RAY_ADDRESS)", "local|ray"),
               Flag(("--ray-address",), "the Ray cluster for --engine ray (default: RAY_ADDRESS, else a local "
                                        "Ray with 2 CPUs, started and stopped by the command)", "ADDRESS"),
               *HOST_FLAGS,
               Flag(("--time-limit",), "stop any one row after this many seconds: an error line "
                                       "(default: SYNSEMA_TIME_LIMIT, else 300)", "SECONDS"),
               Flag(("--memory-limit",), "the most memory any one row's process may use, e.g. 1G "
                                         "(default: SYNSEMA_MEMORY_LIMIT, else 4G)", "SIZE")),
        exits="0 every row ran (scores are data), 1 a row errored, 2 a usage error",
        examples=("synsema eval examples/eval/capitals.syn --data examples/eval/capitals.jsonl",
                  "synsema eval agent.syn --data tickets.csv --workers 4 --out runs.jsonl --resume")),
    Command(
        "view", "synsema view [-o PAGE] [--serve] TRACE_OR_RESULTS",
        "Show a run's trace (synsema run --trace FILE) or an eval's results as one self-contained HTML "
        "page: a timeline of model calls, tool calls, capability decisions and label events, or a "
        "sortable table of rows.",
        arguments=(("TRACE_OR_RESULTS", "a JSON-lines trace or results file"),),
        flags=(Flag(("-o", "--output"), "where to write the page (default: the input with .html)", "PAGE"),
               Flag(("--serve",), "also serve the page on http://127.0.0.1 until Ctrl-C")),
        examples=("synsema view run.jsonl", "synsema view results.jsonl -o results.html --serve")),
    Command(
        "version", "synsema version",
        "Print the version.",
        exits="0",
        examples=("synsema version",)),
    Command(
        "help", "synsema help [COMMAND [SUBCOMMAND]]",
        "The list of commands, or one command's help (the same as COMMAND --help).",
        arguments=(("COMMAND", "a command, e.g. run or code outline"),),
        examples=("synsema help code outline",)),
)

COMMANDS = {command.name: command for command in TABLE}


def find(words: list[str]) -> tuple[Command | None, int]:
    """The command the first words name (two words for a sub-command), and how many it took."""
    if len(words) >= 2 and f"{words[0]} {words[1]}" in COMMANDS:
        return COMMANDS[f"{words[0]} {words[1]}"], 2
    if words and words[0] in COMMANDS:
        return COMMANDS[words[0]], 1
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
    guess = did_you_mean(word, [c.name for c in TABLE if " " not in c.name])
    return f"unknown command: {word}" + (f" — did you mean {guess}?" if guess else "")


def render(command: Command) -> str:
    """`synsema CMD --help`: usage, what it does, arguments, flags, exit statuses, examples."""
    import textwrap  # only help needs it: not imported by a command that runs
    lines = [f"usage: {command.usage}", "", *textwrap.wrap(command.summary, WIDTH)]
    if command.subcommands:
        lines += ["", "commands:"]
        lines += _rows((name, COMMANDS[f"{command.name} {name}"].summary) for name in command.subcommands)
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
    for command in TABLE:
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
