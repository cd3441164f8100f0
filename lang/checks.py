"""Load-time checks: programs the grammar accepts but the language does not.

The `check_*` functions reject binding a protected name to something callable, a bare Python
statement word, source nested too deeply for the evaluator. The messages for source the grammar
rejects are lang.parse_errors' (imported only when a parse fails).
"""

from __future__ import annotations

from synsema.lang import ast
from synsema.lang.errors import Span, parse_error

PROTECTED_NAMES = frozenset({"private", "declassify", "label_of", "is_private", "print", "eprint"})
# The builtins whose calls `check_label_call` checks at load time.
LABEL_BUILTINS = frozenset({"private", "declassify"})

MAX_NESTING = 400
# The operand through which a left-associative chain continues, per node type.
_CHAIN_CONTINUATION = {ast.Binary: "left", ast.And: "left", ast.Or: "left", ast.Pipe: "value"}

# What a Python or JavaScript habit is called in Synsema.
REFLEXES = {
    "return": "Synsema returns with `give`: write `give value` (or a bare `give`)",
    "if": "Synsema's conditional is `when`: write `when condition` + an indented block",
    "elif": "write `otherwise when condition` + an indented block",
    "else": "write `otherwise` + an indented block",
    "for": "Synsema loops with `each`: write `each x in xs` + an indented block",
    "def": "Synsema defines functions with `task`: write `task name(a, b)` + an indented block",
    "function": "Synsema defines functions with `task`: write `task name(a, b)` + an indented block",
    "fn": "Synsema defines functions with `task`: write `task name(a, b)` + an indented block",
    "lambda": "Synsema's lambda is `(x) => expression`",
    "import": "Synsema imports a module with `use \"./file.syn\" as name`",
    "from": "Synsema imports a module with `use \"./file.syn\" as name`",
    "break": "Synsema leaves a loop with `stop`",
    "continue": "Synsema has no `continue`: put the rest of the loop body inside a `when`",
    "except": "Synsema catches errors with `try` + block, then `recover err` + block",
    "catch": "Synsema catches errors with `try` + block, then `recover err` + block",
    "finally": "Synsema has no `finally`: run the clean-up after the `try`/`recover`",
    "class": "Synsema declares records with `type Name` + indented `field: type` lines",
    "var": "Synsema declares variables with `let x be value`",
    "const": "Synsema declares variables with `let x be value`",
    "pass": "Synsema has no `pass`: write `nothing` as the statement",
}
# Reflex words whose Synsema form is one word in their place: the quick fix.
REFLEX_WORDS = {"return": "give", "if": "when", "elif": "otherwise when", "else": "otherwise",
                "for": "each", "def": "task", "function": "task", "fn": "task", "break": "stop",
                "pass": "nothing", "var": "let", "const": "let"}
# Reflex words that are also valid expression statements on their own (`break`).
_BARE_REFLEXES = frozenset({"return", "break", "continue", "else", "pass"})


def protected_binding(name: str) -> str:
    """The message for a protected name bound to something callable (load time or run time)."""
    return (f"'{name}' is a protected name: it cannot be bound to a task or lambda "
            "(the label and output checks rely on it); choose another name")


def check_binding(name: str, callable_value: bool, span: Span) -> None:
    """A protected name may hold plain values, never a task or lambda."""
    if callable_value and name in PROTECTED_NAMES:
        raise parse_error(protected_binding(name), span)


def check_bound_name(name: str, what: str, span: Span) -> None:
    """A parameter, loop variable or pattern binding can receive a task from data the code does
    not control, so a protected name is never one; the refusal comes at load time, before any
    call evaluates an argument. `what` names the binding (`a parameter`, `a loop variable`)."""
    if name in PROTECTED_NAMES:
        raise parse_error(f"'{name}' is a protected name: it cannot be {what} (the value could be "
                          "a task or lambda, and the label and output checks rely on the name); "
                          "choose another name", span)


def check_expression_statement(expr: ast.Expr) -> None:
    """A lone `break`, `return`, `else`… is a Python habit, not a variable read."""
    if isinstance(expr, ast.Name) and expr.name in _BARE_REFLEXES:
        error = parse_error(f"`{expr.name}` is not Synsema: {REFLEXES[expr.name]}", expr.span)
        word = REFLEX_WORDS.get(expr.name)
        if word is not None:
            from synsema.lang.hints import replace   # errors only (start-up without .pyc)
            error.fixes = [replace(expr.span, expr.name, word)]
        raise error


def check_nesting(module: ast.Module) -> None:
    """Reject trees nested deeper than MAX_NESTING, which the evaluator could not walk safely.

    Prefix operators and right-nested operands nest without brackets, so the lexer's bracket
    limit is not enough on its own. A flat chain (`a + b + c …`, `x and y and …`, `v |> f |> g`)
    is long, not deep: its left operand continues the chain at the same depth, so chains of any
    length load while `not not not …` or `a ** b ** c …` still count each level. The same walk
    applies the load-time rules of the label builtins (`check_label_call`).
    """
    stack = [(stmt, 1) for stmt in module.body]
    children = ast.children
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            raise parse_error(f"expression nested too deeply (more than {MAX_NESTING} levels); "
                              "split it into smaller parts with let", node.span)
        kind = type(node)
        if kind is ast.Call:
            check_label_call(node)
        field = _CHAIN_CONTINUATION.get(kind)
        chained = getattr(node, field) if field is not None else None
        if chained is not None:
            stack.append((chained, depth))
        depth += 1
        stack.extend((child, depth) for child in children(node) if child is not chained)


def check_label_call(node: ast.Call) -> None:
    """Principals are literals, so what a program can reveal, and to whom, is in its source.

    `private` and `declassify` are protected names (never rebound to a callable), so a call by
    those names is always the builtin and these rules hold whatever the program does.
    """
    if type(node.func) is not ast.Name:
        return
    name = node.func.name
    if name == "private":
        if len(node.args) != 2 or node.named:
            raise parse_error('private: expects 2 arguments, private(value, "principal")', node.span)
        principal = node.args[1]
        if type(principal) is not ast.Str or not principal.value:
            raise parse_error('private: the principal must be a non-empty text literal, like '
                              'private(v, "app")', principal.span or node.span)
    elif name == "declassify" and len(node.args) == 3:
        target = node.args[2]
        literal = type(target) is ast.Str or (
            type(target) is ast.ListLit and all(type(i) is ast.Str for i in target.items))
        if not literal:
            raise parse_error('declassify: the principals to narrow to must be written as literals '
                              '("bank" or ["bank", "app"]), never computed', target.span or node.span)
