"""`match` written into a generated body (codegen.Generator.s_Match hands it here).

Split from runtime.codegen, which every program that defines a task or loops imports: this part,
with runtime.patterns' literal tests, is loaded at the first `match` a generated body holds, so a
program without one does not load its code. The functions take the Generator writing the body
(`gen`) and write into it exactly as its own methods do.
"""

from __future__ import annotations

import re

from synsema.lang import ast
from synsema.runtime.codegen import _inline_operator
from synsema.runtime.patterns import NOT_LITERAL, literal_match, literal_mismatch, literal_value

# A jump on a `match` subject's first item writes the tests of the arms that do not name one into
# every group: at most this many copies of them (head_keys).
_OPEN_ARM_COPIES = 24

# A `match` subject read from a Python local needs no temporary: nothing while its arms are
# tried can rebind it (a guard is an expression; an arm binds names of its own).
_LOCAL_READ = re.compile(r"v[0-9]+|w[0-9]+_[0-9]+")


def _pattern_kind(pattern):
    """What every value fitting `pattern` is: 'list', 'map', 'text', 'nothing' or 'number' (an
    int or bool literal: only numbers and bools equal one), None when any value may fit."""
    t = type(pattern)
    if t is ast.PList:
        return "list"
    if t is ast.PMap:
        return "map"
    constant = literal_value(pattern)
    if constant is NOT_LITERAL:
        return None
    return "text" if type(constant) is str else "nothing" if constant is None else "number"


def _exclusive(p, q) -> bool:
    """Whether no value fits both patterns `p` and `q`, judged from what their tests read first
    (the kind, a list's length, a text first item), so neither test has run anything else when
    it says no: after an arm of one whose guard said no, the other need not be tried."""
    kp, kq = _pattern_kind(p), _pattern_kind(q)
    if kp is None or kq is None:
        return False
    if kp != kq:
        return True
    if kp == "text":
        return literal_value(p) != literal_value(q)
    if kp != "list":
        return False
    (np, open_p), (nq, open_q) = [(len(x.before) + len(x.after), x.rest is not None) for x in (p, q)]
    if (not open_p and not open_q and np != nq) or (open_p and not open_q and nq < np) \
            or (open_q and not open_p and np < nq):
        return True
    heads = [literal_value(x.before[0]) if x.before else NOT_LITERAL for x in (p, q)]
    return all(type(h) is str for h in heads) and heads[0] != heads[1]


def _inline_pattern(pattern) -> bool:
    """Whether `pattern` writes `pattern` (every shape but an enum variant's)."""
    t = type(pattern)
    if t is ast.PEnum:
        return False
    if t is ast.PList:
        return all(_inline_pattern(p) for p in (*pattern.before, *pattern.after))
    if t is ast.PMap:
        return all(sub is None or _inline_pattern(sub) for _, sub in pattern.entries)
    return True


def write_match(gen, node, tail):
    """`match` as compiler.s_Match runs it with every arm folded, its tests written into this
    function: the subject read once, each arm tried in source order, the body of the first arm
    that fits run here, its names reset to unbound however it ends. An arm whose pattern reads
    nothing but the subject (kinds, lengths, literals, items, keys: `pattern_test`) is one
    branch of an `if`/`elif` chain, its names bound once it fits, then its guard, whose "no"
    resets them; the chain goes on after a guarded arm only to arms no value can fit along
    with it (`_exclusive`), else a new chain starts, passed over once an arm was chosen (`if
    chosen: pass`, then `elif …`); `chosen` is not kept when nothing reads it. Any other arm
    is tested as patterns.Dispatcher tests it (`test`). When list arms start with texts (an
    instruction set), a jump on the subject's first item tries only the arms that can fit it
    (head_keys); the body of an arm naming a text is written in its group, the bodies of the
    others once, after the groups. Kept as the Dispatcher when an arm or `otherwise` cannot
    be folded (it makes a task or lambda, or this is the top level) or a pattern names an
    enum variant."""
    from synsema.lang.resolve import arm_scope, block_scope
    from synsema.runtime.compiler import _foldable
    scope = gen.scope
    if not all(_foldable(arm, scope) and _inline_pattern(arm.pattern) for arm in node.arms):
        return False
    if node.otherwise is not None and not _foldable(node.otherwise, scope):
        return False
    subject = gen.expr(node.subject)
    if _LOCAL_READ.fullmatch(subject):   # a local: no test or guard can rebind it
        gen.end_statement()
    else:
        if subject[0] != "t":
            held = gen.temp()
            gen.emit(f"{held} = {subject}")
            subject = held
        gen.statement_temps.remove(subject)
        gen.end_statement()
        gen.statement_temps.append(subject)
    ints = set()   # the temporaries holding ints, never dropped

    def int_temp():
        t = gen.temp()
        gen.statement_temps.remove(t)
        ints.add(t)
        return t
    start = len(gen.lines)
    chosen = int_temp()   # the number of the arm that fits, 0 while none does
    gen.emit(f"{chosen} = 0")
    shape = subject_shape(gen, node, subject, int_temp)
    name = gen.frames[-1][0]
    arms = [(inner, arm.body) for arm, inner in zip(node.arms, [arm_scope(scope, a, shared=True) for a in node.arms])]
    if node.otherwise is not None:
        arms.append((block_scope(scope, node.otherwise, shared=True), node.otherwise))
    binders = {}
    heads = head_keys(node) if shape is not None and shape[1] is not None else None

    def guard(number, bound, taken):
        """Arm `number`'s guard, its names `bound`: `taken()` writes what follows a yes; a no
        resets the arm's names. The guard's temporaries are dropped in both branches."""
        arm, inner = node.arms[number - 1], arms[number - 1][0]
        mark = len(gen.statement_temps)
        saved = set(gen.bound)
        gen.bound.update(bound)
        test = pure_test(gen, arm.guard)
        if test is None:
            test = gen.expr(arm.guard)
        gen.bound = saved
        made = gen.statement_temps[mark:]
        del gen.statement_temps[mark:]
        gen.emit(f"if {test}:")
        gen.indent += 1
        if made:
            gen.emit(" = ".join(made) + " = None")
        taken()
        gen.indent -= 1
        slots = [gen.location(0, slot) for slot in inner.slots.values()]
        if slots or made:
            gen.emit("else:")
            if slots:
                gen.emit(f"    {' = '.join(slots)} = U")
            if made:
                gen.emit(f"    {' = '.join(made)} = None")

    def test(number, head_known=False):
        """The test of arm `number` as statements, ending with `chosen = number` when the arm
        fits (a pattern that computes a value, or reads an item of an item through a local)."""
        arm, inner = node.arms[number - 1], arms[number - 1][0]
        gen.frames[-1] = (name, inner)
        gen.emit(f"while {chosen} == 0:")   # left with `break` when the arm does not fit
        gen.indent += 1
        bound = binders[number] = pattern(gen, arm.pattern, subject, shape, head_known)
        if arm.guard is not None:
            saved = set(gen.bound)
            gen.bound.update(bound)
            test = gen.expr(arm.guard)
            gen.bound = saved
            gen.emit(f"if not {test}:")
            for slot in inner.slots.values():
                gen.emit(f"    {gen.location(0, slot)} = U")
            gen.emit("    break")
        gen.emit(f"{chosen} = {number}")
        gen.emit("break")
        gen.indent -= 1

    def run(number):
        """The body of arm `number` (or `otherwise`) here, the tests' values dropped first, its
        names reset however it ends."""
        inner, body = arms[number - 1]
        tested = [t for t in gen.statement_temps if t not in ints]   # not read again
        if tested:
            gen.emit(" = ".join(tested) + " = None")
        held, gen.statement_temps = gen.statement_temps, []
        gen.frames[-1] = (name, inner)
        saved = set(gen.bound)
        gen.bound.update(binders.get(number, ()))
        slots = [gen.location(0, slot) for slot in inner.slots.values()]
        if slots:
            gen.emit("try:")
            gen.indent += 1
        gen.block_body(body, tail)
        if slots:
            gen.indent -= 1
            gen.emit("finally:")
            gen.emit(f"    {' = '.join(slots)} = U")
        gen.bound = saved
        gen.statement_temps = held

    def try_arms(numbers, inline):
        """The arms `numbers` in source order, with `chosen` 0 on entry; the bodies of those
        in `inline` written where their arm fits."""
        chain = None   # the guarded patterns of the `if`/`elif` chain being written
        for number in numbers:
            arm, inner = node.arms[number - 1], arms[number - 1][0]
            head_known = heads is not None and heads[number - 1] is not None
            gen.frames[-1] = (name, inner)
            fits = pattern_test(gen, arm.pattern, subject, shape, head_known)
            if fits is None:
                test(number, head_known)
                chain = None
                if number in inline:
                    gen.emit(f"if {chosen} == {number}:")
                    gen.indent += 1
                    run(number)
                    gen.indent -= 1
                continue
            conditions, binds = fits
            if chain is None or not all(_exclusive(p, arm.pattern) for p in chain):
                chain = []   # a new chain, passed over once an arm has been chosen
                if number == numbers[0]:
                    gen.emit(f"if {' and '.join(conditions) or 'True'}:")
                    conditions = None
                else:
                    gen.emit(f"if {chosen}:")
                    gen.emit("    pass")
            if conditions:
                gen.emit(f"elif {' and '.join(conditions)}:")
            elif conditions is not None:   # fits any value: nothing after it in this chain
                gen.emit("else:")
                chain = None
            gen.indent += 1
            for where, item in binds:
                gen.emit(f"{where} = {item}")
            bound = binders[number] = [where for where, _ in binds]

            def taken(number=number):
                gen.emit(f"{chosen} = {number}")
                if number in inline:
                    run(number)
            if arm.guard is None:
                taken()
            else:
                guard(number, bound, taken)
                if chain is not None:
                    chain.append(arm.pattern)
            gen.indent -= 1

    later = list(range(1, len(node.arms) + 1))   # arms whose bodies follow the tests
    if heads is None:
        try_arms(later, set(later))
        later = []
    else:   # a jump on the first item: only the arms that can fit a list starting with it
        table = {}
        for key in heads:
            if key is not None:
                table.setdefault(key, len(table) + 1)
        group = int_temp()
        gen.emit(f"{group} = {gen.value(table)}.get({shape[1]}, 0) if {shape[1]}.__class__ is str else 0")
        shared = len(gen.statement_temps)
        for key, number in table.items():
            gen.emit(f"{'if' if number == 1 else 'elif'} {group} == {number}:")
            gen.indent += 1
            try_arms([arm for arm, head in enumerate(heads, 1) if head is None or head == key],
                     {arm for arm, head in enumerate(heads, 1) if head == key})
            drop_group_temps(gen, shared)
            gen.indent -= 1
        later = [arm for arm, head in enumerate(heads, 1) if head is None]
        if later:
            gen.emit("else:")
            gen.indent += 1
            try_arms(later, set())
            drop_group_temps(gen, shared)
            gen.indent -= 1
    for i, number in enumerate(later):
        gen.emit(f"{'if' if i == 0 else 'elif'} {chosen} == {number}:")
        gen.indent += 1
        run(number)
        gen.indent -= 1
    if node.otherwise is not None:   # `chosen` is 0 only while no arm has run
        gen.emit(f"elif {chosen} == 0:" if later else f"if {chosen} == 0:")
        gen.indent += 1
        run(len(arms))
        gen.indent -= 1
    elif tail:
        gen.emit(f"if {chosen} == 0:")
        gen.emit("    return None")
    gen.frames[-1] = (name, scope)
    written = gen.lines[start:]
    setting, read = re.compile(rf"\s*{chosen} = [0-9]+"), re.compile(rf"\b{chosen}\b")
    if not any(read.search(line) and not setting.fullmatch(line) for line in written):
        # nothing reads `chosen` (every body written where its arm fits): its stores go
        gen.lines[start:] = [line for line in written if not setting.fullmatch(line)]
    return True

def pure_test(gen, node) -> str | None:
    """A guard made of comparisons joined by `and`/`or` as one Python expression, when each
    comparison is written without a statement (its operands are names and literals): Python's
    `and`/`or` try the operands in the language's order and stop where it stops, and a branch
    on the result decides as Generator.logic's temporaries would. Else None, nothing written."""
    t = type(node)
    if t is ast.And or t is ast.Or:
        left = pure_test(gen, node.left)
        right = pure_test(gen, node.right) if left is not None else None
        if right is None:
            return None
        return f"({left}) {'and' if t is ast.And else 'or'} ({right})"
    if t is not ast.Compare or not _inline_operator(node):
        return None
    lines, temps = len(gen.lines), len(gen.statement_temps)
    test = gen.e_Compare(node, in_test=True)
    if len(gen.lines) == lines and len(gen.statement_temps) == temps:
        return test
    del gen.lines[lines:], gen.statement_temps[temps:]
    return None

def subject_shape(gen, node, subject, int_temp):
    """When two or more arms are list patterns (an instruction set, a token stream), the
    subject's length (-1 for a non-list, in an int temporary of `int_temp`) and, if they start
    with a literal, its first item, read once for every arm: (length, first item or None);
    else None. The subject is a value nothing can change while the arms are tried, so these
    are what each test reads."""
    lists = [arm.pattern for arm in node.arms if type(arm.pattern) is ast.PList]
    if len(lists) < 2:
        return None
    length = int_temp()
    gen.emit(f"{length} = len({subject}) if {subject}.__class__ is list else -1")
    heads = [p for p in lists if p.before and literal_value(p.before[0]) is not NOT_LITERAL]
    if len(heads) < 2:
        return length, None
    head = gen.temp()
    gen.emit(f"{head} = {subject}[0] if {length} > 0 else None")
    return length, head

def drop_group_temps(gen, shared: int) -> None:
    """End a group of head_keys' jump: drop the temporaries its tests made (those after the
    first `shared`), there, so the line after the jump drops only the ones every group has."""
    made = gen.statement_temps[shared:]
    if made:
        gen.emit(" = ".join(made) + " = None")
        del gen.statement_temps[shared:]

def head_keys(node):
    """For a jump on the subject's first item: per arm, the text its list pattern's first item
    must be, or None for an arm that may fit whatever the first item is; None when fewer than
    two arms have such a text, or when writing the other arms' tests into every group would
    cost more than it saves. Skipping an arm whose text differs is exact because its test
    reads the length and then that first item before anything else (no binding, no computed
    pattern, no guard has run when it says no)."""
    heads = []
    for arm in node.arms:
        p = arm.pattern
        first = literal_value(p.before[0]) if type(p) is ast.PList and p.before else NOT_LITERAL
        heads.append(first if type(first) is str else None)
    keyed = len(heads) - heads.count(None)
    if keyed < 2 or len(set(heads) - {None}) * heads.count(None) > _OPEN_ARM_COPIES:
        return None
    return heads

def pattern(gen, node, x: str, shape=None, head_known=False) -> list[str]:
    """Statements testing the value `x` against `node` (patterns._emit's tests; `break`
    on a mismatch) and binding its names; the locations it binds. `shape`: the subject's
    length and first item when read once (subject_shape); `head_known`: the first item is
    known to be the text the pattern's first item is (head_keys' jump)."""
    t = type(node)
    if t is ast.PWildcard:
        return []
    if t is ast.PBind:
        where = gen.location(0, gen.scope.declare(node.name))
        gen.emit(f"{where} = {x}")
        return [where]
    constant = literal_value(node)
    if constant is not NOT_LITERAL:
        gen.emit(f"if {literal_mismatch(x, constant, gen.value(constant), lambda: gen.value(type(constant)))}:")
        gen.emit("    break")
        return []
    if t is ast.PValue:   # a value computed when the arm is tried (patterns.compile_pattern)
        span = gen.value(node.span)
        gen.emit("try:")
        gen.indent += 1
        expected = gen.expr(node.expr)
        same = gen.temp()
        gen.emit(f"{same} = equal({x}, {expected})")
        gen.indent -= 1
        gen.emit("except SynError as error:")
        gen.emit(f"    raise error.at({span})")
        gen.emit(f"if not {same}:")
        gen.emit("    break")
        return []
    bound = []
    if t is ast.PList:
        before, after, rest = node.before, node.after, node.rest
        fixed = gen.value(len(before) + len(after))
        compare = '<' if rest is not None else '!='
        if shape is None:
            gen.emit(f"if {x}.__class__ is not list or len({x}) {compare} {fixed}:")
        else:
            gen.emit(f"if {shape[0]} {compare} {fixed}:")
        gen.emit("    break")
        items = [(sub, f"{x}[{gen.value(i)}]") for i, sub in enumerate(before)]
        items += [(sub, f"{x}[{gen.value(i - len(after))}]") for i, sub in enumerate(after)]
        for i, (sub, item) in enumerate(items):
            if i == 0 and head_known:
                continue
            if i == 0 and before and shape is not None and shape[1] is not None:
                bound += pattern(gen, sub, shape[1]) if literal_value(sub) is not NOT_LITERAL \
                    else pattern_item(gen, sub, shape[1])
            else:
                bound += pattern_item(gen, sub, item)
        if rest:
            where = gen.location(0, gen.scope.declare(rest))
            end = f"len({x}) - {gen.value(len(after))}" if after else ""
            gen.emit(f"{where} = {x}[{gen.value(len(before))}:{end}]")
            bound.append(where)
        return bound
    gen.emit(f"if {x}.__class__ is not dict:")   # a map pattern
    gen.emit("    break")
    for key, sub in node.entries:
        k = gen.value(key)
        gen.emit(f"if {k} not in {x}:")
        gen.emit("    break")
        bound += pattern_item(gen, ast.PBind(key, span=node.span) if sub is None else sub, f"{x}[{k}]")
    return bound

def pattern_item(gen, sub, item: str) -> list[str]:
    """A sub-pattern of one item of a list or map (an index expression), read once."""
    if type(sub) is ast.PWildcard:
        return []
    if type(sub) is ast.PBind:
        where = gen.location(0, gen.scope.declare(sub.name))
        gen.emit(f"{where} = {item}")
        return [where]
    y = gen.temp()
    gen.emit(f"{y} = {item}")
    return pattern(gen, sub, y)

def pattern_test(gen, pattern, x: str, shape=None, head_known=False):
    """When `pattern`'s test reads nothing but the value in `x` (kinds, lengths, literals,
    items and keys, however nested): (the conditions that it fits, each a Python expression
    over `x`, in the order patterns.Dispatcher tests them; the bindings, (location, item
    expression) in the order it makes them), declaring its names; else None (a value the
    pattern computes). `shape` and `head_known` as for `pattern`."""
    t = type(pattern)
    if t is ast.PWildcard:
        return [], []
    if t is ast.PBind:
        return [], [(gen.location(0, gen.scope.declare(pattern.name)), x)]
    constant = literal_value(pattern)
    if constant is not NOT_LITERAL:
        test = literal_match(x, constant, gen.literal(constant), lambda: gen.value(type(constant)))
        return [test], []
    if t is ast.PValue:
        return None
    conditions, binds = [], []
    if t is ast.PList:
        before, after, rest = pattern.before, pattern.after, pattern.rest
        fixed = gen.literal(len(before) + len(after))
        compare = ">=" if rest is not None else "=="
        if shape is None:
            conditions += [f"{x}.__class__ is list", f"len({x}) {compare} {fixed}"]
        else:
            conditions.append(f"{shape[0]} {compare} {fixed}")
        items = [(sub, f"{x}[{gen.literal(i)}]") for i, sub in enumerate(before)]
        items += [(sub, f"{x}[{gen.literal(i - len(after))}]") for i, sub in enumerate(after)]
        for i, (sub, item) in enumerate(items):
            if i == 0 and head_known:
                continue
            if i == 0 and before and shape is not None and shape[1] is not None:
                item = shape[1]
            fits = pattern_test(gen, sub, item)
            if fits is None:
                return None
            conditions += fits[0]
            binds += fits[1]
        if rest:
            end = f"len({x}) - {gen.value(len(after))}" if after else ""
            binds.append((gen.location(0, gen.scope.declare(rest)), f"{x}[{gen.value(len(before))}:{end}]"))
        return conditions, binds
    conditions.append(f"{x}.__class__ is dict")
    for key, sub in pattern.entries:
        k = gen.literal(key)
        conditions.append(f"{k} in {x}")
        fits = pattern_test(gen, ast.PBind(key, span=pattern.span) if sub is None else sub, f"{x}[{k}]")
        if fits is None:
            return None
        conditions += fits[0]
        binds += fits[1]
    return conditions, binds
