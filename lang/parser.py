"""The front end's public entry points: `parse` (a file) and `parse_expression`.

The LALR tables come from lang.tables (built by Lark from grammar/synsema.lark, shipped as
plain data beside it), so parsing imports no Lark. Tokens come from lang.lexer. `_feed` runs
the automaton itself, so a token the parser rejects is known by its index and lang.parse_errors
can explain it in Synsema terms, and each reduce calls the lang.transform builder directly: the
children a rule keeps (Lark's rule shaping: `_` terminals dropped, `_rule`s spliced into their
parent, None for an absent `[…]`, `?rule`s with one child passed through) are worked out once
per rule, not per reduce, and no tree other than the AST is made. The same loop measures how
deeply the tree nests, so the separate nesting walk of lang.checks runs only on the rare input
that comes near the limit.
"""

from __future__ import annotations

from synsema.lang import ast, checks
from synsema.lang import tables as grammar_tables
from synsema.lang.errors import Span, parse_error
from synsema.lang.gcpause import collector_paused
from synsema.lang.lexer import Token, Tokens, scan
from synsema.lang.transform import Builder


def parse(source: str, file: str) -> ast.Module:
    """Parse a whole source file; any bad input raises SynError (phase Lexer or Parse)."""
    if source.startswith("\ufeff"):  # a UTF-8 byte-order mark some editors write
        source = source[1:]
    with collector_paused():
        tokens = scan(source, file)
        module, watch = _feed(tokens, "module", file, source)
        if watch.height > checks.MAX_NESTING or watch.label_calls:
            checks.check_nesting(module)
    return module


def parse_expression(source: str, file: str, line: int = 1, col: int = 1) -> ast.Expr:
    """Parse one expression; `line`/`col` say where it starts in `file` (template holes)."""
    with collector_paused():
        return _expression(source, file, line, col)[0]


def _expression(source: str, file: str, line: int, col: int) -> tuple[ast.Expr, int]:
    """The expression and its nesting height (see `_Watch`)."""
    tokens = scan(source, file, line, col, expression=True)
    if not tokens:
        raise parse_error("Expected an expression", Span(file, line, col))
    expr, watch = _feed(tokens, "lone_expr", file, source)
    # As a statement of its own the expression sits one level down.
    if watch.height + 1 > checks.MAX_NESTING or watch.label_calls:
        checks.check_nesting(ast.Module(file, [ast.ExprStmt(expr, span=expr.span)]))
    return expr, watch.height


def _parse_hole(source: str, file: str, line: int, col: int) -> ast.Expr:
    """A template hole: parsed like `parse_expression`; its height joins the template's."""
    expr, height = _expression(source, file, line, col)
    if height > _watch.holes:
        _watch.holes = height
    return expr


_BUILDER = Builder(_parse_hole)


class _Watch:
    """What one `_feed` learns on the way for the nesting check of lang.checks.

    `height` bounds from above how deep the finished tree nests, counted as `check_nesting`
    counts (a node is one level, the operand that continues a flat chain `a + b + …` is not a
    level of its own). It is worked out per reduce from the children's heights: a token counts
    as 1, a node one more than its tallest child, a list or pair the builder returns as its
    tallest child, and a `match` arm or pattern one more again, because the builder wraps an
    expression in a pattern node there. `holes` is the tallest template hole parsed during the
    current reduce. `label_calls` is set when a call by the name of a label builtin is built,
    since check_nesting also applies their load-time rules. Only when the height passes the
    limit, or such a call exists, is the exact walk needed.
    """

    __slots__ = ("height", "holes", "label_calls")

    def __init__(self):
        self.height = 0
        self.holes = 0
        self.label_calls = False


_watch = _Watch()

# Builder methods that return a list or a pair (or pass a child on), not a node: no level.
_TRANSPARENT = frozenset({"module", "lone_expr", "block", "caps", "params", "kwargs", "kwarg",
                          "otherwise_when", "entry", "named_arg", "type_field", "variant",
                          "export_let", "export_def"})
# The builder wraps an expression in a pattern node below these: one extra level.
_PATTERN_HOLDERS = frozenset({"match_arm", "p_list", "p_map", "p_entry"})
# Left-associative chains: the first child continues the chain at the same depth
# (lang.checks._CHAIN_CONTINUATION names the same operands on the nodes).
_CHAINS = frozenset({"binary", "and_op", "or_op", "pipe_op"})
# Rules whose builder parses template holes.
_TEMPLATE_HOLDERS = frozenset({"template", "entry"})
# `_reducer`'s mark for a `_rule`: its value is its children list, for the parent to splice in,
# never copied (a module's statements are one left-recursive list growing in place).
_SPLICED = object()


def _reducer(rule: list, builder: Builder, promoting) -> tuple:
    """The action entry (see `_Tables`) of a reduce by `rule` (a lang.tables rule record), whose
    function replaces the rule's values and their heights at the top of the two stacks with the
    new value and its height. A rule of two or more symbols gets its entry from `promoting`
    (`_Tables._promoting`), with what lang.reduce_code needs to write its own function.

    The children handed to the builder are shaped as Lark's parse-tree builder shapes them
    (`maybe_placeholders=True`, LALR): kept symbols in order, a `_rule` child spliced in, and
    None where an optional part is absent.
    """
    origin, alias, template_source, expand1, keep_all, expansion, empty_indices = rule
    size = len(expansion)
    placeholders = [0] * (size + 1)  # how many Nones go before each symbol, and after the last
    if empty_indices:
        slot = 0
        for absent in empty_indices:
            if absent:
                placeholders[slot] += 1
            else:
                slot += 1
    plan: list[tuple[int, bool, int]] = []  # (index, splice, Nones before it)
    nones = 0
    for i, (symbol, is_term, filter_out) in enumerate(expansion):
        nones += placeholders[i]
        if keep_all or not filter_out:
            plan.append((i, not is_term and symbol.startswith("_"), nones))
            nones = 0
    trailing = nones + placeholders[size]
    name = alias or template_source or origin
    inlined = origin.startswith("_")
    single = expand1 and not alias

    if single:
        # `?rule` with one kept child: the child itself. (Lark would also accept a `?rule`
        # alternative that keeps several children; this grammar has none, and says so here.)
        if len(plan) != 1 or plan[0][1] or plan[0][2] or trailing:
            raise RuntimeError(f"grammar: `?{name}` keeps more than one child without an alias")
        build = None
    elif inlined:
        build = _SPLICED
    else:
        build = getattr(builder, name, None)
        if build is None:
            raise RuntimeError(f"grammar rule {name!r} has no method in lang.transform.Builder")

    simple = [i for i, splice, before in plan if not splice and not before] if not trailing else None
    if simple is not None and len(simple) != len(plan):
        simple = None
    whole = simple is not None and len(simple) == size  # the values are the children

    def shape(v: list) -> list:
        """The builder's children from the rule's values `v`."""
        if simple is not None:
            return v if whole else [v[i] for i in simple]
        out: list = []
        for i, splice, before in plan:
            if before:
                out += [None] * before
            if splice:
                if out:
                    out += v[i]
                else:  # reuse the left-recursive list: LALR values are never shared
                    out = v[i]
            else:
                out.append(v[i])
        if trailing:
            out += [None] * trailing
        return out

    weight = 0 if inlined or build is None or name in _TRANSPARENT else 1
    if name in _PATTERN_HOLDERS:
        weight += 1
    chain = name in _CHAINS
    holes = name in _TEMPLATE_HOLDERS
    label = name == "call"
    pick = plan[0][0] if build is None else 0

    if size == 1 and build is not None and not (holes or label):
        # The commonest reduces (`name`, `number`, a statement into its list): the new value
        # takes the old one's place on the stack.
        if build is _SPLICED and whole:
            def reduce_one(values: list, heights: list):
                values[-1] = [values[-1]]
        elif build is _SPLICED:
            def reduce_one(values: list, heights: list):
                values[-1] = shape([values[-1]])
        elif whole:  # `_feed` itself does `heights[-1] += weight; values[-1] = build([values[-1]])`
            return (1, 1, build, origin, weight)
        else:
            def reduce_one(values: list, heights: list):
                heights[-1] += weight
                values[-1] = build(shape([values[-1]]))
        return (False, 1, reduce_one, origin)

    def reduce(values: list, heights: list):
        if size:
            v = values[-size:]
            del values[-size:]
            h = heights[-size:]
            del heights[-size:]
            if chain:
                height = max(h[0], 1 + max(h[1:]))
            else:
                height = weight + max(h)
        else:
            v = []
            height = weight
        if build is None:
            value = v[pick]
        elif build is _SPLICED:
            value = shape(v)
        elif holes:
            outer, _watch.holes = _watch.holes, 0
            value = build(shape(v))
            if _watch.holes + 1 > height:
                height = _watch.holes + 1
            _watch.holes = outer
        else:
            value = build(v if whole else shape(v))
            if label and type(value.func) is ast.Name and value.func.name in checks.LABEL_BUILTINS:
                _watch.label_calls = True
        values.append(value)
        heights.append(height)

    if size >= 2 and not (holes or label):
        return promoting(reduce, size, origin, (name, size, plan, trailing, build, weight, chain))
    return (False, size, reduce, origin)


class _Tables:
    """The tables of lang.tables, rearranged once per process for `_feed`'s loop.

    `actions[state][terminal or rule name]` is `(True, next_state, actions[next_state])` for a
    shift (and for the goto after a reduce), `(False, size, reduce, rule name)` for a reduce by a
    rule whose right-hand side has `size` symbols (`reduce` from `_reducer`), `(1, 1, build,
    rule name, weight)` for a one-symbol rule whose value is `build([value])` (`_feed` does that
    itself), or `(None, rule name)` for a reduce that passes its one child through unchanged (a
    `?rule` with one symbol, such as `?sum: term`). Most reduces are those; a run of them depends
    only on the two states at the top of the stack and the lookahead, so `_feed` remembers where
    each run ends (`chains`), and where each reduce's goto and the run after it end (`after`,
    keyed by the state below the rule's symbols, the rule and the lookahead).

    Building checks the data's shape (every state, rule and symbol it names exists): malformed
    tables raise ValueError rather than make a parser that fails in the middle of a parse.
    """

    def __init__(self, data: dict, builder: Builder):
        try:
            symbols, rules, states = data["symbols"], data["rules"], data["states"]
            count = len(states)
            self.actions: list[dict] = [dict() for _ in range(count)]
            entries: list[tuple] = [(True, state, self.actions[state]) for state in range(count)]
            for rule in rules:
                origin, alias, _, expand1, _, expansion, _ = rule
                if len(expansion) == 1 and expand1 and not alias:
                    entries.append((None, origin))
                else:
                    entries.append(_reducer(rule, builder, self._promoting))
            used: set[int] = set()
            for row, flat in zip(self.actions, states, strict=True):
                if flat and min(flat) < 0:
                    raise ValueError("a negative index")
                actions = flat[1::2]
                row.update(zip(map(symbols.__getitem__, flat[::2]), map(entries.__getitem__, actions),
                               strict=True))
                used.update(actions)
            self.start = {name: self._state(data["start"][name]) for name in grammar_tables.START}
            self.end = {name: self._state(data["end"][name]) for name in grammar_tables.START}
            names = set(symbols)
            for action in used:
                entry = entries[action]
                rule = entry[1] if entry[0] is None else entry[3] if entry[0] is not True else None
                if rule is not None and rule not in names:
                    raise ValueError(f"rule {rule!r} is never a goto")
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, RuntimeError) as err:
            raise ValueError(f"malformed parse tables: {err}") from None
        self.chains: dict[tuple[int, int, str], int] = {}
        self.after: dict[tuple[int, str, str], int] = {}
        self.users: dict[int, list[tuple[dict, str]]] | None = None

    promote_after = 100  # uses of a rule before its reduce is generated (lang.reduce_code)

    def _promoting(self, reduce, size: int, rule: str, recipe: tuple) -> tuple:
        """The entry for a reduce by `rule` that counts its uses and, at `promote_after`, puts
        the rule's generated reduce (lang.reduce_code, `generated_reduce(*recipe)`) in its place
        in every row."""
        uses = 0

        def first_uses(values: list, heights: list):
            nonlocal uses
            uses += 1
            if uses == self.promote_after:
                from synsema.lang.reduce_code import generated_reduce, replace_entry
                replace_entry(self, entry, (False, size, generated_reduce(*recipe), rule))
            reduce(values, heights)

        entry = (False, size, first_uses, rule)
        return entry

    def _state(self, state) -> int:
        if type(state) is not int or not 0 <= state < len(self.actions):
            raise ValueError(f"no state {state!r}")
        return state

    def after_reduce(self, below: int, rule: str, kind: str) -> int:
        """The top state after a reduce by `rule` with `below` under its symbols, on lookahead
        `kind`: the goto, then any run of pass-through reduces from there (`chain_end`)."""
        end = self.chain_end(below, self.actions[below][rule][1], kind)
        self.after[(below, rule, kind)] = end
        return end

    def chain_end(self, below: int, top: int, kind: str) -> int:
        """The top state after the run of pass-through reduces that starts in `top` (with
        `below` under it) on lookahead `kind`."""
        key = (below, top, kind)
        end = self.chains.get(key)
        if end is None:
            end = top
            actions = self.actions
            entry = actions[end].get(kind)
            while entry is not None and entry[0] is None:
                end = actions[below][entry[1]][1]
                entry = actions[end].get(kind)
            self.chains[key] = end
        return end


_TABLES: _Tables | None = None


def _tables() -> _Tables:
    """The tables, taken in on the first parse."""
    global _TABLES
    if _TABLES is None:
        _TABLES = tables_from(grammar_tables.tables_path())
    return _TABLES


def tables_from(path: str) -> _Tables:
    """The parser's tables from the file at `path` when it is sound (lang.tables.read), else
    built from the grammar now: a file that passes its checksums but does not hold together
    is not used either."""
    grammar = grammar_tables.grammar_text()
    data = grammar_tables.read(path, grammar)
    if data is not None:
        try:
            return _Tables(data, _BUILDER)
        except ValueError:
            pass
    return _Tables(grammar_tables.build(grammar), _BUILDER)


def _feed(tokens: Tokens, start: str, file: str, source: str):
    """Run the LALR automaton over `tokens` (then the end marker); return the tree the builder
    made and the `_Watch` of the run. A token is shifted as its index in `tokens` (the builder
    reads the columns). A token no action accepts is explained by lang.parse_errors (from the
    tokens, and the `source` they came from for the fix it offers)."""
    global _watch
    tables = _tables()
    actions = tables.actions
    chains = tables.chains
    end_state = tables.end[start]
    states = [tables.start[start]]
    values: list = []
    heights: list = []
    builder = _BUILDER
    outer = builder.file, builder.types, builder.values, builder.lines, builder.cols
    builder.file, builder.types, builder.values, builder.lines, builder.cols = (
        file, tokens.types, tokens.values, tokens.lines, tokens.cols)
    outer_watch = _watch
    watch = _watch = _Watch()
    state = states[-1]
    row = actions[state]  # the actions of the state at the top of the stack
    after = tables.after
    try:
        for i, kind in enumerate(tokens.types + ["$END"]):
            while True:
                try:
                    entry = row[kind]
                except KeyError:
                    if kind == "$END" and state == end_state:
                        watch.height = heights[-1]
                        return values[-1], watch
                    raise _unexpected(tokens, i, {s for s in row if s.isupper()}, file, source) from None
                flag = entry[0]
                if flag is True:  # shift
                    state = entry[1]
                    row = entry[2]
                    states.append(state)
                    values.append(i)
                    heights.append(1)
                    break
                if flag is None:  # a run of pass-through reduces
                    key = (states[-2], state, kind)
                    state = chains.get(key)
                    if state is None:
                        state = tables.chain_end(*key)
                    states[-1] = state
                    row = actions[state]
                    continue
                size = entry[1]
                if flag is False:
                    entry[2](values, heights)
                else:
                    heights[-1] += entry[4]
                    values[-1] = entry[2]([values[-1]])
                if size == 1:
                    key = (states[-2], entry[3], kind)
                    state = after.get(key)
                    if state is None:
                        state = tables.after_reduce(*key)
                    states[-1] = state
                else:
                    if size:
                        del states[-size:]
                    key = (states[-1], entry[3], kind)
                    state = after.get(key)
                    if state is None:
                        state = tables.after_reduce(*key)
                    states.append(state)
                row = actions[state]
    finally:
        builder.file, builder.types, builder.values, builder.lines, builder.cols = outer
        _watch = outer_watch


def _unexpected(tokens: Tokens, i: int, expected: set[str], file: str, source: str):
    """lang.parse_errors' error for token `i` (`len(tokens)`: the end of the input)."""
    from synsema.lang.parse_errors import explain_unexpected
    listed = tokens.tokens()
    last = listed[-1] if listed else None
    end = Token("$END", "", 0, last.line if last else 1, last.column if last else 1)
    return explain_unexpected([*listed, end], i, expected, file, source)
