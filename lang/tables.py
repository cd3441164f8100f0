"""The grammar's LALR(1) tables as plain data, so running a program never imports Lark.

Lark builds the tables from grammar/synsema.lark; `build` turns its result into lists, dicts,
strings and ints, and `python -m synsema.lang.tables` writes that to
grammar/synsema.tables.json, which ships in the package beside the grammar (a test keeps the
two in step). `read` trusts that file only when it is whole and made from this very grammar:
it records the CRC-32 of the grammar it was built from and of its own table text. A missing,
truncated, edited or stale file, or one of a format this code does not know, is rebuilt from
the grammar with Lark, in memory, for this process (lang.parser.tables_from, which also checks
that every state, rule and symbol the tables name exists before using them). Nothing is
written at run time, no file outside the installed package is read, and the file is JSON:
loading it runs no code (never a pickle). The checksums catch damage and staleness, not an
attacker: whoever can write into the installed package can change its code as well.

The data (`build`'s dict):
- `symbols`: every terminal and rule name the states mention;
- `rules`: per rule, `[origin, alias, template_source, expand1, keep_all_tokens,
  expansion, empty_indices]`, the expansion a list of `[name, is_terminal, filter_out]` — what
  lang.parser needs to shape a rule's children as Lark's tree builder would;
- `states`: per state a flat list `[symbol, action, symbol, action, …]`: an action below the
  number of states shifts to (or, after a reduce, goes to) that state, and `states + r`
  reduces by rule `r`;
- `start` / `end`: the first and the accepting state of each start rule.
"""

from __future__ import annotations

import json
import os
import sys
import zlib

FORMAT = 1
START = ("module", "lone_expr")


def _grammar_folder() -> str:
    """Where the grammar and its tables are: the `synsema.grammar` package's folder."""
    from synsema import grammar
    return os.path.dirname(grammar.__file__)


def grammar_path() -> str:
    return os.path.join(_grammar_folder(), "synsema.lark")


def tables_path() -> str:
    return os.path.join(_grammar_folder(), "synsema.tables.json")


def grammar_text() -> str:
    with open(grammar_path(), encoding="utf-8") as f:
        return f.read()


def _crc(text: str) -> int:
    return zlib.crc32(text.encode("utf-8"))


def read(path: str, grammar: str) -> dict | None:
    """The tables in `path` if the file is whole, of this format, and built from `grammar`;
    None otherwise (lang.parser checks the structure as it takes them in)."""
    try:
        with open(path, encoding="utf-8") as f:
            header, body = f.read().split("\n", 1)
        meta = json.loads(header)
        if (type(meta) is not dict or meta.get("format") != FORMAT or meta.get("grammar_crc32") != _crc(grammar)
                or meta.get("tables_crc32") != _crc(body)):
            return None
        tables = json.loads(body)
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return tables if type(tables) is dict else None


def build(grammar: str) -> dict:
    """Build the tables of `grammar` with Lark (strict LALR(1): a conflict is an error)."""
    from lark import Lark
    from lark.lexer import Lexer
    from lark.parsers.lalr_analysis import Shift

    class _Fed(Lexer):
        """Lark requires a lexer; lang.lexer makes the tokens."""

        def __init__(self, conf):
            pass

        def lex(self, data):
            raise NotImplementedError("tokens come from lang.lexer")

    lark = Lark(grammar, parser="lalr", lexer=_Fed, strict=True, maybe_placeholders=True, start=list(START))
    table = lark.parser.parser.parser.parse_table
    rule_index = {id(rule): i for i, rule in enumerate(lark.rules)}
    rules = []
    for rule in lark.rules:
        options = rule.options
        rules.append([rule.origin.name, rule.alias, options.template_source, bool(options.expand1),
                      bool(options.keep_all_tokens),
                      [[s.name, bool(s.is_term), bool(s.is_term and s.filter_out)] for s in rule.expansion],
                      [bool(e) for e in options.empty_indices] if options.empty_indices else None])
    # Lark numbers its states in an order that varies with string hashing, so they are
    # renumbered here in a fixed order (breadth first from the start states, symbols sorted):
    # the same grammar always gives the same file.
    order: dict[int, int] = {}
    queue = [table.start_states[s] for s in START]
    for state in queue:
        if state not in order:
            order[state] = len(order)
            row = table.states[state]
            queue.extend(row[symbol][1] for symbol in sorted(row) if row[symbol][0] is Shift)
    count = len(order)
    symbols = sorted({symbol for state in order for symbol in table.states[state]})
    number = {symbol: i for i, symbol in enumerate(symbols)}
    states: list[list[int]] = []
    for state in sorted(order, key=order.get):
        row = table.states[state]
        flat: list[int] = []
        for symbol in sorted(row):
            action, arg = row[symbol]
            flat += (number[symbol], order[arg] if action is Shift else count + rule_index[id(arg)])
        states.append(flat)
    return {"symbols": symbols, "rules": rules, "states": states,
            "start": {s: order[table.start_states[s]] for s in START},
            "end": {s: order[table.end_states[s]] for s in START}}


def serialize(tables: dict, grammar: str) -> str:
    """The file text for `tables`: a header line (format, checksums) and the tables."""
    body = json.dumps(tables, separators=(",", ":"), sort_keys=True)
    header = json.dumps({"format": FORMAT, "grammar_crc32": _crc(grammar), "tables_crc32": _crc(body)},
                        sort_keys=True)
    return f"{header}\n{body}"


def main(argv: list[str] | None = None) -> int:
    """`python -m synsema.lang.tables [--check]`: write the shipped tables, or check them."""
    argv = sys.argv[1:] if argv is None else argv
    grammar = grammar_text()
    text = serialize(build(grammar), grammar)
    path = tables_path()
    if argv == ["--check"]:
        try:
            with open(path, encoding="utf-8") as f:
                current = f.read()
        except OSError:
            current = None
        if current != text:
            print(f"{path} is not the grammar's tables: run `python -m synsema.lang.tables`", file=sys.stderr)
            return 1
        return 0
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
