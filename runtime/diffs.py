"""What two values look like and where they differ, for a failed assertion, in bounded space.

A failed `assert_eq` (or `assert(a == b)`) should point at the difference, as pytest does,
instead of making the reader compare two long displays: `differences(got, expected)` gives the
differing positions of two lists, the missing, extra and changed keys of two maps (recursing
along paths like `[2].name`), and a unified diff of two multi-line texts. `preview(value)` is a
value's display form cut to a width, with a count of what was left out.

The values come from a script, so they may be hostile: a list of a million items, a text of a
million lines, nesting thousands deep, or a value that holds one list many times over (`set x
to [x, x]` in a loop, exponentially many paths through linear memory). Every function here
therefore works within fixed budgets (characters shown, levels entered, values visited,
lines diffed) and says what it left out, so its cost never grows with the size of the values
beyond a linear scan of what it reads.

Private values (under `--labels`) are shown as `print` would show them, `private(app)`, and a
diff that meets one stops without a word about where or how the values differ.
"""

from __future__ import annotations

import difflib

from synsema.lang.errors import SynError
from synsema.runtime.labels import Labeled
from synsema.runtime.values import EnumValue, display, equal, quote, type_name

WIDTH = 80             # characters of one value's preview
DEPTH = 6              # levels of nesting a preview enters
LINES = 12             # lines of differences shown
NESTING = 8            # levels a diff follows a difference down
VISITS = 1_000_000       # values compared while looking for differences
TEXT_LINES = 400       # lines of each text, past their common start and end, that difflib sees
LINE_WIDTH = 100       # characters of one diffed line shown
KEY_WIDTH = 30         # characters of one map key shown


# ------------------------------------------------------------------ previews
def preview(value, width: int = WIDTH) -> str:
    """The display form of `value` (texts quoted, as inside a list) cut to about `width`."""
    budget = [width]
    return _preview(value, budget, 0)


def _preview(value, budget: list, depth: int) -> str:
    t = type(value)
    if t is str:
        return _text(value, budget)
    if t is int:
        return _number(value, budget)
    if t is Labeled:
        shown = value.display()
    elif t is list or t is dict:
        shown = _container(value, budget, depth)
    elif t is EnumValue and value.fields:
        shown = f"{value.enum}.{value.variant}(" + _items(
            [(None, v) for v in value.fields], len(value.fields), budget, depth) + ")"
    else:
        shown = display(value)
        if len(shown) > max(budget[0], 20):
            shown = shown[:max(budget[0], 20)] + "…"
    budget[0] -= len(shown)
    return shown


def _text(value: str, budget: list) -> str:
    room = max(budget[0], 16)
    head = value[:room].replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    if len(value) > room:
        shown = f'"{head[:room]}…" ({len(value)} characters)'
    else:
        shown = f'"{head}"'
    budget[0] -= len(shown)
    return shown


def _number(value: int, budget: list) -> str:
    if value.bit_length() > 256:
        shown = f"<an integer of {value.bit_length()} bits>"
    else:
        shown = str(value)
    budget[0] -= len(shown)
    return shown


def _container(value, budget: list, depth: int) -> str:
    opener, closer = ("[", "]") if type(value) is list else ("{", "}")
    if not value:
        return opener + closer
    if depth >= DEPTH:
        return f"{opener}… {len(value)} item{'s' if len(value) != 1 else ''}{closer}"
    # Only as many entries as could fit are looked at: a million-item list costs what ten do.
    room = max(budget[0], 0) // 3 + 1
    if type(value) is list:
        entries = [(None, v) for v in value[:room]]
    else:
        entries = []
        for key in value:
            if len(entries) >= room:
                break
            entries.append((key, value[key]))
    return opener + _items(entries, len(value), budget, depth) + closer


def _items(entries: list, total: int, budget: list, depth: int) -> str:
    parts = []
    for key, item in entries:
        if budget[0] <= 0 and parts:
            break
        label = "" if key is None else f"{_cut(key)}: "
        budget[0] -= len(label) + 2
        parts.append(label + _preview(item, budget, depth + 1))
    if len(parts) < total:
        parts.append(f"… {total - len(parts)} more")
    return ", ".join(parts)


# ------------------------------------------------------------------ differences
class _Stop(Exception):
    """The diff gives up: it met a private value, or used up its budget of visits."""

    def __init__(self, why: str | None):
        super().__init__(why)
        self.why = why


class _Diff:
    def __init__(self, names: tuple[str, str]):
        self.got, self.expected = names
        self.lines: list[str] = []
        self.left_out = 0
        self.visits = VISITS

    def add(self, line: str) -> None:
        if len(self.lines) < LINES:
            self.lines.append(line)
        else:
            self.left_out += 1

    def full(self) -> bool:
        return len(self.lines) >= LINES

    def same(self, a, b) -> bool:
        """Structural equality like `==`, within the budget of visits and blind to privacy."""
        todo = [(a, b)]
        while todo:
            a, b = todo.pop()
            self.visits -= 1
            if self.visits < 0:
                raise _Stop(f"the comparison stopped after {VISITS} values")
            if a is b and type(a) is not Labeled:
                continue
            ta, tb = type(a), type(b)
            if ta is Labeled or tb is Labeled:
                raise _Stop(None)
            if ta is list and tb is list:
                if len(a) != len(b):
                    return False
                todo.extend(reversed(list(zip(a, b))))   # first items first, as `==` goes
            elif ta is dict and tb is dict:
                if len(a) != len(b) or any(k not in b for k in a):
                    return False
                todo.extend(reversed([(v, b[k]) for k, v in a.items()]))
            elif ta is EnumValue and tb is EnumValue:
                if (a.enum, a.variant, len(a.fields)) != (b.enum, b.variant, len(b.fields)):
                    return False
                todo.extend(reversed(list(zip(a.fields, b.fields))))
            elif ta in _NESTED or tb in _NESTED:
                return False
            else:
                try:
                    if not equal(a, b):
                        return False
                except SynError:  # a decimal against a float: not equal, for a diff's purpose
                    return False
        return True

    def walk(self, got, expected, path: str, depth: int) -> None:
        if self.full():
            self.left_out += 1
            return
        if type(got) is Labeled or type(expected) is Labeled:
            raise _Stop(None)
        if depth > NESTING:
            self.add(f"{path}: differs (nested deeper than {NESTING} levels, not shown)")
        elif type(got) is list and type(expected) is list:
            self.lists(got, expected, path, depth)
        elif type(got) is dict and type(expected) is dict:
            self.maps(got, expected, path, depth)
        elif type(got) is str and type(expected) is str and ("\n" in got or "\n" in expected):
            self.texts(got, expected, path)
        elif type(got) is str and type(expected) is str and max(len(got), len(expected)) > WIDTH:
            self.long_texts(got, expected, path)
        elif path:
            self.add(f"{path}: {self.both(got, expected)}")

    def both(self, got, expected) -> str:
        shown_got, shown_expected = preview(got), preview(expected)
        if shown_got == shown_expected:
            shown_got += f" ({type_name(got)})"
            shown_expected += f" ({type_name(expected)})"
        return f"{self.got} {shown_got}, {self.expected} {shown_expected}"

    def lists(self, got: list, expected: list, path: str, depth: int) -> None:
        if len(got) != len(expected):
            self.add(f"{_at(path)}{self.got} {len(got)} items, {self.expected} {len(expected)}")
        for i in range(min(len(got), len(expected))):
            if not self.same(got[i], expected[i]):
                self.walk(got[i], expected[i], f"{path}[{i}]", depth + 1)
        self.extra(got, expected, range(len(expected), len(got)), range(len(got), len(expected)),
                   lambda i: f"{path}[{i}]")

    def maps(self, got: dict, expected: dict, path: str, depth: int) -> None:
        for key in expected:
            if key in got and not self.same(got[key], expected[key]):
                self.walk(got[key], expected[key], path + _key(key), depth + 1)
        self.extra(got, expected, [k for k in got if k not in expected], [k for k in expected if k not in got],
                   lambda k: path + _key(k))

    def extra(self, got, expected, only_got, only_expected, where) -> None:
        for name, side, positions in ((self.got, got, only_got), (self.expected, expected, only_expected)):
            for n, position in enumerate(positions):
                if self.full():
                    self.left_out += len(positions) - n
                    break
                if type(side[position]) is Labeled:
                    raise _Stop(None)
                self.add(f"{where(position)}: only in {name}: {preview(side[position])}")

    def texts(self, got: str, expected: str, path: str) -> None:
        a, b = got.splitlines(), expected.splitlines()
        start = 0
        while start < min(len(a), len(b)) and a[start] == b[start]:
            start += 1
        end = 0
        while end < min(len(a), len(b)) - start and a[-1 - end] == b[-1 - end]:
            end += 1
        self.add(f"{_at(path)}texts differ (- {self.expected}, + {self.got}):")
        first, after = max(start - 2, 0), max(end - 2, 0)   # two lines of context on each side
        a_part, b_part = a[first:len(a) - after], b[first:len(b) - after]
        if len(a_part) > TEXT_LINES or len(b_part) > TEXT_LINES:
            lines = [f"@@ from line {start + 1}; the texts differ over more than {TEXT_LINES} lines @@",
                     *(f"-{line}" for line in b[start:start + 3]), *(f"+{line}" for line in a[start:start + 3])]
        else:
            lines = list(difflib.unified_diff(b_part, a_part, lineterm="", n=2))[2:]
            lines = [_renumber(line, first) if line.startswith("@@") else line for line in lines]
        for line in lines:
            self.add("  " + (line if len(line) <= LINE_WIDTH else line[:LINE_WIDTH] + "…"))

    def long_texts(self, got: str, expected: str, path: str) -> None:
        at = 0
        while at < min(len(got), len(expected)) and got[at] == expected[at]:
            at += 1
        self.add(f"{_at(path)}texts differ at character {at + 1} "
                 f"({self.got} {len(got)} characters, {self.expected} {len(expected)}):")
        start = max(at - WIDTH // 2, 0)
        pad = max(len(self.got), len(self.expected)) + 1
        for name, text in ((self.got, got), (self.expected, expected)):
            window = text[start:start + WIDTH]
            shown = _text(window, [WIDTH])[1:-1] if window else ""
            self.add(f"  {name + ':':<{pad}} {'…' if start else ''}{shown}{'…' if start + WIDTH < len(text) else ''}")


_NESTED = (list, dict, EnumValue, Labeled)


def _at(path: str) -> str:
    return f"{path}: " if path else ""


def _cut(key: str) -> str:
    """A map key as a preview or a path shows it: a key can be as long as any text."""
    return key if len(key) <= KEY_WIDTH else key[:KEY_WIDTH] + "…"


def _key(key: str) -> str:
    return f".{_cut(key)}" if key.isidentifier() else f"[{quote(_cut(key))}]"


def _renumber(hunk: str, offset: int) -> str:
    """difflib numbers the lines of the part it saw; the reader wants the lines of the text."""
    try:
        _, old, new, _ = hunk.split(" ", 3)
        def shift(spec: str) -> str:
            sign, rest = spec[0], spec[1:]
            first, _, count = rest.partition(",")
            return f"{sign}{int(first) + offset}" + (f",{count}" if count else "")
        return f"@@ {shift(old)} {shift(new)} @@"
    except ValueError:
        return hunk


def differences(got, expected, names: tuple[str, str] = ("got", "expected")) -> list[str]:
    """Lines saying where `got` differs from `expected` (nothing for two plain scalars, whose
    previews already say it all); `names` are how the lines call the two sides."""
    diff = _Diff(names)
    try:
        if diff.same(got, expected):
            return []
        diff.walk(got, expected, "", 0)
    except _Stop as stopped:
        if stopped.why is None:  # private data: not a word about where it differs
            return []
        diff.lines.append(f"… {stopped.why}; the rest is not shown")
        return diff.lines
    if diff.left_out:
        diff.lines.append(f"… {diff.left_out} more difference{'s' if diff.left_out != 1 else ''} not shown")
    return diff.lines
