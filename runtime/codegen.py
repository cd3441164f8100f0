"""Compile a task body (or a loop) into one generated Python function instead of a tree of closures.

The closure compiler (runtime.compiler) makes one Python call per node a program runs; a task
call there costs a chain of closures. Here a whole task body, lambda body or loop becomes the
source of one Python function: statements become Python statements, an expression is computed
into temporaries in the language's order (left to right, `and`/`or`/inline `when` only when
reached), the integer cases of the hot operators are written inline, and a call of a task runs
its body directly (call depth, steps and the recursion limit kept exactly as `calls.run_body`
keeps them). Everything else — every rarer node and every slow case — is the closure the
compiler already makes, called on the same frame list, so the two evaluators share one frame
layout and can be mixed node by node; `SYNSEMA_CLOSURES=1` turns generation off, which is how
tests/test_codegen_differential.py compares the two.

Two forms. When every node of a task or lambda body is written inline, the body is "direct":
`direct(env, *arguments)` with its parameters and locals as Python locals, called without a
frame list (`TaskCode.direct`; `TaskCode.body(frame)` calls it for everyone holding a frame).
Otherwise names stay frame slots (`f[3]`), as in the closures, because a closure made inside the
body, or a fallback closure, reads and writes the frame. The generated text is made from the
compiler's own tables and never contains user text (strings, names and numbers a program writes
are passed in as values, so bodies of one shape compile once), and a body Python refuses to
compile (too deeply nested) stays on the closures.
"""

from __future__ import annotations

import builtins
import os
import re
import sys
import warnings
from types import FunctionType

from synsema.lang import ast
from synsema.lang.checks import PROTECTED_NAMES
from synsema.lang.errors import SynError
from synsema.runtime import operators as ops
from synsema.runtime.calls import (BUILTIN_FAILURES, GIVE, RECURSION_LIMIT, REG, SIZED_RESULTS, STEPS, STOP,
                                   builtin_failure, call_builtin, call_value, host_failure, invoke)
from synsema.runtime.compiler import _append_call
from synsema.runtime.control import StopLoop
from synsema.runtime.limits import MAX_INT_BITS, MAX_LIST_LENGTH, MAX_TEXT_LENGTH, check_result, joined
from synsema.runtime.operators import checked_product
from synsema.runtime.scope import UNBOUND
from synsema.runtime.values import Builtin, Task, display, equal, map_key, type_name

# The internal switch of the differential tests: with it set, every body stays on the closures.
ENABLED = os.environ.get("SYNSEMA_CLOSURES", "") in ("", "0")

_BOOLEAN_NODES = (ast.And, ast.Or, ast.Bool)
_ORDERING = ("==", "!=", "<", "<=", ">", ">=")

# Integer cases written inline, as runtime.fastpaths writes them (the same expressions, so the
# same results and the same integer-size check on `*`).
_INT_OPS = {"+": "{a} + {b}", "-": "{a} - {b}", "%": "{a} % {b}", "//": "{a} // {b}",
            "<": "{a} < {b}", "<=": "{a} <= {b}", ">": "{a} > {b}", ">=": "{a} >= {b}"}
_NONZERO = ("%", "//")
# The operators runtime.fastpaths has an integer fast path for (`fastpaths.has_fast_path`): named
# here so that generating a body does not import that module, whose closures it never uses
# (tests/test_codegen_constants.py checks the two agree).
_FAST_OPERATORS = frozenset((*_INT_OPS, "*", "==", "!="))

# What follows a name that an assignment writes, chained or augmented, or a walrus (`_writes`).
_ASSIGNING = ("=", ":=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", "//=", "**=", "<<=", ">>=")


# Compiled generated sources: bodies of one shape (the program's values are passed in, never
# written into the text) compile once per process, which is most of what loading a long script
# with many small tasks costs.
_COMPILED: dict = {}

# What Python refused to compile (a body nested past CPython's static block limit, for one):
# those bodies run on the closures; the first few reasons are kept for the tests.
REFUSED: list[str] = []


# What an empty call-site cache holds: no program value is this object.
_NO_TASK = object()

# Generated text with every character that cannot be part of a name made a space (`_words`).
# The tests below are string operations, not regular expressions: compiling a pattern costs a
# run about half a million instructions, more than generating a small task's body.
_NOT_A_NAME = {c: " " for c in range(128) if not (chr(c).isalnum() or chr(c) == "_")}


def _words(text: str) -> list[str]:
    """The names and numbers in generated `text` (which is ASCII)."""
    return text.translate(_NOT_A_NAME).split()


def _is_temporary(word: str) -> bool:
    """Whether a name in generated text is a statement temporary's (t0, t1, …)."""
    return word[:1] == "t" and word[1:].isdigit() and word[1:].isascii()


# The names of a generated function's own globals besides _NAMESPACE's (values k0, call-site
# caches site0_fn, the run's g, rt, reg, …, `make`, a lambda's `entry`): a program's global of
# such a name, or of a Python builtin's, is read from the dictionary (`Generator.global_read`),
# never by its name.
_OWN_NAMES = frozenset({"g", "rt", "reg", "store", "st", "make", "entry"})


def _own_global(name: str) -> bool:
    """Whether `name` is, or may be, one of those (k0, site0, site0_fn, site0_env, g, …)."""
    if name in _OWN_NAMES:
        return True
    number = name[1:] if name[:1] == "k" else name[4:].removesuffix("_fn").removesuffix("_env") \
        if name[:4] == "site" else ""
    return number.isdigit() and number.isascii()


# How generated text names the n-th global read by name: only in the text, as `_named` gives the
# compiled code the real names before it runs (a program's own `_G0` is read from `g`).
_PLACEHOLDER = "_G{}"
# How generated text writes the literal value kN as a constant of the compiled code (Generator.operand):
# a text constant no generated text holds otherwise, which `_named` replaces by the value.
_CONSTANT = "\x00{}"


# What compiling a generated source may raise (a body nested past CPython's static block limit).
_REFUSALS = (SyntaxError, RecursionError, MemoryError, ValueError)


def _compiled(source: str):
    """The code of the one function a generated source defines (`make`, `entry`) and the Python
    builtins it names, compiled once per process (bodies of one shape share it); `_define` makes
    the function in a namespace.

    The source is run by `exec` in a scratch namespace, which only defines the function, rather
    than given to `compile()`: `compile()` first asks whether its argument is a Python AST object,
    and that question creates the `_ast` module's hundred-odd node classes the first time a
    process asks it (about ten million instructions, more than compiling the fib program itself);
    `exec` of a text parses and compiles it the same way without asking."""
    compiled = _COMPILED.get(source)
    if compiled is None:
        scratch: dict = {}
        with warnings.catch_warnings():   # `None[0]` and the like: the program's own error, at run time
            warnings.simplefilter("ignore")
            exec(source, scratch)
        del scratch["__builtins__"]
        (function,) = scratch.values()
        code = _in_file(function.__code__)
        if len(_COMPILED) >= 4096:
            _COMPILED.clear()
        compiled = _COMPILED[source] = code, _python_builtins(code)
    return compiled


def _is_local_value(v: str) -> bool:
    """Whether generated text `v` is a direct body's local holding a value (v1, v2, …)."""
    return v[:1] == "v" and v[1:].isdigit() and v[1:].isascii()


def _writes(text: str, v: str) -> bool:
    """Whether generated `text` may assign the local `v`: an occurrence of the name followed by
    an assignment (chained or augmented) or a walrus, after `for ` or on a line with `del`."""
    end = 0
    while (at := text.find(v, end)) >= 0:
        end = at + len(v)
        before, after = text[at - 1:at], text[end:end + 1]
        if before.isalnum() or before in ("_", ".") or after.isalnum() or after == "_":
            continue   # part of another name (v12, v1_int, a.v1)
        if text[end:].lstrip(" ").startswith(_ASSIGNING) and not text[end:].lstrip(" ").startswith("=="):
            return True
        line = text[text.rfind("\n", 0, at) + 1:at]
        if line.rstrip().endswith("for") or "del " in line:
            return True
    return False


def _in_file(code):
    """`code` and the functions it defines as coming from "<synsema generated>" (`exec` of a text
    names it "<string>"), the file Python's tracebacks and the tests see for generated code."""
    consts = tuple(_in_file(c) if type(c) is type(code) else c for c in code.co_consts)
    return code.replace(co_filename="<synsema generated>", co_consts=consts)


def _define(code, namespace: dict):
    """The function of `code` (from `_compiled`, maybe `_named`) made with `namespace` as its
    globals, as running its `def` there would make it."""
    function = namespace[code.co_name] = FunctionType(code, namespace)
    return function


def _callback_entry(source: str, namespace: dict, names: dict, constants: dict):
    """`entry(env)` of a direct lambda body (Generator.callback_source; codegen_labels'
    `callback_entry` for a labelled one, whose entry takes more), compiled at its first
    use (most lambdas are never handed to a builtin) into the body's own namespace, its globals
    read by name and its constants as the body has them (`names`, `constants`: `_named`); it
    gives None when Python refuses the source, and calls.callback then wraps `direct` as before."""
    made = []

    def entry(*args):
        if not made:
            try:
                code, python = _compiled(source)
                namespace.update(python)
                made.append(_define(_named(code, names, constants) if names or constants else code, namespace))
            except _REFUSALS:
                made.append(None)
        return made[0](*args) if made[0] is not None else None
    return entry


def _is_check(node, scope) -> bool:
    """`assertions.is_check`: runtime.assertions is imported only for a call whose name could be
    an assert builtin's (each begins with `assert`), as the closure compiler does."""
    if type(node.func) is not ast.Name or not node.func.name.startswith("assert"):
        return False
    from synsema.runtime import assertions
    return assertions.is_check(node, scope)


class _GiveUp(Exception):
    """Generation is not possible here; the caller keeps the closures."""


def _contains(node, kinds) -> bool:
    """Whether `node` or a node below it is one of `kinds` (nested task and lambda bodies,
    which run on their own, excluded)."""
    todo = [node]
    while todo:
        n = todo.pop()
        t = type(n)
        if t in kinds:
            return True
        if t is ast.Lambda or t is ast.TaskDef:
            continue
        todo.extend(ast.children(n))
    return False


def _contains_call(node) -> bool:
    """Whether evaluating `node` may run a call written inline."""
    return _contains(node, (ast.Call, ast.Pipe))


# The start of a line assigning a temporary (Generator.store).
_ASSIGNED = re.compile(r"^(\s*)t[0-9]+ = ")
# Lines that end one clause of a compound statement and start the next, which a clause that has
# run to its end skips (`finally` runs after it, so it is not among them).
_CLAUSE = re.compile(r"(elif .*|else|except.*):")


def _last_assignments(lines: list[str], t: str) -> bool:
    """Whether generated `lines` (an expression's statements) assign the temporary `t`, never read
    it, and run nothing after an assignment of it: every later line less indented than the clause
    it is in starts another clause of the same statement; no loop. The variable written instead
    of `t` then changes only as the expression's last act, after every read of it there."""
    name = re.compile(rf"\b{t}\b")
    assigns = []
    for i, line in enumerate(lines):
        body = line.lstrip()
        if body.startswith(("for ", "while ")):
            return False
        if body.startswith(t + " = "):
            if name.search(body[len(t) + 3:]):
                return False
            assigns.append(i)
        elif name.search(line):
            return False
    if not assigns:
        return False
    for i in assigns:
        level, other_clause = len(lines[i]) - len(lines[i].lstrip()), False
        for line in lines[i + 1:]:
            indent = len(line) - len(line.lstrip())
            if indent >= level:   # in the assignment's own block (runs after it), or in a clause it skips
                if not other_clause:
                    return False
            elif _CLAUSE.fullmatch(line.strip()):
                level, other_clause = indent + 4, True
            else:
                return False
    return True


def _signals(node) -> bool:
    """Whether a statement may end with the GIVE or STOP signal."""
    return _contains(node, (ast.Give, ast.Stop))


def _needs_frame(body) -> bool:
    """Whether a body holds a node the generator does not write inline (so it cannot be a direct
    body): then the direct attempt, which would give up there, is skipped. A comparison without
    an int fast path (`in`, a chain) is such a node, though e_Compare exists."""
    for node in ast.walk(ast.Module("", body) if type(body) is list else body):
        name = type(node).__name__
        if name not in _WRITTEN_PARTS and not hasattr(Generator, "s_" + name) and not hasattr(Generator, "e_" + name):
            return True
        if (name == "Binary" or name == "Compare") and not _inline_operator(node):
            return True
    return False


def _inline_operator(node) -> bool:
    """Whether e_Binary / e_Compare write `node` inline: every Binary (an int fast path, or the
    general operator called from the generated code), one comparison with an int fast path."""
    if type(node) is ast.Binary:
        return True
    return len(node.ops) == 1 and node.ops[0] in _FAST_OPERATORS


# Builtins whose common case is a Python expression that runs no code but the builtin's own and
# reads no call depth: (name, number of arguments) -> (the test that the arguments are of those
# kinds, the expression, whether it builds a value, so that the host may fail it: MemoryError,
# reported as the builtin's), as stdlib's length, get, replace, lower and split compute it for
# them (replace: a non-empty text to find and a replacement no longer than it, so the text
# cannot grow; split: a non-empty separator and a text shorter than the list limit). The
# result-size test after the call stays.
_INLINE_BUILTINS = {
    ("length", 1): ("{0}.__class__ is str or {0}.__class__ is list or {0}.__class__ is dict "
                    "or {0}.__class__ is bytes", "len({0})", False),
    ("get", 2): ("{0}.__class__ is dict and {1}.__class__ is str", "{0}.get({1})", False),
    ("get", 3): ("{0}.__class__ is dict and {1}.__class__ is str", "{0}.get({1}, {2})", False),
    ("replace", 3): ("{0}.__class__ is str and {1}.__class__ is str and {2}.__class__ is str and {1} "
                     "and len({2}) <= len({1})", "{0}.replace({1}, {2})", True),
    ("lower", 1): ("{0}.__class__ is str", "{0}.lower()", True),
    ("split", 2): ("{0}.__class__ is str and {1}.__class__ is str and {1} and len({0}) < MAX_LIST_LENGTH",
                   "{0}.split({1})", True),
}

# Builtins that call a callback once per item of a list, written as a loop where the call's second
# argument is a literal lambda (Generator.callback_loop): name -> (the call's number of arguments,
# the lambda's parameters, what the result starts as, what an item does before the lambda's body
# and after it with its value `{v}`; `{x}` is the item, `{r}` the result, `{a}` the lambda's first
# parameter, `{i}` the third argument), as stdlib/collections computes them (`[x for x in xs if
# call(x)]`, `all(...)`, `reduce`'s fold from its initial value, …).
_CALLBACK_LOOPS = {
    "where": (2, 1, "{r} = []", (), ("if {v}:", "    {r}.append({x})")),
    "apply": (2, 1, "{r} = []", (), ("{r}.append({v})",)),
    "count_where": (2, 1, "{r} = 0", (), ("if {v}:", "    {r} += 1")),
    "every": (2, 1, "{r} = True", (), ("if not {v}:", "    {r} = False", "    break")),
    "some": (2, 1, "{r} = False", (), ("if {v}:", "    {r} = True", "    break")),
    "find_first": (2, 1, "{r} = None", (), ("if {v}:", "    {r} = {x}", "    break")),
    "reduce": (3, 2, "{r} = {i}", ("{a} = {r}",), ("{r} = {v}",)),
}

# Nodes written inline as parts of another (a `match`'s arms and patterns: Generator.s_Match).
_WRITTEN_PARTS = frozenset({"Module", "MatchArm", "PWildcard", "PBind", "PValue", "PList", "PMap"})


# What a loop body may hold for the in-place `append`/`slice` statements in it to test once, before
# the loop, that those globals are still the builtins (Generator.hoist_builtins): nodes that run
# no code of the program's but their own. A call of any kind, a `try`, a lambda or a task is not
# among them.
_CALL_FREE = frozenset({
    ast.Num, ast.Str, ast.Template, ast.Bool, ast.Nothing, ast.Name, ast.ListLit, ast.MapLit, ast.Unary,
    ast.Binary, ast.Compare, ast.And, ast.Or, ast.Attr, ast.Index, ast.InlineWhen, ast.ExprStmt, ast.Let,
    ast.Set, ast.Give, ast.When, ast.Each, ast.While, ast.Stop, ast.Match, ast.MatchArm, ast.PWildcard,
    ast.PValue, ast.PBind, ast.PList, ast.PMap})
_IN_PLACE = ("append", "slice")


def _in_place_call(node) -> str | None:
    """The builtin's name when `node` is `set xs to append(xs, item)` or `set xs to slice(xs, i[, j])`
    with integer literals, `i` >= 0 (the statements compiler._append_pattern / _shrink_pattern run
    in place), else None."""
    from synsema.runtime.compiler import _int_literal
    call = node.value
    if not (type(node.target) is ast.Name and type(call) is ast.Call and type(call.func) is ast.Name
            and not call.named and call.args and type(call.args[0]) is ast.Name
            and call.args[0].name == node.target.name):
        return None
    name = call.func.name
    if name == "append" and len(call.args) == 2:
        return name
    if name == "slice" and len(call.args) in (2, 3):
        start = _int_literal(call.args[1])
        if start is not None and start >= 0 and (len(call.args) == 2 or _int_literal(call.args[2]) is not None):
            return name
    return None


def _in_place_only(body) -> set | None:
    """The builtins (`append`, `slice`) that in-place statements of `body` call, when `body` runs
    no code of the program's but its own otherwise (_CALL_FREE) and binds neither name; else None."""
    used = set()
    todo = list(body)
    while todo:
        node = todo.pop()
        t = type(node)
        if t is ast.Set and type(node.value) is ast.Call:
            name = _in_place_call(node)
            if name is None:
                return None
            used.add(name)
            todo.extend(node.value.args[1:])
            continue
        if t not in _CALL_FREE or ((t is ast.Let and node.name in _IN_PLACE)
                                   or (t is ast.Set and type(node.target) is ast.Name and node.target.name in _IN_PLACE)):
            return None
        todo.extend(ast.children(node))
    return used


def _frame_owner(scope, depth: int):
    """The scope whose frame is `depth` frames out from code in `scope` (as Scope.resolve counts)."""
    s = scope
    while not s.opens_frame:
        s = s.parent
    for _ in range(depth):
        s = s.parent
        while not s.opens_frame:
            s = s.parent
    return s


def _text_or_int_literal(node) -> str | None:
    """'str' or 'int' when `node` is a text literal or an integer literal (bools are not ints here)."""
    if type(node) is ast.Str:
        return "str"
    if type(node) is ast.Num and type(node.value) is int:
        return "int"
    return None


def _bool_node(node) -> bool:
    """An operand `and`/`or` need not pass through bool() (Compiler.truth's rule)."""
    return type(node) in _BOOLEAN_NODES or (type(node) is ast.Compare and len(node.ops) == 1
                                            and node.ops[0] in _ORDERING)


class Generator:
    """Writes one function. `compiler` supplies the closures of everything not written inline."""

    names: dict = {}   # what a subclass's generated code reads besides _NAMESPACE (codegen_labels)

    def __init__(self, compiler, task_body: bool, direct: bool = False, local_slots: bool = False):
        self.c = compiler
        self.task_body = task_body      # a `give` returns its value directly
        self.direct = direct            # a direct body: direct(env, depth, *args) (the module doc)
        # The frames this function opens keep their slots in Python locals (a direct body's, and a
        # loop's own `each` frames when nothing in it needs a frame list): no closure can run here.
        self.local_slots = direct or local_slots
        self.local_frames: set[str] = set()   # the names of those frames
        self.inline_calls = compiler.generated_calls
        self.lines: list[str] = []
        self.values: list = []          # the function's globals k0, k1, … (`finish`)
        self.value_names: dict[int, str] = {}
        self.temps = 0
        self.statement_temps: list[str] = []
        self.frames: list[tuple[str, object]] = []   # (Python name, Scope), innermost last
        self.loops = 0                  # generated loops around the code being written
        self.indent = 2
        self.frame_count = 0
        self.bound: set[str] = set()    # slots a `let` earlier in an enclosing block has bound
        self.sites: list[str] = []      # call sites' caches of the direct callee last called there
        self.hoisted: dict[str, str] = {}   # builtin name -> a local: "the global is still it" (hoist_builtins)
        self.name_reads: dict[str, str] = {}   # a global read by name -> its placeholder (`global_read`)
        self.constants: set[str] = set()       # values kN written as constants of the code (`operand`)
        self.callback_arity = 0         # a direct lambda body of 1 or 2 parameters gets an entry (finish)
        self.frameless = False          # writing a lambda's body inline (callback_loop): it has no frame list
        self.hoists = False             # a parameter's int test may be made once at entry (is_int; `generate` sets it)
        self.int_marks: set[str] = set()   # the locals whose int test is_int wrote as a marker

    # ------------------------------------------------------------------ plumbing
    def emit(self, text: str) -> None:
        self.lines.append("    " * self.indent + text)

    def value(self, v) -> str:
        key = id(v)
        name = self.value_names.get(key)
        if name is None:
            name = self.value_names[key] = f"k{len(self.values)}"
            self.values.append(v)
        return name

    def key(self, name: str) -> str:
        """A global's name as a key of `g`, interned as the keys the compiler stores are
        (Compiler.binder, interp.builtin_globals): the dictionary finds it by identity."""
        return self.value(sys.intern(name))

    def temp(self) -> str:
        self.temps += 1
        name = f"t{self.temps}"
        self.statement_temps.append(name)
        return name

    @property
    def frame(self) -> str:
        if self.local_slots or self.frameless:
            raise _GiveUp()   # a closure needs the frame list, which local slots do not build
        return self.frames[-1][0]

    def location(self, depth: int, slot: int) -> str:
        """Where the frame slot `depth` frames out is: a Python local of a frame this function
        keeps in locals, else an item of a frame list."""
        if depth < len(self.frames):
            name = self.frames[-1 - depth][0]
            return f"{name}{slot}" if name in self.local_frames else f"{name}[{slot}]"
        if self.direct:   # a frame of an enclosing task, reached through the body's `env`
            return "env" + "[0]" * (depth - len(self.frames)) + f"[{slot}]"
        return self.frames[0][0] + "[0]" * (depth - len(self.frames) + 1) + f"[{slot}]"

    def drop_temps(self, keep) -> None:
        """Drop every temporary but `keep` before a reference count decides (compiler._own)."""
        dropped = [t for t in self.statement_temps if t not in keep]
        if dropped:
            self.emit(" = ".join(dropped) + " = None")

    @property
    def scope(self):
        return self.frames[-1][1]

    def finish(self, params: int = 0, size: int = 0):
        """Compile the function (the text shared by bodies of one shape) and make it in a namespace
        of its own holding this body's values (k0, k1, …) and call-site caches as globals: globals,
        not closure cells, because a Python call copies every cell of a closure into the new frame
        and a body's values are many (18 for fib), while a global read is one specialised lookup."""
        if self.hoists:
            self.hoist_int_tests(params)
        sites = [f"{s}{part}" for s in self.sites for part in ("", "_fn", "_env")]
        declared = f"        global {', '.join(sites)}\n" if sites else ""
        if self.direct:
            args = ", ".join(["env", "depth", *(f"v{i}" for i in range(1, params + 1))])
            unbound = "".join(f"        v{i} = U\n" for i in range(params + 1, size))
            arguments = "".join(f", f0[{i}]" for i in range(1, params + 1))
            source = (f"def make():\n    def direct({args}):\n{declared}{unbound}"
                      + "\n".join(self.lines)
                      + "\n    def body(f0):\n        depth = reg.depth\n        try:\n"
                      f"            return direct(f0[0], depth{arguments})\n"
                      "        finally:\n            reg.depth = depth\n"
                      "    return body, direct\n")
        else:
            source = (f"def make():\n    def body(f0):\n{declared}" + "\n".join(self.lines)
                      + "\n    return body\n")
        from synsema.runtime.compiler import _store
        try:
            code, python = _compiled(source)
            # The program's globals are the generated code's builtins: a global read by name
            # (`global_read`) is CPython's specialised LOAD_GLOBAL of the dictionary's current entry.
            g = self.c.globals
            namespace = dict(_NAMESPACE, g=g, rt=self.c.rt, reg=REG, store=_store,
                             st=getattr(self.c.rt, "labels", None), __builtins__=g, **python, **self.names)
            namespace.update((f"k{i}", v) for i, v in enumerate(self.values))
            namespace.update((site, _NO_TASK) for site in sites)
            names = {placeholder: name for name, placeholder in self.name_reads.items()}
            if not namespace.keys().isdisjoint(self.name_reads):   # global_read's test missed one
                raise ValueError(f"a global read by name is a generated name: {sorted(self.name_reads)}")
            constants = {_CONSTANT.format(k): self.values[int(k[1:])] for k in self.constants}
            if names or constants:
                code = _named(code, names, constants)
        except _REFUSALS as problem:
            if len(REFUSED) < 20:   # tests/test_codegen_differential.py checks nothing it runs lands here
                REFUSED.append(f"{type(problem).__name__}: {problem}")
            raise _GiveUp() from None
        made = _define(code, namespace)()
        if self.direct and self.callback_arity and params == self.callback_arity:
            made[1].entry = _callback_entry(self.callback_source(params, size, declared), namespace, names, constants)
        return made

    def callback_source(self, params: int, size: int, declared: str) -> str:
        """The source of `entry(env)`, which makes this lambda's body a Python function of its
        arguments for a builtin calling it once per item (calls.callback): the body's own lines
        inside the bookkeeping calls.callback's wrapper does around `direct` (the depth limit, a
        step, one level deeper, REG.depth put back however it ends), so a call is one Python
        call, not a wrapper's and the body's."""
        pad = "    "
        args = ", ".join(f"v{i}" for i in range(1, params + 1))
        unbound = "".join(f"{pad * 2}v{i} = U\n" for i in range(params + 1, size))
        return (f"def entry(env):\n{pad}def callback({args}):\n"
                + declared + unbound
                + f"{pad * 2}saved_depth = reg.depth\n{pad * 2}if saved_depth >= RECURSION_LIMIT:\n"
                f"{pad * 3}raise SynError('maximum recursion depth exceeded')\n"
                f"{pad * 2}next(STEPS)\n{pad * 2}depth = saved_depth + 1\n{pad * 2}try:\n"
                + "".join(f"{pad}{line}\n" for line in self.lines)
                + f"{pad * 2}finally:\n{pad * 3}reg.depth = saved_depth\n{pad}return callback\n")

    def global_read(self, name: str) -> tuple[str, str]:
        """Python source reading the global `name`, and the exception it raises when `name` is not
        bound. Mostly a Python name: the program's globals are the generated code's builtins, so
        CPython's specialised LOAD_GLOBAL reads the dictionary's current entry (every rebinding
        seen at once) for less than a subscript of `g` costs. The text holds a placeholder (`_G0`,
        …) that the compiled code gets the name for (`_named`), so bodies of one shape still
        compile once. A name that the generated function's own globals or Python's builtins
        hold (or may: one starting with `_`) is a subscript of `g`."""
        if (not name.startswith("_") and name not in _NAMESPACE and name not in _PYTHON and name not in self.names
                and not _own_global(name)):
            placeholder = self.name_reads.get(name)
            if placeholder is None:
                placeholder = self.name_reads[name] = _PLACEHOLDER.format(len(self.name_reads))
            return placeholder, "NameError"
        return f"g[{self.key(name)}]", "KeyError"

    # ------------------------------------------------------------------ entry points
    def open_body(self, scope) -> None:
        """The frame of the task or lambda body being written."""
        self.frames.append(("v" if self.direct else "f0", scope))
        if self.direct:
            self.local_frames.add("v")

    def task(self, stmts: list, scope):
        self.open_body(scope)
        self.block(stmts, tail=True)
        self.emit("return None")
        return self.finish(scope.params, scope.size)

    def lambda_body(self, node, scope):
        self.callback_arity = scope.params if scope.params in (1, 2) else 0   # what calls.callback takes
        self.open_body(scope)
        self.emit(f"return {self.expr(node)}")
        return self.finish(scope.params, scope.size)

    def loop(self, node, scope, tail: bool):
        """A `while`/`each` statement as a function with the statement contract (value or signal)."""
        self.frames.append(("f0", scope))
        self.statement(node, tail=False)
        self.emit("return None")
        return self.finish()

    # ------------------------------------------------------------------ statements
    def block(self, stmts: list, tail: bool) -> None:
        if not stmts:
            if tail:
                self.emit("return None")
            return
        for i, stmt in enumerate(stmts):
            self.statement(stmt, tail and i == len(stmts) - 1)

    def end_statement(self) -> None:
        """Drop what temporaries hold, so no list or map stays referenced (compiler._own)."""
        if self.statement_temps:
            self.emit(" = ".join(self.statement_temps) + " = None")
            self.statement_temps = []

    def statement(self, node, tail: bool) -> None:
        method = getattr(self, "s_" + type(node).__name__, None)
        if method is None or not method(node, tail):
            self.fallback_statement(node, tail)
        self.end_statement()

    def fallback_statement(self, node, tail: bool) -> None:
        compiled = self.c.stmt(node, self.scope, tail)
        if compiled is None:   # a statement with nothing to run (a nested `require`)
            if tail:
                self.emit("return None")
            return
        run = self.value(compiled)
        if tail:
            self.emit(f"return {run}({self.frame})")
            return
        if not _signals(node):
            self.emit(f"{run}({self.frame})")
            return
        r = self.temp()
        self.emit(f"{r} = {run}({self.frame})")
        self.emit(f"if {r} is GIVE or {r} is STOP:")
        if self.loops:
            self.emit(f"    if {r} is STOP:")
            self.emit("        break")
        self.emit(f"    return {r}")

    def s_ExprStmt(self, node, tail):
        v = self.expr(node.expr)
        if tail:
            self.emit(f"return {v}")
        return True

    def s_Let(self, node, tail):
        scope = self.scope
        if node.exported or node.name in PROTECTED_NAMES:
            return False
        if scope.is_global:
            v = self.expr(node.value)
            self.emit(f"g[{self.key(node.name)}] = {v}")
        elif self.c.plain_slots:
            slot = scope.declare(node.name)
            mark = len(self.lines)
            v = self.expr(node.value)
            where = self.location(0, slot)
            v = self.store(where, v, mark)
            self.bound.add(where)
        else:
            return False
        if tail:
            self.emit(f"return {v}")
        return True

    def s_Set(self, node, tail):
        target = node.target
        if type(target) is ast.Index and type(target.obj) is ast.Name:
            return self.set_key(node, tail)
        if type(target) is not ast.Name or target.name in PROTECTED_NAMES:
            return False
        name = target.name
        c = self.c
        scope = self.scope
        candidates = scope.resolve(name)
        if _append_call(node, name):   # (not _append_pattern: it compiles the statement's closures)
            v = self.set_append(node, name, candidates)
        elif not candidates:
            v = self.expr(node.value)
            key = self.key(name)
            self.emit(f"if {key} in g:")
            self.emit(f"    g[{key}] = {v}")
            self.emit("else:")
            self.emit(f"    raise {self.value(_not_declared_raiser(name, node.span))}()")
        elif len(candidates) == 1 and candidates[0][0] == 0:
            where = self.location(0, candidates[0][1])
            if c._shrink_pattern(node, name, scope) is not None:
                v = self.set_shrink(node, where)
                if tail:
                    self.emit(f"return {v}")
                return True
            mark = len(self.lines)
            v = self.expr(node.value)
            if where in self.bound:
                v = self.store(where, v, mark)
                if tail:
                    self.emit(f"return {v}")
                return True
            self.emit(f"if {where} is U:")
            self.emit(f"    {self.value(_set_outer(name, node.span, c.globals))}({v})")
            self.emit("else:")
            self.emit(f"    {where} = {v}")
        else:
            v = self.expr(node.value)
            self.located(name, candidates, node.span, lambda where: self.emit(f"{where} = {v}"))
        if tail:
            self.emit(f"return {v}")
        return True

    def store(self, where: str, v: str, mark: int) -> str:
        """`where = v` for a value written from line `mark` on; what holds it afterwards. When
        those lines only assign the temporary `v`, each assignment the last thing they run
        (`_last_assignments`), they assign `where` instead: one store and no temporary to drop,
        and `where` is still unchanged if they fail before it."""
        written = self.lines[mark:]
        if v in self.statement_temps and _last_assignments(written, v):
            self.lines[mark:] = [_ASSIGNED.sub(lambda m: m.group(1) + where + " = ", line, count=1)
                                 if line.lstrip().startswith(v + " = ") else line for line in written]
            self.statement_temps.remove(v)
            return where
        self.emit(f"{where} = {v}")
        return v

    def set_shrink(self, node, where) -> str:
        """`set xs to slice(xs, i, j)` as compiler._shrink_pattern runs it: the local list cut in
        place when it is a list nobody else holds and `slice` is the builtin, else the general
        statement (the builtin's call, then the store with its unbound test)."""
        from synsema.runtime.compiler import _int_literal
        c = self.c
        call = node.value
        start = _int_literal(call.args[1])
        end = _int_literal(call.args[2]) if len(call.args) == 3 else None
        xs, v = self.temp(), self.temp()
        self.emit(f"{xs} = {where}")
        self.emit(f"if {xs}.__class__ is list and {self.is_builtin('slice')} and getrefcount({xs}) <= 3:")
        if end is not None:
            self.emit(f"    del {xs}[{self.value(end)}:]")
        if start:
            self.emit(f"    del {xs}[:{self.value(start)}]")
        self.emit(f"    {v} = {xs}")
        self.emit("else:")
        self.indent += 1
        self.emit(f"{xs} = None")
        general = self.general_call(call)
        self.emit(f"{v} = {general}")
        self.refresh_hoisted()
        if where in self.bound:
            self.emit(f"{where} = {v}")
        else:
            self.emit(f"if {where} is U:")
            self.emit(f"    {self.value(_set_outer(node.target.name, node.span, c.globals))}({v})")
            self.emit("else:")
            self.emit(f"    {where} = {v}")
        self.indent -= 1
        return v

    def located(self, name, candidates, span, write) -> None:
        """Code acting on the variable `name` where `compiler.locator` finds it: the innermost
        frame that has it bound, else the globals; `write(location)` emits the action."""
        where = self.location(*candidates[0]) if candidates else None
        if where in self.bound:   # a `let` before this statement bound the innermost one
            write(where)
            return
        first = True
        for depth, slot in candidates:
            where = self.location(depth, slot)
            self.emit(f"{'if' if first else 'elif'} {where} is not U:")
            first = False
            self.indent += 1
            write(where)
            self.indent -= 1
        key = self.key(name)
        self.emit(f"{'if' if first else 'elif'} {key} in g:")
        self.indent += 1
        write(f"g[{key}]")
        self.indent -= 1
        self.emit("else:")
        self.emit(f"    raise {self.value(_not_declared_raiser(name, span))}()")

    def set_append(self, node, name, candidates) -> str:
        """`set xs to append(xs, item)` as compiler._append_pattern runs it: in place when the
        list is nobody else's, the list read before `item` runs; every temporary dropped before
        the reference count is read. The variable is written again only when it gets another
        list (a copy, or the item's code rebound it: tested only when `item` holds a call)."""
        c = self.c
        call = node.value
        builtin_append = self.value(c.globals.get("append"))
        callee = c._global_name(call.func, self.scope) if type(c.globals.get("append")) is Builtin else None
        xs, v = self.temp(), self.temp()
        item_node = call.args[1]

        def grow(where):
            if _contains_call(item_node):   # code the item runs may have rebound the variable
                self.emit(f"if {where} is not {xs}:")
                self.emit(f"    {xs} = {xs} + [{v}]")
                self.emit(f"    {where} = {xs}")
                self.emit(f"elif getrefcount({xs}) > 3:")
            else:
                self.emit(f"if getrefcount({xs}) > 3:")
            self.emit(f"    {xs} = {xs}.copy()")
            self.emit(f"    {xs}.append({v})")
            self.emit(f"    {where} = {xs}")
            self.emit("else:")
            self.emit(f"    {xs}.append({v})")

        def item(keep):
            """The item into `v`, then every temporary but `keep` dropped; the ones the item made
            are not dropped again at the statement's end (nothing after this assigns them)."""
            made = len(self.statement_temps)
            self.emit(f"{v} = {self.expr(item_node)}")
            self.drop_temps(keep)
            self.statement_temps[made:] = [t for t in self.statement_temps[made:] if t in keep]

        def general(write):
            """The general path, its own temporaries dropped where it ends."""
            made = len(self.statement_temps)
            self.emit(f"{v} = {self.general_call(call)}")
            self.refresh_hoisted()
            write()
            own = self.statement_temps[made:]
            if own:
                self.emit(" = ".join(own) + " = None")
                del self.statement_temps[made:]

        if len(candidates) == 1 and candidates[0][0] == 0:
            where = self.location(0, candidates[0][1])
            self.emit(f"{xs} = {where}")
            test = self.is_builtin(callee) if callee else f"{self.expr(call.func)} is {builtin_append}"
            self.emit(f"if {xs}.__class__ is list and {test}:")
            self.indent += 1
            item((xs, v))
            grow(where)
            self.emit(f"{v} = {xs}")
            self.indent -= 1
            self.emit("else:")
            self.indent += 1
            self.emit(f"{xs} = None")
            general(lambda: self.emit(f"{where} = {v}"))
            self.indent -= 1
            return v
        done = self.temp()
        self.emit(f"{done} = False")
        self.emit(f"if {self.hoisted[callee]}:" if callee in self.hoisted
                  else f"if {self.expr(call.func)} is {builtin_append}:")
        self.indent += 1

        def in_place(where):
            if where is not None:
                self.emit(f"{xs} = {where}")
            self.emit(f"if {xs}.__class__ is list:")
            self.indent += 1
            item((xs, v, done))
            grow(where or f"g[{self.key(name)}]")
            self.emit(f"{v} = {xs}")
            self.emit(f"{done} = True")
            self.indent -= 1
            self.emit("else:")
            self.emit(f"    {xs} = None")
        if candidates:
            self.located(name, candidates, node.span, in_place)
        else:   # a global only: read in a `try` (free), not tested with `in` first
            self.emit("try:")
            self.emit(f"    {xs} = g[{self.key(name)}]")
            self.emit("except KeyError:")
            self.emit(f"    raise {self.value(_not_declared_raiser(name, node.span))}()")
            in_place(None)
        self.indent -= 1
        self.emit(f"if not {done}:")
        self.indent += 1
        general(lambda: self.located(name, candidates, node.span, lambda where: self.emit(f"{where} = {v}")))
        self.indent -= 1
        return v

    def hoist_builtins(self, body) -> list[str]:
        """Before a loop whose body runs no code of the program's but its in-place `append`/`slice`
        statements (_in_place_only): whether those globals still hold the builtins, tested once
        into locals the statements read instead of the globals (a dictionary read and a method
        call per statement). Nothing in such a body can rebind a global but the general path of
        those statements (the variable not a list, or the name rebound), which calls the global and
        tests again after it (refresh_hoisted). The names hoisted here, for the loop to drop."""
        used = _in_place_only(body)
        new = []
        for name in sorted(used or ()):
            builtin = self.c.globals.get(name)
            if (name in self.hoisted or type(builtin) is not Builtin or builtin.spec.name != name
                    or self.scope.resolve(name)):
                continue
            self.hoisted[name] = f"h{len(self.lines)}_{name}"
            new.append(name)
        self.refresh_hoisted(new)
        return new

    def refresh_hoisted(self, names=None) -> None:
        for name in self.hoisted if names is None else names:
            self.emit(f"{self.hoisted[name]} = g.get({self.key(name)}) is {self.value(self.c.globals.get(name))}")

    def is_builtin(self, name: str) -> str:
        """A test that the global `name` still holds the builtin it held when the body was written."""
        flag = self.hoisted.get(name)
        if flag is not None:
            return flag
        return f"g.get({self.key(name)}) is {self.value(self.c.globals.get(name))}"

    def set_key(self, node, tail) -> bool:
        """`set m[k] to v` as compiler.s_Set's `set_key` runs it: in place on an unshared map
        at a text key, else `_store` (which copies a shared container first)."""
        c = self.c
        name = node.target.obj.name
        scope = self.scope
        if c._keyed_append(node, name, None, None, scope) is not None:
            return False
        candidates = scope.resolve(name)
        v = self.expr(node.value)
        if v[0] != "t":
            held = self.temp()
            self.emit(f"{held} = {v}")
            v = held
        k = self.expr(node.target.index)
        box = self.temp()
        span = self.value(node.span)

        def write(where):
            self.drop_temps((v, k))
            self.emit(f"if {where}.__class__ is dict and {k}.__class__ is str and getrefcount({where}) <= 2:")
            self.emit(f"    {where}[{k}] = {v}")
            self.emit("else:")
            self.indent += 1
            self.emit(f"{box} = [{where}]")
            self.emit(f"{where} = None")
            self.emit("try:")
            self.emit(f"    store({box}, 0, {k}, {v})")
            self.emit("except SynError as error:")
            self.emit(f"    raise error.at({span})")
            self.emit("finally:")
            self.emit(f"    {where} = {box}[0]")
            self.emit(f"    {box} = None")
            self.indent -= 1
        self.located(name, candidates, node.span, write)
        if tail:
            self.emit(f"return {v}")
        return True

    def s_Match(self, node, tail):
        """`match`, written by runtime.codegen_match (imported at the first `match` a body holds)."""
        from synsema.runtime.codegen_match import write_match
        return write_match(self, node, tail)

    def literal(self, value) -> str:
        """A pattern's literal, length or position (an int, text or bool, one side of a test of
        the subject) as a constant of the compiled code, as `operand` writes one."""
        k = self.value(value)
        self.constants.add(k)
        return repr(_CONSTANT.format(k))

    def s_Give(self, node, tail):
        scope = self.scope
        if not scope.in_task() and not self.c._in_test(scope):
            return False  # the closure compiler raises the load error
        v = self.expr(node.value) if node.value is not None else "None"
        if tail or self.task_body:
            self.emit(f"return {v}")
        else:
            self.emit(f"reg.value = {v}")
            self.emit("return GIVE")
        return True

    def s_Stop(self, node, tail):
        if not self.loops:
            return False
        if node.value is not None:
            self.expr(node.value)
        self.emit(f"reg.stop_span = {self.value(node.span)}")
        self.emit("break")
        return True

    def s_When(self, node, tail):
        if len(node.branches) > 12:
            return False
        self._branches(list(node.branches), node.otherwise, tail)
        return True

    def _branches(self, branches, otherwise, tail):
        cond, body = branches[0]
        self.emit(f"if {self.condition(cond)}:")
        self.nested(body, tail)
        rest = branches[1:]
        if rest or otherwise is not None or tail:
            self.emit("else:")
            self.indent += 1
            if rest:
                self._branches(rest, otherwise, tail)
            elif otherwise is not None:
                self.block_body(otherwise, tail)
            else:
                self.emit("return None")
            self.indent -= 1

    def condition(self, node) -> str:
        """A test's truth, with every temporary it used dropped before the branch runs. A
        comparison of operands held in no temporary is the branch's test itself (`if a < b if …`),
        which CPython specialises, not a bool stored and read back."""
        if type(node) is ast.Compare and _inline_operator(node):
            test = self.e_Compare(node, in_test=True)
            if not any(_is_temporary(t) and t in self.statement_temps for t in _words(test)):
                self.end_statement()
                return test
            v = self.temp()
            self.emit(f"{v} = {test}")
        else:
            v = self.expr(node)
        if not _bool_node(node):
            b = self.temp()
            self.emit(f"{b} = True if {v} else False")
            v = b
        if v in self.statement_temps:
            self.statement_temps.remove(v)
            self.end_statement()
            self.statement_temps.append(v)
        else:
            self.end_statement()
        return v

    def nested(self, stmts, tail):
        self.indent += 1
        self.block_body(stmts, tail)
        self.indent -= 1

    def block_body(self, stmts, tail):
        """A nested block: what its `let`s bind is known bound only inside it."""
        if not stmts:
            self.emit("return None" if tail else "pass")
            return
        saved = set(self.bound)
        written = len(self.lines)
        self.block(stmts, tail)
        if len(self.lines) == written:   # statements with nothing to run (a bare constant)
            self.emit("pass")
        self.bound = saved

    def s_While(self, node, tail):
        c = self.c
        forever = type(node.cond) is ast.Bool and node.cond.value is True
        hoisted = self.hoist_builtins([node.cond, *node.body])   # the test runs every time round
        self.emit("while True:")
        self.indent += 1
        if not forever:
            test = self.condition(node.cond)
            self.emit(f"if not {test}:")
            self.emit("    break")
            self.end_statement()
        self.emit("try:")
        self.indent += 1
        c.loops += 1
        self.loops += 1
        self.block_body(node.body, False)
        self.loops -= 1
        c.loops -= 1
        self.indent -= 1
        self.emit("except StopLoop:")
        self.emit("    break")
        self.indent -= 1
        for name in hoisted:
            del self.hoisted[name]
        if tail:
            self.emit("return None")
        return True

    def s_Each(self, node, tail):
        from synsema.lang.resolve import block_scope
        c = self.c
        coll = self.iterable(node.iterable)
        self.emit(f"{coll} = each_items({coll}, {self.value(node.iterable.span)})")
        c.loops += 1
        inner = block_scope(self.scope, node.body, [node.var])
        self.frame_count += 1
        outer = self.frames[-1][0]
        if self.local_slots:
            fname = f"w{self.frame_count}_"
            target = f"{fname}1"
            self.local_frames.add(fname)
        else:
            fname = f"f{self.frame_count}"
            target = f"i{self.frame_count}"
        hoisted = self.hoist_builtins(node.body)
        self.emit(f"for {target} in {coll}:")
        self.indent += 1
        self.statement_temps.remove(coll)
        saved_temps, self.statement_temps = self.statement_temps, []
        marker = len(self.lines)   # the frame (or the locals' reset) is written once the body
        self.emit("")              # has declared every slot it uses
        self.frames.append((fname, inner))
        self.emit("try:")
        self.indent += 1
        self.loops += 1
        saved = set(self.bound)
        self.bound.add(self.location(0, 1))   # the loop's variable, bound by the `for`
        self.block_body(node.body, False)
        self.bound = saved
        self.loops -= 1
        self.indent -= 1
        self.emit("except StopLoop:")
        self.emit("    break")
        if not self.local_slots:
            self.emit(f"{fname} = None")
        self.frames.pop()
        pad = "    " * self.indent
        if self.local_slots:
            reset = " = ".join(f"{fname}{i}" for i in range(2, inner.size))
            if reset:
                self.lines[marker] = pad + f"{reset} = U"
            else:
                del self.lines[marker]
        else:
            slots = "".join(", U" for _ in range(inner.size - 2))
            self.lines[marker] = pad + f"{fname} = [{outer}, {target}{slots}]"
        self.indent -= 1
        c.loops -= 1
        for name in hoisted:
            del self.hoisted[name]
        self.statement_temps = saved_temps + [coll]
        if tail:
            self.emit("return None")
        return True

    def iterable(self, node) -> str:
        """What `each` walks, into a temporary: `range(…)` as compiler.lazy_iterable runs it
        (its numbers made lazily, the call's depth level checked), anything else as computed."""
        c = self.c
        if not (type(node) is ast.Call and type(node.func) is ast.Name and node.func.name == "range"
                and not node.named and 1 <= len(node.args) <= 3):
            v = self.expr(node)
            if v[0] != "t":
                t = self.temp()
                self.emit(f"{t} = {v}")
                v = t
            return v
        from synsema.stdlib.collections import range_numbers
        fn = self.expr(node.func)
        coll = self.temp()
        span = self.value(node.span)
        self.emit(f"if {fn}.__class__ is Builtin and {fn}.spec.name == 'range':")
        self.indent += 1
        self.emit(f"if {self.depth_now()} >= RECURSION_LIMIT:")
        self.emit(f"    raise SynError('maximum recursion depth exceeded').at({span})")
        self.emit("try:")
        self.indent += 1
        bounds = [self.atom(b, node.args[i + 1:]) for i, b in enumerate(node.args)]
        self.emit(f"{coll} = {self.value(c.numbers)}({self.value(range_numbers)}, [{', '.join(bounds)}])")
        self.indent -= 1
        self.emit("except SynError as error:")
        self.emit(f"    raise error.at({span})")
        self.indent -= 1
        self.emit("else:")
        self.indent += 1
        general = self.general_call(node)
        self.emit(f"{coll} = {general}")
        self.indent -= 1
        return coll

    # ------------------------------------------------------------------ expressions
    def expr(self, node) -> str:
        """Python source for `node`'s value: a temporary, a constant or a slot read that nothing
        between here and its use can change. Statements computing it are emitted first."""
        method = getattr(self, "e_" + type(node).__name__, None)
        if method is not None:
            out = method(node)
            if out is not None:
                return out
        return self.fallback_expr(node)

    def fallback_expr(self, node) -> str:
        run = self.value(self.c.expr(node, self.scope))
        t = self.temp()
        self.emit(f"{t} = {run}({self.frame})")
        return t

    def atom(self, node, later) -> str:
        """`node`'s value, held in a temporary when the expressions after it (`later`) could
        change what it reads."""
        v = self.expr(node)
        if not v.startswith("t") and not v.startswith("k") and any(_contains_call(n) for n in later):
            t = self.temp()
            self.emit(f"{t} = {v}")
            return t
        return v

    def e_Num(self, node):
        self.c.expr(node, self.scope)  # the literal's load-time limits
        v = node.value
        if v is None or type(v) is bool:
            return repr(v)
        return self.value(v)

    e_Str = e_Num
    e_Bool = e_Num

    def e_Nothing(self, node):
        return "None"

    def e_Name(self, node):
        """A variable read as compiler.e_Name reads it: the innermost frame that has it bound,
        then the globals, else the undefined-name error (a parameter is always bound)."""
        scope = self.scope
        name = node.name
        candidates = scope.resolve(name)
        t = self.temp()
        key = self.key(name)
        missing = f"{self.value(_undefined_raiser(name, scope, self.c.globals, node.span))}()"
        if not candidates:
            read, failure = self.global_read(name)
            self.emit("try:")
            self.emit(f"    {t} = {read}")
            self.emit(f"except {failure}:")
            self.emit(f"    {missing}")
            return t
        depth, slot = candidates[0]
        owner = _frame_owner(scope, depth)
        where = self.location(depth, slot)
        if (owner.kind == "task" and slot <= owner.params) or where in self.bound:
            if self.direct or where[-1] != "]":   # a local: nothing but this code can rebind it
                self.statement_temps.remove(t)
                return where
            self.emit(f"{t} = {self.location(depth, slot)}")
            return t
        self.emit(f"{t} = {self.location(depth, slot)}")
        for depth, slot in candidates[1:]:
            self.emit(f"if {t} is U:")
            self.indent += 1
            self.emit(f"{t} = {self.location(depth, slot)}")
        self.emit(f"if {t} is U:")
        self.emit(f"    {t} = g[{key}] if {key} in g else {missing}")
        self.indent -= len(candidates) - 1
        return t

    def e_MapLit(self, node):
        t = self.temp()
        entries = []
        for i, (k, v) in enumerate(node.entries):
            later = [x for pair in node.entries[i + 1:] for x in pair]
            key = self.atom(k, [v, *later])
            entries.append((key, self.atom(v, later)))
        self.emit(f"{t} = {{}}")
        for key, v in entries:
            self.emit(f"{t}[{key} if {key}.__class__ is str else map_key({key})] = {v}")
        return t

    def e_Template(self, node):
        span = self.value(node.span)
        parts = []
        self.emit("try:")
        self.indent += 1
        for i, p in enumerate(node.parts):
            if type(p) is str:
                parts.append(self.value(p))
            else:
                v = self.expr(p)
                shown = self.temp()
                self.emit(f"{shown} = {v} if {v}.__class__ is str else str({v}) if {v}.__class__ is int "
                          f"and _SHOWN_LOW < {v} < _SHOWN_HIGH else display({v})")
                parts.append(shown)
        t = self.temp()
        holes = [p for p in parts if p[0] == "t"]
        room = MAX_TEXT_LENGTH - sum(len(p) for p in node.parts if type(p) is str)
        if holes:   # joined's limit, tested before the text is built
            self.emit(f"if {' + '.join(f'len({h})' for h in holes)} <= {self.value(room)}:")
            self.emit(f"    {t} = ''.join(({', '.join(parts)},))")
            self.emit("else:")
            self.emit(f"    {t} = joined('a template', [{', '.join(parts)}])")
        else:
            self.emit(f"{t} = joined('a template', [{', '.join(parts)}])")
        self.indent -= 1
        self.emit("except SynError as error:")
        self.emit(f"    raise error.at({span})")
        return t

    def e_Attr(self, node):
        v = self.expr(node.obj)
        t = self.temp()
        target = node.obj.name if type(node.obj) is ast.Name else None
        key = self.key(node.name)
        self.emit(f"if {v}.__class__ is dict and {key} in {v}:")
        self.emit(f"    {t} = {v}[{key}]")
        self.emit("else:")
        self.emit(f"    {t} = {self.value(_slow_attribute(node.name, target, node.span))}({v})")
        return t

    def e_ListLit(self, node):
        items = [self.atom(item, node.items[i + 1:]) for i, item in enumerate(node.items)]
        t = self.temp()
        self.emit(f"{t} = [{', '.join(items)}]")
        return t

    def e_Unary(self, node):
        if node.op == "not":
            v = self.expr(node.operand)
            t = self.temp()
            self.emit(f"{t} = not {v}")
            return t
        if type(node.operand) is ast.Num and type(node.operand.value) in (int, float):
            self.c.expr(node.operand, self.scope)
            negative = -node.operand.value
            return self.value(negative)
        if node.op != "-":
            return None
        v = self.expr(node.operand)
        t = self.temp()
        self.emit(f"if {v}.__class__ is int or {v}.__class__ is float:")
        self.emit(f"    {t} = -{v}")
        self.emit("else:")
        self.emit(f"    {t} = {self.value(_slow_negate(node.span))}({v})")
        return t

    def e_Binary(self, node):
        op = node.op
        general = _slow_binary(ops.BINARY[op], node.span, f"`{op}`")
        if op not in _FAST_OPERATORS:   # `/`, `**`: the general operator, called from here
            a = self.atom(node.left, [node.right])
            b = self.expr(node.right)
            t = self.temp()
            self.emit(f"{t} = {self.value(general)}({a}, {b})")
            return t
        return self.operator(op, node.left, node.right, general, node.span)

    def e_Compare(self, node, in_test: bool = False):
        if not _inline_operator(node):
            return None
        from synsema.runtime.compiler import _comparison
        op = node.ops[0]
        general = _slow_binary(_comparison(op), node.span, f"`{op}`")
        return self.operator(op, node.first, node.rest[0], general, node.span, in_test)

    def operator(self, op, left_node, right_node, general, span, in_test: bool = False) -> str:
        """The value of `left op right`, in a temporary; with `in_test` (a comparison that is a
        branch's test) the expression computing it, for the caller to write."""
        a = self.atom(left_node, [right_node])
        right_const = type(right_node) is ast.Num and type(right_node.value) is int
        b = self.expr(right_node)
        slow = self.value(general)
        t = self.temp()
        if op == "+" and (type(left_node) is ast.Str or type(right_node) is ast.Str):
            other = b if type(left_node) is ast.Str else a   # text joined to a literal: `_sized`'s rule inline
            self.emit(f"{t} = {a} + {b} if {other}.__class__ is str and len({a}) + len({b}) <= MAX_TEXT_LENGTH "
                      f"else {slow}({a}, {b})")
            return t
        if op == "==" or op == "!=":
            right_kind, left_kind = _text_or_int_literal(right_node), _text_or_int_literal(left_node)
            if right_kind is not None:   # a literal side: the other must be of its class
                test = self.is_int(a) if right_kind == "int" else f"{a}.__class__ is {right_kind}"
            elif left_kind is not None:
                test = self.is_int(b) if left_kind == "int" else f"{b}.__class__ is {left_kind}"
            else:
                test = (f"{a}.__class__ is {b}.__class__ and ({a}.__class__ is int or {a}.__class__ is str)")
            fast = f"{self.operand(left_node, a, right_node)} {op} {self.operand(right_node, b, left_node)}"
        else:
            test = self.is_int(a) if right_const else self.both_int(a, b)
            if op in _NONZERO:
                test += f" and {b}"
            if op == "*":
                self.emit(f"if {test}:")
                self.emit(f"    {t} = {self.operand(left_node, a, right_node)} * {self.operand(right_node, b, left_node)}")
                self.emit(f"    if not _INT_LOW < {t} < _INT_HIGH:")
                self.emit(f"        {t} = checked_product({t}, {self.value(span)})")
                self.emit("else:")
                self.emit(f"    {t} = {slow}({a}, {b})")
                return t
            fast = _INT_OPS[op].format(a=self.operand(left_node, a, right_node),
                                       b=self.operand(right_node, b, left_node))
        if in_test:
            self.statement_temps.remove(t)
            return f"({fast} if {test} else {slow}({a}, {b}))"
        self.emit(f"{t} = {fast} if {test} else {slow}({a}, {b})")
        return t

    def is_int(self, v: str) -> str:
        """The test that the value in `v` is an int. In a body whose parameters' tests may be
        hoisted (`hoists`), a parameter's is the marker `vN_int`, which `hoist_int_tests` makes a
        local tested once at the body's entry, or writes back as the test."""
        if self.hoists and _is_local_value(v):
            self.int_marks.add(v)
            return f"{v}_int"
        return f"{v}.__class__ is int"

    def both_int(self, a: str, b: str) -> str:
        """The test that the values in `a` and `b` are both ints."""
        if self.hoists and (_is_local_value(a) or _is_local_value(b)):
            return f"{self.is_int(a)} and {self.is_int(b)}"
        return f"{a}.__class__ is {b}.__class__ is int"

    def hoist_int_tests(self, params: int) -> None:
        """Resolve `is_int`'s markers: a parameter (v1 … v`params`) tested two or more times and
        never assigned in the body gets `vN_int = vN.__class__ is int` as the body's first line
        (its value's class cannot change, and reading it runs nothing: each later test is one
        local read instead of the class read and its comparison); any other marker is written
        back as the test itself."""
        text = "\n".join(self.lines)
        entry = []
        for v in sorted(self.int_marks):
            if int(v[1:]) <= params and text.count(f"{v}_int") >= 2 and not _writes(text, v):
                entry.append(f"        {v}_int = {v}.__class__ is int")
            else:   # no other name ends in `vN_int` (v12_int holds no `v2_int`)
                text = text.replace(f"{v}_int", f"{v}.__class__ is int")
        self.lines = entry + text.split("\n")

    def operand(self, node, v: str, other) -> str:
        """`v`, the value of `node`, as an operand of an inline operation (never a test of its
        truth, which Python would decide as it compiles): a number or text literal beside an
        operand that is not one is a constant of the compiled code (LOAD_CONST, not a global
        read). The text holds a placeholder per value that `_named` replaces by the value, so
        bodies of one shape still compile once; two literals stay globals (Python would fold
        the placeholders)."""
        t = type(node)
        if (t is not ast.Num and t is not ast.Str) or type(other) in (ast.Num, ast.Str) or not v.startswith("k"):
            return v
        self.constants.add(v)
        return repr(_CONSTANT.format(v))

    def e_And(self, node):
        return self.logic(node, "and")

    def e_Or(self, node):
        return self.logic(node, "or")

    def logic(self, node, word):
        left = self.expr(node.left)
        if left[0] == "t" and _bool_node(node.left):   # a temporary of its own, holding a bool
            t = left
        else:
            t = self.temp()
            self.emit(f"{t} = {left}" if _bool_node(node.left) else f"{t} = bool({left})")
        self.emit(f"if {t}:" if word == "and" else f"if not {t}:")
        self.indent += 1
        right = self.expr(node.right)
        self.emit(f"{t} = {right}" if _bool_node(node.right) else f"{t} = bool({right})")
        self.indent -= 1
        return t

    def e_InlineWhen(self, node):
        cond = self.expr(node.cond)
        t = self.temp()
        self.emit(f"if {cond}:")
        self.indent += 1
        then = self.expr(node.then)
        self.emit(f"{t} = {then}")
        self.indent -= 1
        self.emit("else:")
        self.indent += 1
        other = self.expr(node.otherwise) if node.otherwise is not None else "None"
        self.emit(f"{t} = {other}")
        self.indent -= 1
        return t

    def e_Index(self, node):
        """`obj[index]`: a list at an int position, or a map at a text key, read by Python itself
        (a position out of range or a missing key raises, and only then is the slow path run, which
        makes the language's error), any other case the general operator."""
        from synsema.runtime.compiler import _int_literal
        a = self.atom(node.obj, [node.index])
        position = _int_literal(node.index)
        t = self.temp()
        slow = self.value(self.index_slow(node.span))
        if position is not None:
            self.c.expr(node.index, self.scope)
            b = self.value(position)
            self.emit(f"if {a}.__class__ is list:")
            self.read_item(t, a, b, "IndexError", slow)
        else:
            b = self.expr(node.index)
            self.emit(f"if {a}.__class__ is list and {b}.__class__ is int:")
            self.read_item(t, a, b, "IndexError", slow)
            self.emit(f"elif {a}.__class__ is dict and {b}.__class__ is str:")
            self.read_item(t, a, b, "KeyError", slow)
        self.emit("else:")
        self.emit(f"    {t} = {slow}({a}, {b})")
        return t

    def read_item(self, t, a, b, missing, slow) -> None:
        """`t = a[b]` in the branch being written; `missing` (Python's IndexError or KeyError:
        out of range, no such key) sends it to the slow path, which raises the language's error."""
        self.emit("    try:")
        self.emit(f"        {t} = {a}[{b}]")
        self.emit(f"    except {missing}:")
        self.emit(f"        {t} = {slow}({a}, {b})")

    @staticmethod
    def index_slow(span):
        """`obj[index]` whenever the inline cases do not apply."""
        return _slow_binary(ops.index, span, None)

    def e_Pipe(self, node):
        step = node.step
        if type(step) is ast.Call:
            call = ast.Call(step.func, [node.value, *step.args], step.named, span=step.span)
        else:
            call = ast.Call(step, [node.value], [], span=node.span)
        return self.e_Call(call)

    def e_Call(self, node):
        c = self.c
        if node.named or type(node.func) is ast.Attr or _is_check(node, self.scope):
            return None
        if not self.inline_calls:
            if self.c.generated_public_calls:
                return self.public_call(node)
            return None
        looped = self.callback_loop(node)
        if looped is not None:
            return looped
        fn = self.atom(node.func, node.args)
        args = [self.atom(a, node.args[i + 1:]) for i, a in enumerate(node.args)]
        n = len(args)
        span = self.value(node.span)
        code = self.temp()
        t = self.temp()
        listed = ", ".join(args)
        env_args = "".join(f", {a}" for a in args)
        site = self.site()
        self.emit("try:")
        self.indent += 1
        known = self.known_builtin(node.func, n)
        if known is not None:
            self.indent -= 1
            self.builtin_call(known, fn, t, listed, span, args)
            self.indent += 1
            self.emit("else:")
            self.indent += 1
        self.emit(f"if {fn} is {site}:")   # a hit: one identity test
        self.indent += 1
        self.direct_call(t, f"{site}_fn({site}_env, {{depth}}{env_args})")
        self.indent -= 1
        self.emit(f"elif {fn}.__class__ is Task and ({code} := {fn}.code).arity == {n} and {code}.direct is not None:")
        self.cache(site, fn, f"{code}.direct", 1)
        self.indent += 1
        self.direct_call(t, f"{site}_fn({site}_env, {{depth}}{env_args})")
        self.indent -= 1
        self.emit(f"elif {fn}.__class__ is Builtin:")
        self.emit(f"    {self.sync_depth()}{t} = call_builtin(rt, {fn}.spec, [{listed}], None, {span})")
        self.emit("else:")
        self.emit(f"    {self.sync_depth()}{t} = call_other(rt, {fn}, [{listed}], {span})")
        self.indent -= 2 if known is not None else 1
        self.emit("except SynError as error:")
        self.emit(f"    raise error.at({span})")
        return t

    def general_call(self, node) -> str:
        """A call on a path run only when a builtin's name was rebound, or its operand is not what
        the inline path takes (the general path of an in-place append/slice, of `each … in
        range(…)`): `call_other`, which runs any callee exactly as e_Call's branches do, in a few
        lines instead of e_Call's many (less text to compile for a path that rarely runs).
        Labelled code keeps its own e_Call (codegen_labels), which holds the label rules."""
        if (not self.inline_calls or getattr(self.c, "labelled", False) or node.named or type(node.func) is ast.Attr
                or _is_check(node, self.scope)):
            return self.e_Call(node) or self.fallback_expr(node)
        fn = self.atom(node.func, node.args)
        args = [self.atom(a, node.args[i + 1:]) for i, a in enumerate(node.args)]
        span = self.value(node.span)
        t = self.temp()
        self.emit("try:")
        self.emit(f"    {self.sync_depth()}{t} = call_other(rt, {fn}, [{', '.join(args)}], {span})")
        self.emit("except SynError as error:")
        self.emit(f"    raise error.at({span})")
        return t

    def callback_loop(self, node):
        """`where(xs, (x) => …)` and the other builtins of _CALLBACK_LOOPS as a loop here, the
        lambda's body written inline on each item, instead of a lambda value and one Python call
        per item. Taken when the global still holds that builtin and `xs` is a list (else the
        lambda is made and called as any call is, `call_other`); the bookkeeping is the builtin's
        and its callback's (calls.call_builtin, calls.callback): the call's depth test, each
        item's depth test, a step per item, the body one level below the builtin, the host's
        failures as the builtin's, errors located at the call. (No result-size test: each result
        is a list no longer than `xs`, a number, a bool, one of the items or a value the body
        made.) None when the call is not of that form or the body needs a frame list (a closure)."""
        lam = node.args[1] if len(node.args) in (2, 3) else None
        if (type(lam) is not ast.Lambda or any(p.default is not None for p in lam.params)
                or self.local_slots or self.frameless or _needs_frame(lam.body)):
            return None
        fn_value = self.known_builtin(node.func, len(node.args))
        form = _CALLBACK_LOOPS.get(fn_value.spec.name) if fn_value is not None else None
        if form is None or fn_value.spec.cap is not None or form[:2] != (len(node.args), len(lam.params)):
            return None
        state = (len(self.lines), self.indent, list(self.statement_temps), set(self.bound), len(self.frames))
        try:
            return self.write_callback_loop(node, fn_value, lam, form)
        except _GiveUp:   # the body holds a node written as a closure: the call as any call
            marker, self.indent, self.statement_temps, self.bound, frames = state
            del self.lines[marker:]
            del self.frames[frames:]
            self.frameless = False
            return None

    def write_callback_loop(self, node, fn_value, lam, form) -> str:
        from synsema.lang.resolve import task_scope
        spec = fn_value.spec
        _, params, start, before, after = form
        fn = self.atom(node.func, node.args)
        xs = self.atom(node.args[0], node.args[1:])
        rest = [self.atom(a, node.args[i + 3:]) for i, a in enumerate(node.args[2:])]   # reduce's initial value
        span = self.value(node.span)
        name = self.value(spec.name)
        t, d = self.temp(), self.temp()
        self.frame_count += 1
        frame = f"c{self.frame_count}_"
        item = f"{frame}{params}"
        names = {"r": t, "x": item, "a": f"{frame}1", "i": rest[0] if rest else None}
        self.emit("try:")
        self.indent += 1
        self.emit(f"if {fn} is {self.value(fn_value)} and {xs}.__class__ is list:")
        self.indent += 1
        self.callback_loop_head(xs, d, item, start, before, names, "")
        self.local_frames.add(frame)
        self.frames.append((frame, task_scope(self.scope, lam.params, lam.body)))
        self.frameless = True
        body = lam.body
        if type(body) is ast.Compare and _inline_operator(body):
            v = self.e_Compare(body, in_test=True)
        else:
            v = self.expr(body)
        self.frameless = False
        self.frames.pop()
        self.callback_loop_tail(after, dict(names, v=v), name, d)
        self.indent -= 1
        self.emit("else:")
        self.indent += 1
        made = self.fallback_expr(lam)
        self.emit(f"{self.sync_depth()}{t} = call_other(rt, {fn}, [{', '.join([xs, made, *rest])}], {span})")
        self.indent -= 2
        self.emit("except SynError as error:")
        self.emit(f"    raise error.at({span})")
        return t

    def callback_loop_head(self, xs, d, item, start, before, names, depth_local) -> None:
        """A callback loop's bookkeeping up to its body, shared by the plain and the labelled
        loop: the builtin's and the first item's depth tests, the body's level (also kept in the
        local `depth` when `depth_local` is "depth = "), one step per item."""
        self.emit(f"{d} = reg.depth")
        self.emit(f"if {d} >= RECURSION_LIMIT or ({xs} and {d} + 1 >= RECURSION_LIMIT):")   # the call's, the first item's
        self.emit("    raise SynError('maximum recursion depth exceeded')")
        self.emit(start.format(**names))
        self.emit(f"reg.depth = {depth_local}{d} + 2")   # the body runs below the builtin's level and the callback's
        self.emit("try:")
        self.indent += 1
        self.emit(f"for {item} in {xs}:")
        self.indent += 1
        self.emit("next(STEPS)")
        for line in before:
            self.emit(line.format(**names))

    def callback_loop_tail(self, after, names, name, d) -> None:
        """A callback loop's end after its body (`names["v"]` holds the body's value): the
        builtin's own use of it, a host failure as the builtin's error, the depth put back."""
        for line in after:
            self.emit(line.format(**names))
        self.indent -= 2
        self.emit("except BUILTIN_FAILURES as problem:")
        self.emit(f"    raise builtin_failure({name}, problem) from None")
        self.emit("finally:")
        self.emit(f"    reg.depth = {d}")

    def known_builtin(self, func, n: int):
        """The builtin a call of `n` positional arguments names, when `func` is a global that
        holds a builtin as the body is generated and `n` is within its arity (so the arity check
        is this one, once); None otherwise. The call site still tests that the global holds that
        very builtin when it runs (a program may rebind the name)."""
        name = self.c._global_name(func, self.scope)
        fn = self.c.globals.get(name) if name is not None else None
        if type(fn) is not Builtin:
            return None
        spec = fn.spec
        if n < spec.min_args or (spec.max_args is not None and n > spec.max_args):
            return None
        return fn

    def builtin_call(self, fn_value, fn, t, listed, span, args=None) -> None:
        """`calls.call_builtin` written out for one positional call of a known builtin (the first
        branch of a call site, under `try: … except SynError` locating errors at the call): the
        call site for a builtin behind a capability, one level of the call depth, the host's
        failures as language errors, the result-size test. With `args` (the arguments one by
        one), a builtin of _INLINE_BUILTINS is its Python expression when the arguments are of
        the kinds it names (after the depth test: the call is still a level of the depth)."""
        spec = fn_value.spec
        name = self.value(spec.name)
        self.emit(f"    if {fn} is {self.value(fn_value)}:")
        if spec.cap is not None:
            self.emit(f"        rt.site = {span}")
        self.emit(f"        if {self.depth_now()} >= RECURSION_LIMIT:")
        self.emit("            raise SynError('maximum recursion depth exceeded')")
        form = _INLINE_BUILTINS.get((spec.name, len(args))) if args is not None else None
        if form is not None:
            test, expression, builds = form
            self.emit(f"        if {test.format(*args)}:")
            if builds:
                self.emit("            try:")
                self.emit(f"                {t} = {expression.format(*args)}")
                self.emit("            except BUILTIN_FAILURES as problem:")
                self.emit(f"                raise builtin_failure({name}, problem) from None")
            else:
                self.emit(f"            {t} = {expression.format(*args)}")
            self.emit("        else:")
            self.indent += 1
        local = self.depth_now() == "depth"   # a direct body's, or a labelled split body's (codegen_split)
        self.emit("        reg.depth = depth + 1" if local else "        reg.depth += 1")
        self.emit("        try:")
        self.emit(f"            {t} = {self.value(spec.implementation())}(rt{', ' if listed else ''}{listed})")
        self.emit("        except BUILTIN_FAILURES as problem:")
        self.emit(f"            raise builtin_failure({name}, problem) from None")
        self.emit("        finally:")
        self.emit("            reg.depth = depth" if local else "            reg.depth -= 1")
        if form is not None:
            self.indent -= 1
        self.emit(f"        if {t}.__class__ in SIZED_RESULTS and len({t}) > MAX_LIST_LENGTH:")
        self.emit(f"            check_result({name}, {t})")

    def site(self) -> str:
        """A new call site's cache: the Task last called there that has a direct body, with that
        body and the task's environment (a Task's code and env never change once made)."""
        name = f"site{len(self.sites)}"
        self.sites.append(name)
        return name

    def cache(self, site, fn, direct, indent) -> None:
        """Fill `site`'s cache with the task `fn` and its `direct` body. The task goes in last
        and the stale one out first, so an interruption part-way (Ctrl-C in the REPL, which keeps
        the program loaded) leaves a cache that misses, never one that pairs a task with another's body."""
        self.indent += indent
        self.emit(f"{site} = NO_TASK")
        self.emit(f"{site}_fn = {direct}")
        self.emit(f"{site}_env = {fn}.env")
        self.emit(f"{site} = {fn}")
        self.indent -= indent

    def direct_call(self, t, call) -> None:
        """A call of a direct body as `calls.run_body` makes it: the recursion limit checked at the
        caller's depth, one step counted, the body run one level deeper. In a direct body the
        depth is the local `depth` (passed on, never stored); elsewhere it is REG.depth, put back
        however the callee ends (a direct callee leaves REG.depth stale: see `sync_depth`)."""
        if self.direct:
            d = "depth"
        else:
            d = self.temp()
            self.emit(f"{d} = reg.depth")
        self.emit(f"if {d} >= {RECURSION_LIMIT}:")   # a literal: cheaper than reading a global
        self.emit("    raise SynError('maximum recursion depth exceeded')")
        self.step(t)
        if self.direct:
            self.emit(f"{t} = {call.format(depth='depth + 1')}")
            return
        self.emit("try:")
        self.emit(f"    {t} = {call.format(depth=d + ' + 1')}")
        self.emit("finally:")
        self.emit(f"    reg.depth = {d}")

    def step(self, t) -> None:
        """Count one step at a call site: an item taken from STEPS by a `for` loop left at once,
        which is `next(STEPS)` without a call's set-up (FOR_ITER calls the iterator's C step
        directly). An exhausted STEPS (sys.maxsize steps) would leave such a loop without taking
        anything, so its `else` raises what `next(STEPS)` raises there: counting never stops
        silently. `t` is the call's result temporary, assigned next (the loop needs a target)."""
        self.emit(f"for {t} in STEPS:")
        self.emit("    break")
        self.emit("else:")
        self.emit("    next(STEPS)")

    def depth_now(self) -> str:
        """The depth the code being written runs at."""
        return "depth" if self.direct else "reg.depth"

    def sync_depth(self) -> str:
        """What goes before a call of anything but a direct body: a direct body keeps its depth in
        the local `depth` and REG.depth is stale inside it (whatever the last callee left), so it
        is written out for the callee, which reads it (call_builtin, run_body, callbacks)."""
        return "reg.depth = depth; " if self.direct else ""

    def public_call(self, node):
        """A call in a public body (label_compiler.PublicCompiler.e_Call written inline): a task's
        closed body, or its public one while nothing is private, else give up the public run."""
        c = self.c
        if type(node.func) is not ast.Name:
            return None
        fn = self.atom(node.func, node.args)
        args = [self.atom(a, node.args[i + 1:]) for i, a in enumerate(node.args)]
        n = len(args)
        listed = "".join(f", {a}" for a in args)
        span = self.value(node.span)
        leave = self.value(c.public_leave)
        code = self.temp()
        body = self.temp()
        direct = self.temp()
        t = self.temp()
        site = self.site()
        # A hit is e_Call's: the cached closed direct body, which never answers GIVE (a direct
        # body has no frame, so no closure that could signal; its `give` is a `return`).
        self.emit(f"if {fn} is {site}:")
        self.emit("    try:")
        self.indent += 2
        self.direct_call(t, f"{site}_fn({site}_env, {{depth}}{listed})")
        self.indent -= 2
        self.emit("    except SynError as error:")
        self.emit(f"        raise error.at({span})")
        self.emit("else:")
        self.indent += 1
        self.emit(f"if {fn}.__class__ is not Task:")
        self.emit(f"    raise {leave}()")
        self.emit(f"{code} = {fn}.code")
        self.emit(f"{body} = {code}.closed")
        self.emit(f"{direct} = {code}.closed_direct")
        self.emit(f"if {body} is None and not st.touched:")
        self.emit(f"    {body} = {code}.public")
        self.emit(f"    {direct} = {code}.public_direct")
        self.emit(f"if {body} is None or {code}.arity != {n}:")
        self.emit(f"    raise {leave}()")
        # a closed direct body is the choice whatever `st.touched` says: the one kind cached
        self.emit(f"if {direct} is not None and {direct} is {code}.closed_direct:")
        self.cache(site, fn, direct, 1)
        self.emit("try:")
        self.indent += 1
        self.emit(f"if {direct} is not None:")
        self.indent += 1
        self.direct_call(t, f"{direct}({fn}.env, {{depth}}{listed})")
        self.indent -= 1
        self.emit("else:")
        self.indent += 1
        d = self.depth_now()
        self.emit(f"if {d} >= RECURSION_LIMIT:")
        self.emit("    raise SynError('maximum recursion depth exceeded')")
        self.emit("next(STEPS)")
        held = self.temp()
        self.emit(f"{held} = {d}")
        self.emit(f"reg.depth = {held} + 1")
        self.emit("try:")
        self.emit(f"    {t} = {body}([{fn}.env{listed}, *{code}.extra] if {code}.extra else [{fn}.env{listed}])")
        self.emit("finally:")
        self.emit(f"    reg.depth = {held}")
        self.indent -= 2
        self.emit("except SynError as error:")
        self.emit(f"    raise error.at({span})")
        self.emit(f"if {t} is GIVE:")
        self.emit(f"    {t} = reg.value")
        self.emit("    reg.value = None")
        self.indent -= 1
        return t


_PYTHON = builtins.__dict__


def _code_objects(code):
    yield code
    for const in code.co_consts:
        if type(const) is type(code):
            yield from _code_objects(const)


def _python_builtins(code) -> dict:
    """The Python builtins the generated `code` names (its own builtins are the program's globals)."""
    return {n: _PYTHON[n] for c in _code_objects(code) for n in c.co_names if n in _PYTHON}


def _named(code, names: dict, constants: dict):
    """`code` with each placeholder of `names` replaced by the global's name (a name is only the
    key LOAD_GLOBAL looks up) and each constant placeholder of `constants` by its value (what
    LOAD_CONST pushes): nothing is compiled again."""
    consts = tuple(_named(c, names, constants) if type(c) is type(code)
                   else constants.get(c, c) if type(c) is str else c for c in code.co_consts)
    return code.replace(co_names=tuple(names.get(n, n) for n in code.co_names), co_consts=consts)


# ---------------------------------------------------------------------- run-time helpers
def call_other(rt, fn, values: list, span):
    """Any call but a direct body of matching arity: what the closure compiler's call paths do."""
    if type(fn) is Task:
        return invoke(fn, values)
    if type(fn) is Builtin:
        return call_builtin(rt, fn.spec, values, None, span)
    return call_value(rt, fn, values)


def each_items(coll, span):
    """What `each` walks (compiler.s_Each's rule): a map's keys, a list, a range, a text."""
    t = type(coll)
    if t is dict:
        return list(coll)
    if t is not list and t is not range and t is not str and t is not bytes:
        from synsema.runtime.compiler import ITERATE_HINT
        raise SynError(f"Cannot iterate over {type_name(coll)}", span, hint=ITERATE_HINT)
    return coll


def _slow_binary(fn, span, operation):
    """The general operator, errors located at its node (fastpaths' general path)."""
    def slow(a, b):
        try:
            return fn(a, b)
        except SynError as error:
            raise error.at(span)
        except MemoryError:
            if operation is None:
                raise
            raise host_failure(operation, MemoryError()).at(span) from None
    return slow


def _slow_negate(span):
    def negate(v):
        try:
            return ops.negate(v)
        except SynError as error:
            raise error.at(span)
    return negate


def _undefined_raiser(name, scope, g, span):
    from synsema.runtime.compiler import undefined

    def missing():
        raise undefined(name, scope, g).at(span) from None
    return missing


def _slow_attribute(name, target, span):
    def attribute(o):
        try:
            return ops.attribute(o, name, target)
        except SynError as error:
            raise error.at(span)
    return attribute


def _not_declared_raiser(name, span):
    from synsema.runtime.compiler import _not_declared
    return lambda: _not_declared(name, span)


def _set_outer(name, span, g):
    from synsema.runtime.compiler import _not_declared

    def set_outer(v):
        if name in g:
            g[name] = v
        else:
            raise _not_declared(name, span)
    return set_outer


_NAMESPACE = {
    "GIVE": GIVE, "STOP": STOP, "STEPS": STEPS, "U": UNBOUND, "NO_TASK": _NO_TASK, "Task": Task, "SynError": SynError, "StopLoop": StopLoop,
    "RECURSION_LIMIT": RECURSION_LIMIT, "call_other": call_other, "call_builtin": call_builtin, "each_items": each_items,
    "checked_product": checked_product, "Builtin": Builtin, "getrefcount": sys.getrefcount,
    "map_key": map_key, "display": display, "equal": equal, "joined": joined, "_INT_LOW": -(1 << MAX_INT_BITS), "_INT_HIGH": 1 << MAX_INT_BITS,
    # ints shown with str() inline: far inside the digits `display` refuses past (values.int_text)
    "_SHOWN_LOW": -(1 << 64), "_SHOWN_HIGH": 1 << 64,
    "BUILTIN_FAILURES": BUILTIN_FAILURES, "builtin_failure": builtin_failure, "SIZED_RESULTS": SIZED_RESULTS,
    "MAX_LIST_LENGTH": MAX_LIST_LENGTH, "MAX_TEXT_LENGTH": MAX_TEXT_LENGTH, "check_result": check_result,
}


def generate(compiler, kind: str, node, scope, tail: bool = False):
    """The generated function for a task body (`kind` "task", `node` its statements), a lambda
    body ("lambda", an expression) or a loop statement ("loop"); None when it stays on closures.
    For a task or lambda, (body, direct): `direct(env, *arguments)` is the same body with its
    parameters and locals as Python locals, made when every node of the body is written inline
    (None otherwise); `body(frame)` is what every caller holding a frame calls."""
    if not ENABLED or compiler.watch is not None:
        return None
    if getattr(compiler, "labelled", False):
        from synsema.runtime.codegen_labels import generate_labelled
        return generate_labelled(compiler, kind, node, scope, tail)
    if not compiler.generates:
        return None
    saved_loops = compiler.loops
    if not _needs_frame(node):
        try:
            if kind == "loop":   # its own `each` frames in locals, the enclosing ones lists
                return Generator(compiler, False, local_slots=True).loop(node, scope, tail)
            direct = Generator(compiler, True, direct=True)
            direct.hoists = True
            return direct.task(node, scope) if kind == "task" else direct.lambda_body(node, scope)
        except _GiveUp:
            compiler.loops = saved_loops
    return _frame_mode(Generator(compiler, kind == "task"), kind, node, scope, tail)


def _frame_mode(gen, kind: str, node, scope, tail: bool):
    """What `generate` returns for a body written by `gen` in frame mode (unlabelled, or
    codegen_labels' generator): (body, None), a loop's function, or None when it gave up."""
    saved_loops = gen.c.loops
    try:
        if kind == "task":
            return gen.task(node, scope), None
        if kind == "lambda":
            return gen.lambda_body(node, scope), None
        return gen.loop(node, scope, tail)
    except _GiveUp:
        return None
    finally:
        gen.c.loops = saved_loops
