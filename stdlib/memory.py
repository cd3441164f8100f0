"""Persistent memory (upstream's agent memory): facts, owner rules and task progress that outlive
the run, in the memory the program names with `require memory("notes")`.

* Facts: `remember(category, content, tags?)` → an id, `recall(category?, tags?, search?, mode?,
  limit?)` → entries newest first, `forget_memory(id)`, `memory_summary()`. Categories are a
  fixed set (CATEGORIES); several tags match any of them unless `mode` is "all".
* Rules: `add_rule(name, level, description, category?)`, `get_rules(category?)`,
  `check_rules(category?, context?)` — a description holding `name <op> number` is checked
  against the context's numbers, and a rule is violated when that condition is false.
* Progress: `create_progress(task, steps)`, `start_step`, `complete_step`, `fail_step`,
  `resume_point` (the step to redo or do next), `progress_display`, `progress_percent`.

Every call checks `memory("<name>")` (so `--audit` records each read and write) and is one
transaction on the memory's SQLite file (runtime/memory.py: where the file is, its bounds, why a
killed run never corrupts it). A `secret` is never stored: memory is a file on disk.

Under `--labels` (flow "raw": these builtins place labels themselves):
* what a write stores — an entry's content, a rule's description, a step's result or error —
  keeps its principals in the file, and reading it back in any later run gives a value private
  to them; a run without --labels refuses to read it;
* what decides *which* record a write changes (category, tags, names, ids) must be public, and
  no write may happen under a private pc (the effects gate, runtime/effects.py "memory"): that
  a write happened is visible to every later run;
* a read's answer carries its arguments' principals, and those of every stored value that
  decided it (a `search` through private contents, a rule checked against a private description).

Cost: each call reads or rewrites rows of one memory file, which holds at most
runtime.memory.MAX_FILE_BYTES; a value written is at most MAX_VALUE_BYTES; `recall` answers at
most `limit` entries (default 200).
"""

from __future__ import annotations

import functools
import json
import re
import time

from synsema.lang.errors import SynError
from synsema.runtime import memory as store
from synsema.runtime.labels import EMPTY, deep_labels, make_secret, strip, violation, wrap
from synsema.runtime.sealed import Secret
from synsema.runtime.values import display, type_name
from synsema.stdlib.core import wrong_type
from synsema.stdlib.registry import builtin

CATEGORIES = ("preference", "rule", "learning", "decision", "context")
LEVELS = ("must", "should", "avoid", "prefer")
DEFAULT_RECALL_LIMIT = 200
_CONDITION = re.compile(r"(\w+\s*(?:<=|>=|<|>|==|!=)\s*[\d.]+)")
_CONDITION_PARTS = re.compile(r"^(\w+)\s*(<=|>=|<|>|==|!=)\s*(.+)$")
_ICONS = {"pending": "  ", "in_progress": ">>", "done": "OK", "failed": "XX"}


def memory_builtin(name: str, min_args: int, max_args: int | None = -1, *, named: tuple[str, ...] = (),
                   writes: bool = False):
    """Register a memory builtin: capability `memory`, flow "raw" (it places labels itself), and
    for a write the outliving effect "memory" (runtime.effects). An error it raises while an
    argument is private depends on that data, so it is made secret (uncatchable, its message
    withheld), as the label compiler does for every other builtin."""
    def register(fn):
        @functools.wraps(fn)
        def guarded(rt, *args, **named_args):
            try:
                return fn(rt, *args, **named_args)
            except SynError as error:
                if rt.labels is not None:
                    raise make_secret(error, deep_labels([*args, *named_args.values()]))
                raise
        return builtin(name, min_args, max_args, named=named, cap="memory", flow="raw",
                       changes=("memory",) if writes else ())(guarded)
    return register


# ---------------------------------------------------------------- arguments and labels

class _Call:
    """One memory builtin call: its arguments without labels, and the principals they carried."""

    def __init__(self, rt, what: str):
        self.rt = rt
        self.what = what
        self.labels = EMPTY   # what a read's answer carries from its arguments

    def plain(self, value):
        """An argument of a read: its labels go to the answer."""
        if self.rt.labels is None:
            return value
        value, found = strip(value)
        self.labels = self.labels | found
        return value

    def key(self, value, role: str):
        """An argument of a write that decides which record changes: it must be public."""
        if self.rt.labels is None:
            return value
        value, found = strip(value)
        if found:
            raise violation(f"{self.what}: its {role} is private to {', '.join(sorted(found))}; it decides "
                            "which record of the memory changes, which every later run can see — pass a "
                            f"public {role} (declassify(…) it first)")
        return value

    def stored(self, value):
        """The value a write stores, with the principals it keeps in the file."""
        if self.rt.labels is None:
            return value, EMPTY
        return strip(value)

    def write(self, labels: frozenset = EMPTY):
        """The gate of a write (runtime.effects "memory"), then the capability check; the store."""
        if self.rt.labels is not None:
            self.rt.labels.effect(f"{self.what}()", ("memory",), (), labels)
        return self.rt.memory()

    def read(self):
        return self.rt.memory()

    def answer(self, value, extra: frozenset = EMPTY):
        """A read's answer, private to its arguments and to the stored values that decided it."""
        labels = self.labels | extra
        if labels:
            self.rt.labels.touched = self.rt.labels.touched | labels
        return wrap(value, labels)

    def recalled(self, text, labels: frozenset, what: str):
        """A stored value as the program gets it back: private to what it was stored with."""
        if not labels:
            return text
        st = self.rt.labels
        if st is None:
            raise SynError(f"{self.what}: {what} was stored under --labels, private to "
                           f"{', '.join(sorted(labels))}; run with --labels to read it (it stays private)")
        st.touched = st.touched | labels
        return wrap(text, labels)

    def examined(self, labels: frozenset, what: str) -> frozenset:
        """A stored private value that decided the answer without being part of it."""
        if labels and self.rt.labels is None:
            raise SynError(f"{self.what}: {what} was stored under --labels, private to "
                           f"{', '.join(sorted(labels))}, and decides this answer; run with --labels")
        return labels


def _text(what: str, value, role: str) -> str:
    if type(value) is not str:
        raise wrong_type(what, f"{role} as text", value)
    return value


def _no_secret(what: str, value) -> None:
    """A secret is never written in clear, and memory is a file: refuse it at any depth."""
    pending, seen = [value], set()
    while pending:
        item = pending.pop()
        if type(item) is Secret:
            raise SynError(f"{what}: a secret cannot be stored in memory — memory is a file on disk "
                           "and a secret is never written in clear; store the secret's name and read it "
                           "again with secret(NAME) in the run that needs it")
        if type(item) in (list, dict) and id(item) not in seen:
            seen.add(id(item))
            pending.extend(item.values() if type(item) is dict else item)


def _value_text(what: str, value) -> str:
    _no_secret(what, value)
    text = display(value)
    store.value_size_check(what, text)
    return text


def _tags(what: str, value) -> list[str]:
    if value is None:
        return []
    if type(value) is not list:
        raise wrong_type(what, "tags as a list of texts", value)
    _no_secret(what, value)
    tags = [display(tag) for tag in value]
    store.value_size_check(what, json.dumps(tags))
    return tags


def _category(what: str, value) -> str:
    category = _text(what, value, "a category")
    if category not in CATEGORIES:
        raise SynError(f"Invalid memory category: '{category}'. Valid categories: {', '.join(CATEGORIES)}")
    return category


# ---------------------------------------------------------------- facts

@memory_builtin("remember", 2, 3, writes=True)
def remember(rt, category, content, tags=None):
    """Store a fact in the program's memory (require memory("NAME")); its id.

    `category` is one of preference, rule, learning, decision, context; `content` is stored as
    text; `tags` (texts) help recall it. Under --labels a private content stays private to its
    principals when a later run recalls it.

    Example: starts_with(remember("learning", "the API is slow on Mondays", ["api"]), "mem_") => true
    """
    call = _Call(rt, "remember")
    category = _category("remember", call.key(category, "category"))
    tags = _tags("remember", call.key(tags, "tags"))
    content, labels = call.stored(content)
    content = _value_text("remember", content)
    memory = call.write(labels)
    with memory.transaction(write=True) as db:
        store.room_check(memory, db, len(content.encode("utf-8", "surrogatepass")) + 256)
        now = time.time()
        cursor = db.execute("INSERT INTO entries (category, content, tags, labels, source, created, updated, "
                            "active) VALUES (?, ?, ?, ?, 'main', ?, ?, 1)",
                            (category, content, json.dumps(tags), store.labels_text(labels), now, now))
        return f"mem_{cursor.lastrowid}"


@memory_builtin("recall", 0, 5, named=("category", "tags", "search", "mode", "limit"))
def recall(rt, category=None, tags=None, search=None, mode=None, limit=None):
    """The remembered entries that match, newest first: maps of id, category, content, source, tags.

    `nothing` skips a filter. Several `tags` match an entry holding any of them, or all of them
    with `mode` "all"; `search` finds text in the content (case-insensitive); at most `limit`
    entries (default 200).

    Example: starts_with(remember("decision", "ship on Friday", ["release"]), "mem_") => true
    Example: recall("decision", ["release"])[0].content => "ship on Friday"
    """
    call = _Call(rt, "recall")
    category, tags, search, mode, limit = (call.plain(v) for v in (category, tags, search, mode, limit))
    if category is not None:
        _category("recall", category)
    wanted = None if tags is None else _tags("recall", tags)
    if search is not None:
        search = _text("recall", search, "search").casefold()
    if mode not in (None, "any", "all"):
        raise SynError(f"recall: mode must be \"any\" or \"all\", got {display(mode)[:40]}")
    if limit is None:
        limit = DEFAULT_RECALL_LIMIT
    elif type(limit) is not int or limit < 0:
        raise SynError(f"recall: limit must be a whole number of 0 or more, got {display(limit)[:40]}")
    memory = call.read()
    with memory.transaction(write=False) as db:
        rows = [] if db is None else store.checked(db.execute(
            "SELECT seq, category, content, tags, labels FROM entries WHERE active = 1 AND (? IS NULL OR "
            "category = ?) ORDER BY updated DESC, seq DESC", (category, category)), "ittjl")
    found, decided = [], EMPTY
    for seq, row_category, content, row_tags, labels in rows:
        if wanted is not None and not (all if mode == "all" else any)(t in row_tags for t in wanted):
            continue
        if search is not None:
            decided = decided | call.examined(labels, f"entry mem_{seq}")
            if search not in content.casefold():
                continue
        if len(found) < limit:
            found.append({"id": f"mem_{seq}", "category": row_category,
                          "content": call.recalled(content, labels, f"entry mem_{seq}"),
                          "source": "main", "tags": row_tags})
    return call.answer(found, decided)


@memory_builtin("forget_memory", 1, writes=True)
def forget_memory(rt, entry_id):
    """Delete a remembered entry by its id; whether there was one.

    Example: forget_memory(remember("context", "temporary")) => true
    Example: forget_memory("mem_999999") => false
    """
    call = _Call(rt, "forget_memory")
    entry_id = _text("forget_memory", call.key(entry_id, "entry id"), "an entry id")
    memory = call.write()
    matched = re.fullmatch(r"mem_([0-9]{1,18})", entry_id)
    if matched is None:
        return False
    with memory.transaction(write=True) as db:
        return db.execute("DELETE FROM entries WHERE seq = ?", (int(matched.group(1)),)).rowcount > 0


@memory_builtin("memory_summary", 0)
def memory_summary(rt):
    """A short text: how many entries and rules the memory holds, and the rules.

    Example: starts_with(memory_summary(), "Agent Memory: ") => true
    """
    call = _Call(rt, "memory_summary")
    memory = call.read()
    with memory.transaction(write=False) as db:
        if db is None:
            entries, rules = 0, []
        else:
            entries = db.execute("SELECT count(*) FROM entries WHERE active = 1").fetchone()[0]
            rules = store.checked(db.execute("SELECT name, level, description, labels FROM rules "
                                             "WHERE active = 1 ORDER BY seq"), "tttl")
    lines = [f"Agent Memory: {entries} entries, {len(rules)} rules"]
    decided = EMPTY
    if rules:
        lines.append("  Rules:")
        for name, level, description, labels in rules:
            decided = decided | call.examined(labels, f"rule '{name}'")
            lines.append(f"    [{level:<6}] {name}: {description}")
    return call.answer("\n".join(lines), decided)


# ---------------------------------------------------------------- rules

@memory_builtin("add_rule", 3, 4, writes=True)
def add_rule(rt, name, level, description, category=None):
    """Add (or replace) an owner rule: level must, should, avoid or prefer; true.

    A description holding `name <op> number` (`discount <= 0.20`) is the rule's condition, which
    check_rules tests against a context.

    Example: add_rule("max_discount", "must", "discount <= 0.20", "pricing") => true
    """
    call = _Call(rt, "add_rule")
    name = _text("add_rule", call.key(name, "name"), "a rule name")
    level = _text("add_rule", call.key(level, "level"), "a level")
    if level not in LEVELS:
        raise SynError(f"Invalid rule level: '{level}'. Valid levels: {', '.join(LEVELS)}")
    category = "" if category is None else _text("add_rule", call.key(category, "category"), "a category")
    store.value_size_check("add_rule", name + category)
    description, labels = call.stored(description)
    description = _value_text("add_rule", description)
    condition = _CONDITION.search(description)
    memory = call.write(labels)
    with memory.transaction(write=True) as db:
        store.room_check(memory, db, len(description.encode("utf-8", "surrogatepass")) + 256)
        seq = db.execute("SELECT coalesce(max(seq), 0) + 1 FROM rules").fetchone()[0]
        db.execute("INSERT INTO rules (name, level, description, condition, category, labels, active, seq) "
                   "VALUES (?, ?, ?, ?, ?, ?, 1, ?) ON CONFLICT (name) DO UPDATE SET level = excluded.level, "
                   "description = excluded.description, condition = excluded.condition, "
                   "category = excluded.category, labels = excluded.labels, active = 1",
                   (name, level, description, condition and condition.group(1), category,
                    store.labels_text(labels), seq))
    return True


def _rules(call, category, where: str):
    memory = call.read()
    with memory.transaction(write=False) as db:
        if db is None:
            return []
        return store.checked(db.execute(f"SELECT name, level, description, condition, category, labels "
                                        f"FROM rules WHERE active = 1 {where} ORDER BY seq",
                                        () if not where else (category,)), "tttotl")


@memory_builtin("get_rules", 0, 1)
def get_rules(rt, category=None):
    """The active rules (of one category): maps of name, level, description, category.

    Example: add_rule("formal_tone", "prefer", "use a formal tone", "style") => true
    Example: get_rules("style")[0].level => "prefer"
    """
    call = _Call(rt, "get_rules")
    category = call.plain(category)
    if category is not None:
        _text("get_rules", category, "a category")
    rows = _rules(call, category, "" if category is None else "AND category = ?")
    return call.answer([{"name": name, "level": level,
                         "description": call.recalled(description, labels, f"rule '{name}'"),
                         "category": rule_category}
                        for name, level, description, _, rule_category, labels in rows])


@memory_builtin("check_rules", 0, 2)
def check_rules(rt, category=None, context=None):
    """The rules a context breaks: maps of rule, level, message (an empty list when none).

    A rule is broken when its condition (`discount <= 0.20`) is false for the context's number
    of that name; a rule whose name is missing from the context is not checked. Rules without a
    category apply to every category.

    Example: add_rule("max_discount", "must", "discount <= 0.20", "pricing") => true
    Example: check_rules("pricing", {discount: 0.25})[0].rule => "max_discount"
    Example: check_rules("pricing", {discount: 0.1}) => []
    """
    call = _Call(rt, "check_rules")
    category, context = call.plain(category), call.plain(context)
    if category is not None:
        _text("check_rules", category, "a category")
    if context is None:
        context = {}
    elif type(context) is not dict:
        raise wrong_type("check_rules", "a context map", context)
    numbers = {k: v for k, v in context.items() if type(v) in (int, float)}
    rows = _rules(call, category, "" if category is None else "AND (category = '' OR category = ?)")
    broken, decided = [], EMPTY
    for name, level, description, condition, _, labels in rows:
        if condition is None:
            continue
        decided = decided | call.examined(labels, f"rule '{name}'")
        if _violated(condition, numbers):
            broken.append({"rule": name, "level": level,
                           "message": f"[{level.upper()}] Rule '{name}' violated: {description}. "
                                      f"Context: {display(numbers)}"})
    return call.answer(broken, decided)


def _violated(condition: str, numbers: dict) -> bool:
    """Whether `name <op> number` is false for the context (an unusable condition never fails;
    a NaN in the context does, as a condition that cannot hold)."""
    parts = _CONDITION_PARTS.match(condition.strip())
    if parts is None or parts.group(1) not in numbers:
        return False
    try:
        bound = float(parts.group(3))
    except ValueError:
        return False
    actual, op = numbers[parts.group(1)], parts.group(2)
    holds = {"<=": actual <= bound, ">=": actual >= bound, "<": actual < bound, ">": actual > bound,
             "==": actual == bound, "!=": actual != bound}[op]
    return not holds


# ---------------------------------------------------------------- progress

def _steps(db, task: str):
    return store.checked(db.execute("SELECT position, step, status, result, error, labels FROM steps "
                                    "WHERE task = ? ORDER BY position", (task,)), "ittool")


@memory_builtin("create_progress", 1, 2, writes=True)
def create_progress(rt, task_name, steps=None):
    """Track a task's steps across runs; the task name. A task not yet finished is kept as it is,
    so a restarted program resumes it.

    Example: create_progress("sync", ["fetch", "save"]) => "sync"
    """
    call = _Call(rt, "create_progress")
    task = _text("create_progress", call.key(task_name, "task name"), "a task name")
    names = call.key(steps, "steps")
    if names is None:
        names = []
    if type(names) is not list or not all(type(n) is str for n in names):
        raise wrong_type("create_progress", "steps as a list of texts", names)
    store.value_size_check("create_progress", json.dumps([task, *names]))
    memory = call.write()
    with memory.transaction(write=True) as db:
        current = _steps(db, task)
        if current and any(row[2] not in ("done", "skipped") for row in current):
            return task
        store.room_check(memory, db, len(json.dumps(names)) + 64 * len(names))
        db.execute("DELETE FROM steps WHERE task = ?", (task,))
        db.executemany("INSERT INTO steps (task, position, step, status, labels) VALUES (?, ?, ?, 'pending', '')",
                       [(task, i, name) for i, name in enumerate(names)])
    return task


def _change_step(rt, what: str, task_name, step_name, status: str, column: str | None, value):
    call = _Call(rt, what)
    task = _text(what, call.key(task_name, "task name"), "a task name")
    step = _text(what, call.key(step_name, "step name"), "a step name")
    text, labels = None, EMPTY
    if value is not None:
        value, labels = call.stored(value)
        text = _value_text(what, value)
    memory = call.write(labels)
    with memory.transaction(write=True) as db:
        rows = _steps(db, task)
        if not rows:
            raise SynError(f"No task '{task}' tracked: create_progress(\"{task}\", [steps]) first")
        position = next((row[0] for row in rows if row[1] == step), None)
        if position is None:
            raise SynError(f"No step '{step}' in task '{task}' (its steps: {', '.join(row[1] for row in rows)})")
        store.room_check(memory, db, len((text or "").encode("utf-8", "surrogatepass")) + 64)
        db.execute("UPDATE steps SET status = ?, result = ?, error = ?, labels = ? WHERE task = ? AND position = ?",
                   (status, text if column == "result" else None, text if column == "error" else None,
                    store.labels_text(labels), task, position))
    return True


@memory_builtin("start_step", 2, writes=True)
def start_step(rt, task_name, step_name):
    """Mark a step in progress; true.

    Example: create_progress("deploy", ["build", "ship"]) => "deploy"
    Example: start_step("deploy", "build") => true
    """
    return _change_step(rt, "start_step", task_name, step_name, "in_progress", None, None)


@memory_builtin("complete_step", 2, 3, writes=True)
def complete_step(rt, task_name, step_name, result=None):
    """Mark a step done, with an optional result shown by progress_display; true.

    Example: create_progress("import", ["fetch", "save"]) => "import"
    Example: complete_step("import", "fetch", "100 items") => true
    """
    return _change_step(rt, "complete_step", task_name, step_name, "done", "result", result)


@memory_builtin("fail_step", 2, 3, writes=True)
def fail_step(rt, task_name, step_name, error=None):
    """Mark a step failed, with an optional error; resume_point then answers it again; true.

    Example: create_progress("backup", ["copy", "verify"]) => "backup"
    Example: fail_step("backup", "copy", "disk full") => true
    """
    return _change_step(rt, "fail_step", task_name, step_name, "failed", "error", error)


def _task_rows(rt, what: str, task_name):
    call = _Call(rt, what)
    task = _text(what, call.plain(task_name), "a task name")
    memory = call.read()
    with memory.transaction(write=False) as db:
        return call, task, ([] if db is None else _steps(db, task))


@memory_builtin("resume_point", 1)
def resume_point(rt, task_name):
    """Where to resume a task: the step in progress or failed, else the next pending one;
    nothing when it is finished or unknown.

    Example: create_progress("report", ["gather", "write"]) => "report"
    Example: resume_point("report") => "gather"
    """
    call, _, rows = _task_rows(rt, "resume_point", task_name)
    step = next((row[1] for row in rows if row[2] in ("in_progress", "failed")), None)
    if step is None:
        step = next((row[1] for row in rows if row[2] == "pending"), None)
    return call.answer(step)


def _percent(rows) -> float:
    if not rows:
        return 100.0
    return sum(row[2] in ("done", "skipped") for row in rows) * 100 / len(rows)


@memory_builtin("progress_percent", 1)
def progress_percent(rt, task_name):
    """How much of a task is done, from 0 to 100 (0 for an unknown task).

    Example: create_progress("audit", ["scan", "fix"]) => "audit"
    Example: progress_percent("audit") => 0.0
    """
    call, _, rows = _task_rows(rt, "progress_percent", task_name)
    return call.answer(_percent(rows) if rows else 0.0)


@memory_builtin("progress_display", 1)
def progress_display(rt, task_name):
    """A task's steps as text, one line each: [OK] done, [>>] in progress, [XX] failed, [  ] pending.

    Example: create_progress("mail", ["draft", "send"]) => "mail"
    Example: starts_with(progress_display("mail"), "Task: mail (0%)") => true
    Example: contains(progress_display("mail"), "[  ] draft") => true
    """
    call, task, rows = _task_rows(rt, "progress_display", task_name)
    if not rows:
        return call.answer(f"No progress for '{task}'")
    lines = [f"Task: {task} ({_percent(rows):.0f}%)"]
    decided = EMPTY
    for _, step, status, result, error, labels in rows:
        decided = decided | call.examined(labels, f"the result of step '{step}'")
        line = f"  [{_ICONS.get(status, '--')}] {step}"
        if result is not None:
            line += f" \u2192 {result}"
        if error is not None:
            line += f" ERROR: {error}"
        lines.append(line)
    return call.answer("\n".join(lines), decided)
