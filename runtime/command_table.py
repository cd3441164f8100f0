"""Every `synsema` command's entry in runtime.commands' table but `run`'s: usage, arguments,
flags, exit statuses and examples (runtime.commands explains the table).

runtime.commands loads this module at the first use of its TABLE or COMMANDS (help, a
command other than `run`), so a `synsema run` does not compile it (start-up without `.pyc`
files, issue 31).
"""

from __future__ import annotations

from synsema.runtime.commands import (CALL_LIMIT_FLAGS, CONFIG_FLAGS, HOST_FLAGS, LIMIT_FLAGS, MATH_PREWARM,
                                      Command, Flag, _JSON, _format_flag)

OTHERS = (
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
