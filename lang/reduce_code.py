"""Reduce functions written for one grammar rule each, for the rules a parse uses most.

lang.parser reduces by a rule of two or more symbols with one general function that slices
the stacks and shapes the children from the rule's plan; a function written out for the rule
does the same work in straight-line code. Compiling one costs about as much as a hundred
reduces, so lang.parser asks for it only once a rule has been used that often, and a short
script never imports this module.
"""

from __future__ import annotations

from synsema.lang.parser import _SPLICED


def generated_reduce(name: str, size: int, plan: list, trailing: int, build, weight: int, chain: bool):
    """The reduce for a rule of `size` >= 2 symbols (the arguments are lang.parser._reducer's
    view of the rule): the values unpacked into locals, the children list written out (what
    `shape` makes, a leading `_rule` list grown in place), the heights' maximum without max()."""
    values = [f"v{i}" for i in range(size)]
    heights = [f"h{i}" for i in range(size)]
    lines = ["def reduce(values, heights):",
             f"    {', '.join(values)} = values[-{size}:]",
             f"    del values[-{size - 1}:]",
             f"    {', '.join(heights)} = heights[-{size}:]",
             f"    del heights[-{size - 1}:]"]
    rest = heights[1:] if chain else heights
    lines.append(f"    top = {rest[0]}")
    for h in rest[1:]:
        lines.append(f"    if {h} > top: top = {h}")
    if chain:
        lines.append("    top += 1")
        lines.append("    if h0 > top: top = h0")
    elif weight:
        lines.append(f"    top += {weight}")
    lines.append("    heights[-1] = top")
    if build is None:
        lines.append(f"    values[-1] = v{plan[0][0]}")
    else:
        items: list[str] = []
        grown = None
        for k, (i, splice, before) in enumerate(plan):
            items += ["None"] * before
            if splice and k == 0 and not before:
                grown = f"v{i}"  # reuse the left-recursive list: LALR values are never shared
            else:
                items.append(f"*v{i}" if splice else f"v{i}")
        items += ["None"] * trailing
        if grown is None:
            lines.append(f"    c = [{', '.join(items)}]")
        else:
            lines.append(f"    c = {grown}")
            if items:
                lines.append(f"    c += [{', '.join(items)}]")
        lines.append("    values[-1] = c" if build is _SPLICED else "    values[-1] = build(c)")
    namespace = {"build": build}
    exec("\n".join(lines) + "\n", namespace)  # made from the grammar's own rule records
    reduce = namespace["reduce"]
    reduce.__qualname__ = f"reduce {name}"
    return reduce


def replace_entry(tables, old: tuple, new: tuple) -> None:
    """Put action entry `new` wherever `old` stands in the rows of `tables` (lang.parser._Tables)."""
    if tables.users is None:  # where each entry is used, found at the first replacement
        tables.users = {}
        for row in tables.actions:
            for symbol, entry in row.items():
                if entry[0] is False:
                    tables.users.setdefault(id(entry), []).append((row, symbol))
    for row, symbol in tables.users.pop(id(old), ()):
        row[symbol] = new
