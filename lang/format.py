"""`synsema fmt`: one canonical layout for Synsema source.

The formatter works on the token stream of lang.lexer, not on the syntax tree, because tokens
keep what the tree drops: comments (found in the gaps between tokens), the exact text of strings
and templates, and which brackets the author broke over several lines. The layout rules:

* blocks are indented by four spaces; a line holds one statement;
* one space around binary operators, `=`, `|>` and `=>`, after commas and colons, and none
  inside brackets, before a call's or an index's bracket, around `.`, or after a unary `-`;
* a bracket group stays on one line unless the author broke it over several lines, a comment
  sits inside it, or the line would pass `LINE_LENGTH` columns (then its largest group is
  broken); a broken group puts one element per line, indented one level, with a trailing comma
  where the grammar allows one, and its closing bracket on a line of its own;
* at most one blank line between statements, none at the start of a block, exactly one around
  every top-level definition (`task`, `test`, `type`, `enum`, `trace`/`measure` blocks);
* comments stay where they were: on the line they ended, or on their own line at the
  indentation of the block they sat in.

`format_source` refuses to return text whose syntax tree differs from the input's, so a bug
here can never change what a program means; the tests also check that formatting twice changes
nothing.
"""

from __future__ import annotations

import difflib
import os
import re
import sys
import tempfile

from synsema.lang.errors import SynError
from synsema.lang.lexer import VALUE_END, tokenize

LINE_LENGTH = 100
INDENT = "    "

_OPENER_CLOSER = {"_LPAR": "_RPAR", "LAMBDA_LPAR": "_RPAR", "LSQB": "_RSQB", "P_LSQB": "_RSQB",
                  "LBRACE": "_RBRACE", "P_LBRACE": "_RBRACE"}
_CLOSERS = frozenset(_OPENER_CLOSER.values())
_COMMAS = frozenset({"_COMMA", "_WCOMMA"})
_LAYOUT = frozenset({"_NL", "_INDENT", "_DEDENT"})
# A `(` or `[` right after one of these is a call or an index: no space before it.
_CALLABLE_END = frozenset({"NAME", "STRING", "TEMPLATE", "_RPAR", "_RSQB", "_RBRACE"})
_DEFINITIONS = frozenset({"TASK", "TEST", "TYPE", "ENUM", "TRACE", "MEASURE"})
_COMMENT = re.compile(r"--[^\n]*")


class _Comment:
    """A `--` comment; `own_line` when nothing but blanks precede it on its source line,
    `blank_before` when a blank line is right above it."""

    __slots__ = ("text", "own_line", "column", "blank_before")

    def __init__(self, text: str, own_line: bool, column: int, blank_before: bool):
        self.text = text.rstrip()
        self.own_line = own_line
        self.column = column
        self.blank_before = blank_before


class _Group:
    """A bracketed group of a line: its opener and closer tokens and its comma-separated
    elements (each a list of tokens, groups and comments)."""

    __slots__ = ("opener", "closer", "elements", "broken", "commas_allowed")

    def __init__(self, opener, commas_allowed: bool):
        self.opener = opener
        self.closer = None
        self.elements: list[list] = [[]]
        self.broken = False
        self.commas_allowed = commas_allowed


class _Line:
    """One logical line: its block level, items, the comment lines above it and the comment
    that ends it. A line with no items holds the comments that end a block."""

    __slots__ = ("level", "items", "leading", "trailing", "blank_before", "opens_block")

    def __init__(self, level: int, leading: list, blank_before: bool):
        self.level = level
        self.items: list = []
        self.leading = leading
        self.trailing: _Comment | None = None
        self.blank_before = blank_before     # a blank line right above its first code line
        self.opens_block = False


def format_source(source: str, file: str) -> str:
    """The canonical layout of `source`; raises SynError if it does not parse."""
    from synsema.lang.parser import parse
    if source.startswith("\ufeff"):
        source = source[1:]
    source = source.replace("\r\n", "\n").replace("\r", "\n")
    before = parse(source, file)
    result = _Layout(source, file).render()
    try:
        after = parse(result, file)
    except SynError as problem:
        raise SynError(f"the formatter produced code that does not parse ({problem.message}); "
                       "the file was left unchanged — please report this bug") from None
    if after.body != before.body:
        raise SynError("the formatter would change what the program means; the file was left "
                       "unchanged — please report this bug")
    return result


class _Layout:
    def __init__(self, source: str, file: str):
        self.src = source
        self.tokens = tokenize(source, file)
        self.unary: set[int] = set()   # ids of the `-` tokens that negate rather than subtract
        prev = None
        for tok in self.tokens:
            if tok.type == "MINUS" and prev not in VALUE_END:
                self.unary.add(id(tok))
            prev = tok.type

    # ---------------------------------------------------------------- reading
    def _end(self, tok) -> int:
        """Where a token's text ends in the source (strings are stored decoded)."""
        src = self.src
        if tok.type in _LAYOUT:
            return tok.start_pos + len(tok.value)
        if tok.type == "STRING":
            quote = src[tok.start_pos]
            i = tok.start_pos + 1
            while src[i] != quote:
                i += 2 if src[i] == "\\" else 1
            return i + 1
        if tok.type == "NOT_IN":
            return src.index("in", tok.start_pos + 3) + 2
        if tok.type in _CLOSERS:
            return tok.start_pos + 1
        return tok.start_pos + len(tok.value)

    def _text(self, tok) -> str:
        if tok.type == "NOT_IN":
            return "not in"
        return self.src[tok.start_pos:self._end(tok)]

    def _blank_above(self, pos: int, since: int) -> bool:
        """Whether the source line above the one holding `pos` is blank (and after `since`)."""
        src = self.src
        line_start = src.rfind("\n", 0, pos) + 1
        if line_start == 0:
            return False
        above_start = src.rfind("\n", 0, line_start - 1) + 1
        return above_start >= since and src[above_start:line_start - 1].strip() == ""

    def _comments(self, start: int, end: int) -> list[_Comment]:
        """The comments between two source positions (a gap between tokens)."""
        found = []
        src = self.src
        for m in _COMMENT.finditer(src, start, end):
            line_start = src.rfind("\n", 0, m.start()) + 1
            own = src[line_start:m.start()].strip() == ""
            found.append(_Comment(m.group(), own, m.start() - line_start,
                                  own and self._blank_above(m.start(), start)))
        return found

    def lines(self) -> tuple[list[_Line], list[_Comment]]:
        """The logical lines, and the comments after the last one."""
        lines: list[_Line] = []
        columns = [0]        # the source column of each open block level
        current: _Line | None = None
        stack: list[_Group] = []
        pending: list[_Comment] = []   # own-line comments waiting for the line they precede
        prev_end = 0
        prev_type = None
        for tok in self.tokens:
            gap = self._comments(prev_end, tok.start_pos)
            t = tok.type
            if current is None:
                pending.extend(gap)
                prev_end = tok.start_pos
                if t == "_INDENT":
                    columns.append(tok.start_pos - (self.src.rfind("\n", 0, tok.start_pos) + 1))
                    lines[-1].opens_block = True
                elif t == "_DEDENT":
                    # Comments indented into the closing block stay at its end.
                    inner = 0
                    while inner < len(pending) and pending[inner].column >= columns[-1]:
                        inner += 1
                    if inner:
                        lines.append(_Line(len(columns) - 1, pending[:inner], False))
                        del pending[:inner]
                    columns.pop()
                elif t == "_NL":
                    prev_end = self._end(tok)
                else:
                    current = _Line(len(columns) - 1, pending, self._blank_above(tok.start_pos, 0))
                    pending = []
                    lines.append(current)
                    prev_type = None
                if current is None:
                    continue
            elif t == "_NL":
                for comment in gap:
                    if current.trailing is None and not stack:
                        current.trailing = comment
                    else:
                        pending.append(comment)
                current = None
                prev_end = self._end(tok)
                continue
            else:
                for comment in gap:
                    self._add(current, stack, comment)
            if stack and self.src.count("\n", prev_end, tok.start_pos):
                stack[-1].broken = True
            if t in _OPENER_CLOSER:
                group = _Group(tok, self._commas_allowed(tok, prev_type, current))
                self._add(current, stack, group)
                stack.append(group)
            elif t in _CLOSERS:
                group = stack.pop()
                group.closer = tok
                if not group.elements[-1]:
                    group.elements.pop()
            elif t == "_COMMA" and stack:
                stack[-1].elements.append([])
            else:
                self._add(current, stack, tok)
            prev_type = t
            prev_end = self._end(tok)
        return lines, pending + self._comments(prev_end, len(self.src))

    @staticmethod
    def _add(line: _Line, stack: list[_Group], item) -> None:
        if stack:
            if isinstance(item, _Comment):
                stack[-1].broken = True
            stack[-1].elements[-1].append(item)
        else:
            line.items.append(item)

    @staticmethod
    def _commas_allowed(tok, prev_type, line: _Line) -> bool:
        """Whether the grammar takes a trailing comma in this group (not in `(expr)`, an index,
        or the scope of a capability)."""
        if tok.type in ("LBRACE", "P_LBRACE", "P_LSQB", "LAMBDA_LPAR"):
            return True
        if tok.type == "LSQB":
            return prev_type not in VALUE_END
        first = line.items[0] if line.items else None
        in_caps = first is not None and not isinstance(first, _Group) and first.type in (
            "REQUIRE", "SANDBOX")
        return prev_type in _CALLABLE_END and not in_caps

    # ---------------------------------------------------------------- writing
    def render(self) -> str:
        lines, trailing = self.lines()
        out: list[str] = []
        after_definition = False   # the last top-level statement was a definition
        for index, line in enumerate(lines):
            is_def = line.level == 0 and self._is_definition(line)
            pieces = [(c.blank_before, [c.text]) for c in line.leading]
            if line.items:
                rendered = self._sequence(line.items, line.level)
                if line.trailing is not None:
                    rendered[-1] += "  " + line.trailing.text
                pieces.append((line.blank_before, rendered))
            if index == 0:
                separate = False
            elif line.level == 0 and line.items and (is_def or after_definition):
                separate = True
            elif lines[index - 1].opens_block and lines[index - 1].level < line.level:
                separate = False
            else:
                separate = pieces[0][0]
            pad = INDENT * line.level
            for n, (blank, texts) in enumerate(pieces):
                if (separate if n == 0 else blank) and out:
                    out.append("")
                out.extend(texts if line.items and n == len(pieces) - 1 else [pad + t for t in texts])
            if line.level == 0 and line.items:
                after_definition = is_def
        for n, comment in enumerate(trailing):
            if out and ((n == 0 and after_definition) or comment.blank_before):
                out.append("")
            out.append(comment.text)
        return "\n".join(out) + "\n" if out else ""

    @staticmethod
    def _is_definition(line: _Line) -> bool:
        words = [i.type for i in line.items[:2] if not isinstance(i, (_Comment, _Group))]
        if words and words[0] == "EXPORT":
            words = words[1:]
        return bool(words) and words[0] in _DEFINITIONS

    def _flat(self, items: list) -> str | None:
        """The items on one line, or None when a comment or a broken group forbids it."""
        parts: list[str] = []
        prev = None
        for item in items:
            if isinstance(item, _Comment):
                return None
            if isinstance(item, _Group):
                if item.broken and item.elements:
                    return None
                inner = []
                for element in item.elements:
                    text = self._flat(element)
                    if text is None:
                        return None
                    inner.append(text)
                text = self._text(item.opener) + ", ".join(inner) + self._text(item.closer)
                parts.append(self._space(prev, item.opener) + text)
                prev = item.closer
            else:
                parts.append(self._space(prev, item) + self._text(item))
                prev = item
        return "".join(parts)

    def _sequence(self, items: list, level: int) -> list[str]:
        """Lay out a sequence of items starting at `level`, breaking groups where needed."""
        pad = INDENT * level
        flat = self._flat(items)
        if flat is not None and len(pad) + len(flat) <= LINE_LENGTH:
            return [pad + flat]
        groups = [i for i in items if isinstance(i, _Group) and i.elements]
        to_break = {id(g) for g in groups if self._flat([g]) is None}
        if not to_break and groups:
            to_break = {id(max(groups, key=lambda g: len(self._flat([g]) or "")))}
        out = [pad]
        prev = None
        for item in items:
            if isinstance(item, _Comment):   # a comment amid a line's own tokens: keep it above
                out.insert(len(out) - 1, pad + item.text)
                continue
            if isinstance(item, _Group) and id(item) in to_break:
                out[-1] += self._space(prev, item.opener) + self._text(item.opener)
                self._break(item, level, out)
                out.append(pad + self._text(item.closer))
                prev = item.closer
                continue
            if isinstance(item, _Group):
                text = self._flat([item])
                out[-1] += self._space(prev, item.opener) + text
                prev = item.closer
                continue
            out[-1] += self._space(prev, item) + self._text(item)
            prev = item
        return out

    def _break(self, group: _Group, level: int, out: list[str]) -> None:
        """One element per line, one level deeper, each with its comments."""
        pad = INDENT * (level + 1)
        count = len(group.elements)
        for n, element in enumerate(group.elements):
            start, end = 0, len(element)
            while start < end and isinstance(element[start], _Comment):
                comment = element[start]
                start += 1
                if not comment.own_line and start == 1:
                    out[-1] += "  " + comment.text   # it ended the line before this element
                else:
                    out.append(pad + comment.text)
            while end > start and isinstance(element[end - 1], _Comment):
                end -= 1
            if start == end:
                continue
            body = self._sequence(element[start:end], level + 1)
            if n < count - 1 or group.commas_allowed:
                body[-1] += ","
            out.extend(body)
            for comment in element[end:]:
                if not comment.own_line and comment is element[end]:
                    out[-1] += "  " + comment.text
                else:
                    out.append(pad + comment.text)

    def _space(self, prev, tok) -> str:
        """The space between two neighbouring tokens on one line."""
        if prev is None:
            return ""
        p, t = prev.type, tok.type
        if t in _CLOSERS or t in _COMMAS or t == "_COLON" or t == "_DOT" or p == "_DOT":
            return ""
        if p in _OPENER_CLOSER or p == "ELLIPSIS":
            return ""
        if t in ("_LPAR", "LSQB") and p in _CALLABLE_END:
            return ""
        if p == "MINUS" and id(prev) in self.unary:
            return " " if t == "MINUS" else ""   # `- -x`, never the comment `--x`
        return " "


# ---------------------------------------------------------------- the command
def source_files(paths: list[str]) -> list[str]:
    """The files named, and the `.syn` files under directories (hidden ones and virtual
    environments skipped), in a stable order; a missing path raises FileNotFoundError."""
    found: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "node_modules")
                found.extend(os.path.join(root, f) for f in sorted(files) if f.endswith(".syn"))
        elif os.path.isfile(path) or path == "-":
            found.append(path)
        else:
            raise FileNotFoundError(path)
    return found


def run_fmt(paths: list[str], check: bool, diff: bool, out, err) -> int:
    """Format files in place (or, with `check`/`diff`, only report): 0 when nothing needed or
    failed, 1 when `check` finds a file to reformat or a file cannot be formatted."""
    changed = unchanged = failed = 0
    for path in source_files(paths):
        name = "<stdin>" if path == "-" else path
        try:
            if path == "-":
                source = sys.stdin.read()
            else:
                with open(path, encoding="utf-8", newline="") as handle:
                    source = handle.read()
        except (OSError, UnicodeDecodeError) as problem:
            reason = "it is not UTF-8 text" if isinstance(problem, UnicodeDecodeError) else problem.strerror
            err(f"error: cannot format {name}: {reason}\n")
            failed += 1
            continue
        try:
            result = format_source(source, name)
        except SynError as problem:
            err(f"error: cannot format {name}: {problem.report()}\n")
            failed += 1
            continue
        if path == "-" and not (check or diff):
            out(result)
            continue
        if result == source:
            unchanged += 1
            continue
        changed += 1
        if diff:
            out("".join(difflib.unified_diff(source.splitlines(True), result.splitlines(True),
                                             f"{name}\t(original)", f"{name}\t(formatted)")))
        if check or diff:
            if check:
                err(f"would reformat {name}\n")
            continue
        _write_atomically(path, result)
        err(f"reformatted {name}\n")
    if paths != ["-"]:
        verb = "would be reformatted" if check or diff else "reformatted"
        parts = [f"{changed} {_files(changed)} {verb}", f"{unchanged} {_files(unchanged)} left unchanged"]
        if failed:
            parts.append(f"{failed} {_files(failed)} failed to format")
        err(", ".join(parts) + ".\n")
    return 1 if failed or (check and changed) else 0


def _files(n: int) -> str:
    return "file" if n == 1 else "files"


def _write_atomically(path: str, text: str) -> None:
    """Replace `path` with `text`, keeping its permissions; never a half-written file."""
    folder = os.path.dirname(os.path.abspath(path))
    handle, partial = tempfile.mkstemp(prefix=".fmt-", suffix=".syn", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        os.chmod(partial, os.stat(path).st_mode & 0o7777)
        os.replace(partial, path)
    except BaseException:
        if os.path.exists(partial):
            os.unlink(partial)
        raise
