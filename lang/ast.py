"""Synsema's syntax tree: plain node classes, each with a source span.

The parser produces these; the evaluator compiles them; the static tools (`check`,
`code outline`, `code check`) read them. Nodes hold only what the source said: no resolved
slots, no runtime values. Field lists are in `_fields`, in the manner of CPython's `ast`
module; the walkers (`walk`, `children`, `walk_in_tasks`) read, per class, only the fields that
can hold nodes (`_PLAIN_FIELDS` names the ones that hold only text, numbers or flags), through a
reader made once per class (an `attrgetter`), since `synsema check` and the compiler walk large
trees many times.
"""

from __future__ import annotations

from operator import attrgetter
from collections.abc import Iterator

from synsema.lang.errors import Span


class Node:
    __slots__ = ("span",)
    _fields: tuple[str, ...] = ()

    def __init__(self, *args, span: Span | None = None):
        if len(args) != len(self._fields):
            raise TypeError(f"{type(self).__name__} takes {len(self._fields)} fields, got {len(args)}")
        for name, value in zip(self._fields, args):
            setattr(self, name, value)
        self.span = span

    def __repr__(self) -> str:
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields)
        return f"{type(self).__name__}({inner})"

    def __eq__(self, other) -> bool:  # structural, spans ignored: handy in parser tests
        return type(self) is type(other) and all(
            getattr(self, f) == getattr(other, f) for f in self._fields)

    __hash__ = object.__hash__


def _node(name: str, fields: str, doc: str, base: type = Node) -> type:
    names = tuple(fields.split()) if fields else ()
    cls = type(name, (base,), {"__slots__": names, "_fields": names, "__doc__": doc})
    cls.__init__ = _initializer(names)
    _CLASSES.append(cls)
    return cls


_CLASSES: list[type] = []  # every node class, in the order made: the walkers know exactly these


def _initializer(names: tuple[str, ...]):
    """A plain `__init__(self, <fields>, span=None)` for one node class.

    The parser builds hundreds of thousands of nodes for a large file; a generated initializer
    assigning each field directly is several times faster than the generic one in `Node`.
    """
    params = "".join(f"{n}, " for n in names)
    body = "".join(f"    self.{n} = {n}\n" for n in names)
    source = f"def __init__(self, {params}span=None):\n{body}    self.span = span\n"
    namespace: dict = {}
    exec(source, namespace)  # the field names are this module's own identifiers
    return namespace["__init__"]


class Expr(Node):
    __slots__ = ()


class Stmt(Node):
    __slots__ = ()


class Pattern(Node):
    __slots__ = ()


# ---------------------------------------------------------------- expressions
Num = _node("Num", "value", "A number literal: int, float, or decimal.Decimal for the `d` suffix.", Expr)
Str = _node("Str", "value", "A quoted text literal (never interpolates).", Expr)
Template = _node("Template", "parts",
                 "A backtick template: `parts` alternates str pieces and Expr holes, in order.", Expr)
Bool = _node("Bool", "value", "`true` or `false`.", Expr)
Nothing = _node("Nothing", "", "`nothing`.", Expr)
Name = _node("Name", "name", "A variable reference.", Expr)
ListLit = _node("ListLit", "items", "`[a, b, …]`.", Expr)
MapLit = _node("MapLit", "entries",
               "`{k: v, …}`: `entries` is a list of (key Expr, value Expr). A bare-word key is a Str.", Expr)
Unary = _node("Unary", "op operand", "`op` is '-' or 'not'.", Expr)
Binary = _node("Binary", "op left right", "Arithmetic: `op` in + - * / // % **.", Expr)
Compare = _node("Compare", "first ops rest",
                "A comparison chain `first ops[0] rest[0] ops[1] rest[1] …`; ops in "
                "== != < > <= >= in, 'not in'. Each operand is evaluated once.", Expr)
And = _node("And", "left right", "`left and right`: short-circuit, always a bool.", Expr)
Or = _node("Or", "left right", "`left or right`: short-circuit, always a bool.", Expr)
Pipe = _node("Pipe", "value step",
             "`value |> step`: a Call step gets `value` as its first argument, any other step is called with it.",
             Expr)
Call = _node("Call", "func args named",
             "`func(args…, name = value…)`: `named` is a list of (str, Expr) in source order.", Expr)
Attr = _node("Attr", "obj name", "`obj.name` and `name of obj`: reads a map key.", Expr)
Index = _node("Index", "obj index", "`obj[index]`.", Expr)
Lambda = _node("Lambda", "params body", "`(a, b) => expr`: `params` is a list of Param.", Expr)
InlineWhen = _node("InlineWhen", "cond then otherwise",
                   "`when c then x otherwise y`; `otherwise` is None when absent.", Expr)
SandboxExpr = _node("SandboxExpr", "body under",
                    "`sandbox EXPR` / `sandbox under CAPS EXPR`: `under` is None or a list of CapReq.", Expr)
LLMExpr = _node("LLMExpr", "kind subject given objective with_",
                "`reason/decide/analyze/generate`: `kind` is the word; `subject` is the reasoned-about "
                "expression, the options of `decide`, or the target of `generate`; `given` and "
                "`objective` (`for`) are Expr or None; `with_` is a list of (str, Expr).", Expr)
HumanExpr = _node("HumanExpr", "kind value extra",
                  "`show/ask/approve/confirm`: `extra` is the `as` label, `with` options or "
                  "`within` duration (Expr) or None.", Expr)

# ---------------------------------------------------------------- statements
ExprStmt = _node("ExprStmt", "expr", "An expression used as a statement.", Stmt)
Let = _node("Let", "name value exported", "`let name be value` (`exported` for `export let`).", Stmt)
Set = _node("Set", "target value",
            "`set target to value`: target is a Name, or an Attr/Index chain rooted at a Name.", Stmt)
Give = _node("Give", "value", "`give [value]`: value is None for a bare give.", Stmt)
When = _node("When", "branches otherwise",
             "`when`/`otherwise when`/`otherwise`: `branches` is a list of (cond Expr, body list); "
             "`otherwise` is a body list or None.", Stmt)
Each = _node("Each", "var iterable body", "`each var in iterable` + body.", Stmt)
While = _node("While", "cond body", "`while cond` + body.", Stmt)
Stop = _node("Stop", "value", "`stop [value]`.", Stmt)
Match = _node("Match", "subject arms otherwise",
              "`match subject` + `is` arms (MatchArm) + optional `otherwise` body (or None).", Stmt)
MatchArm = _node("MatchArm", "pattern guard body", "`is pattern [when guard]` + body.")
Param = _node("Param", "name type default",
              "A task/lambda parameter: `type` is a type name str or None; `default` an Expr or None.")
TaskDef = _node("TaskDef", "name params body exported",
                "`task name(params)` + body. Leading `require` statements of the body are the task's "
                "declared capabilities.", Stmt)
Try = _node("Try", "body err_name recover", "`try` body `recover [err_name]` body; err_name defaults to 'error'.",
            Stmt)
Raise = _node("Raise", "value", "Statement form `raise value`.", Stmt)
Intent = _node("Intent", "text", "`intent: \"text\"`.", Stmt)
Invariant = _node("Invariant", "label cond", "`invariant [\"label\"]: cond`; label is str or None.", Stmt)
CapReq = _node("CapReq", "name scope",
               "One capability in a `require` or `sandbox under`: `name` like 'net' or 'file.read', "
               "`scope` an Expr or None.")
Require = _node("Require", "caps", "`require cap, cap…`: a list of CapReq.", Stmt)
Sandbox = _node("Sandbox", "body under", "`sandbox [under caps]` + body; `under` None or list of CapReq.", Stmt)
TypeDef = _node("TypeDef", "name fields exported",
                "`type Name` + `field: typename` lines; fields is a list of (name, typename).", Stmt)
EnumDef = _node("EnumDef", "name variants exported",
                "`enum Name` + variants; variants is a list of (name, [field names]).", Stmt)
Use = _node("Use", "path alias", "`use \"./file.syn\" as alias`.", Stmt)
TestBlock = _node("TestBlock", "name body", "`test \"name\"` + body; runs only under `synsema test`.", Stmt)
Log = _node("Log", "value", "`log value`: writes `[LOG] <display>` to stderr.", Stmt)
Marker = _node("Marker", "kind label body",
               "`trace \"n\"` / `measure \"n\"` + body: decorative, the body just runs.", Stmt)
Checkpoint = _node("Checkpoint", "value", "`checkpoint value`: evaluated, otherwise decorative.", Stmt)

# ---------------------------------------------------------------- patterns
PWildcard = _node("PWildcard", "", "`_`: matches anything, binds nothing.", Pattern)
PValue = _node("PValue", "expr", "An expression compared with `==` (a bare top-level name compares).", Pattern)
PBind = _node("PBind", "name", "A name inside a list/map/enum pattern: binds the matched value.", Pattern)
PList = _node("PList", "before rest after",
              "`[p, …, ...rest, q, …]`: `before`/`after` are pattern lists; `rest` is None (no spread), "
              "'' (anonymous `...`) or the bound name.", Pattern)
PMap = _node("PMap", "entries",
             "`{a, b: pat}`: entries is a list of (key str, Pattern or None); None binds the key's name.",
             Pattern)
PEnum = _node("PEnum", "variant args",
              "`Shape.circle(r)`: `variant` is the Attr chain naming the variant; args are sub-patterns.",
              Pattern)

# ---------------------------------------------------------------- program
Module = _node("Module", "file body", "A parsed source file: its path and statement list.")


# Fields that only ever hold plain data (text, numbers, flags, names), never a node: the
# walkers below skip them. tests/test_ast_walk.py checks this against every parsed program.
_PLAIN_FIELDS = {
    Num: "value", Str: "value", Bool: "value", Name: "name", Unary: "op", Binary: "op",
    Compare: "ops", Attr: "name", LLMExpr: "kind", HumanExpr: "kind", Let: "name exported",
    Each: "var", TaskDef: "name exported", Try: "err_name", Intent: "text", Invariant: "label",
    CapReq: "name", TypeDef: "name fields exported", EnumDef: "name variants exported",
    Use: "path alias", TestBlock: "name", Marker: "kind label", PBind: "name", PList: "rest",
    Param: "name type", Module: "file",
}


def _below_reader(cls: type):
    """A function giving the values of `cls`'s fields that can hold nodes, last field first
    (the order a walker's stack wants them in), as a tuple."""
    plain = _PLAIN_FIELDS.get(cls, "").split()
    fields = [f for f in reversed(cls._fields) if f not in plain]
    if len(fields) > 1:
        return attrgetter(*fields)
    if fields:
        one = attrgetter(fields[0])
        return lambda node: (one(node),)
    return lambda node: ()


_BELOW = {cls: _below_reader(cls) for cls in _CLASSES}


def children(node: Node) -> list[Node]:
    """Every Node directly below `node`, in field order, looking through lists and tuples."""
    below = _BELOW
    stack = list(below[type(node)](node))
    found: list[Node] = []
    while stack:
        item = stack.pop()
        t = type(item)
        if t in below:
            found.append(item)
        elif t is list or t is tuple:
            stack.extend(reversed(item))
    return found


def walk(node: Node) -> Iterator[Node]:
    """`node` and all nodes below it, parents before children, children in field order.

    Lists and tuples are looked into when they are reached, so the order is the one
    `children` gives, level by level, without building each node's child list first.
    """
    todo: list = [node]
    pop, extend = todo.pop, todo.extend
    get = _BELOW.get
    while todo:
        item = pop()
        below = get(type(item))
        if below is not None:
            yield item
            extend(below(item))
            continue
        t = type(item)
        if t is list or t is tuple:
            extend(reversed(item))


_LEAVE = object()  # walk_in_tasks' mark on its stack: the task whose nodes were above it ends


def walk_in_tasks(node: Node) -> Iterator[tuple[Node, Node | None]]:
    """`walk(node)`'s nodes in its order, each with the innermost TaskDef below `node` that
    holds it (None outside every task; a TaskDef itself comes with the task around it)."""
    todo: list = [node]
    pop, extend, append = todo.pop, todo.extend, todo.append
    get = _BELOW.get
    tasks: list = [None]
    while todo:
        item = pop()
        below = get(type(item))
        if below is not None:
            yield item, tasks[-1]
            if type(item) is TaskDef:
                append(_LEAVE)
                tasks.append(item)
            extend(below(item))
            continue
        if item is _LEAVE:
            tasks.pop()
            continue
        t = type(item)
        if t is list or t is tuple:
            extend(reversed(item))
