"""Source text to AST: every statement and expression form, with spans."""

from decimal import Decimal

import pytest

from synsema.lang import ast as A
from synsema.lang.parser import parse, parse_expression


def expr(src):
    return parse_expression(src, "t.syn")


def body(src):
    return parse(src, "t.syn").body


def one(src):
    stmts = body(src)
    assert len(stmts) == 1, stmts
    return stmts[0]


N, S, Num = A.Name, A.Str, A.Num


# ---------------------------------------------------------------- the seed program
# The program of seeds/000 (the tool-calling page), verbatim: it must parse as written.
SEED_PROGRAM = r'''-- Doc example: tool-calling. A "tool" is just a task; call() invokes it with named
-- args. The llm_step loop that lets the MODEL pick a tool is shown in the prose.
intent: "doc example: tool-calling"
require llm

task get_weather(city)
    give "weather in " + city + ": sunny"

print(call(get_weather, {"city": "Lima"}))    -- run shows: weather in Lima: sunny

test "a tool is a normal task; call() invokes it with named args from a map"
    assert_eq(get_weather("Paris"), "weather in Paris: sunny")
    assert_eq(call(get_weather, {"city": "Lima"}), "weather in Lima: sunny")

-- The model writes the args map, so it can name a parameter the task does not have.
-- That is an error, never a silent drop: catch it and tell the model.
test "an argument the task does not declare is an error (catch it in the loop)"
    assert_error(() => call(get_weather, {"city": "Lima", "units": "celsius"}))
    assert_error(() => call_tool(get_weather, {"city": "Lima", "units": "celsius"}))

-- A parameter the map leaves out takes its default, or arrives as nothing: call() is the
-- host calling your task, like a callback, so strict arity does not apply to it.
task pair(a, b = 2)
    give [a, b]

test "a missing key takes the default, or arrives as nothing"
    assert_eq(call(pair, {"a": 1}), [1, 2])
    assert_eq(call(pair, {}), [nothing, 2])

test "offline, llm_step answers final with the placeholder and 0 tokens"
    when not llm_available()
        assert_eq(llm_step("Weather in Lima?", [], ""), {"kind": "final", "text": "[no llm provider]", "tokens": 0})

-- v0.6.46: types on parameters. Checked only where the arguments arrive as data (call and
-- call_tool), strictly, without converting; a normal call does not check them.
task add(a: number, b: number = 1)
    give a + b

task tag(name: text, extra = nothing)
    give [name, extra]

test "tool_spec builds the catalog entry from the signature"
    assert_eq(tool_spec(add, "Add two numbers"), {"name": "add", "describe": "Add two numbers", "params": ["a: number", "b: number"], "optional": ["b"]})
    assert_eq(tool_spec(get_weather, "Weather for a city").params, ["city"])

test "call_tool checks the declared types and the typed parameters it needs"
    assert_eq(call_tool(add, {"a": 2}), 3)
    assert(contains(error_of(() => call_tool(add, {"a": "2"})), "'a' must be number, got text"))
    assert(contains(error_of(() => call_tool(add, {})), "missing 'a' (number)"))
    assert(contains(error_of(() => call_tool(add, {"a": 1, "b": nothing})), "'b' must be number, got nothing"))
    assert(contains(error_of(() => call(add, {"a": 1, "c": 2})), "did you mean 'a'?"))

test "a default of nothing accepts nothing; a normal call does not check types"
    assert_eq(call_tool(tag, {"name": "n", "extra": nothing}), ["n", nothing])
    assert_eq(add("x", "y"), "xy")

-- The message of the error `f` raises, or nothing when it does not raise.
task error_of(f)
    try
        f()
    recover err
        give err
    give nothing
'''


def test_seed_tool_calling_program_parses():
    module = parse(SEED_PROGRAM, "tool-calling.syn")
    kinds = [type(s).__name__ for s in module.body]
    assert kinds[:4] == ["Intent", "Require", "TaskDef", "ExprStmt"]
    assert kinds.count("TestBlock") == 7
    error_of = module.body[-1]
    assert isinstance(error_of, A.TaskDef) and error_of.name == "error_of"
    assert isinstance(error_of.body[0], A.Try) and error_of.body[0].err_name == "err"
    add = next(s for s in module.body if isinstance(s, A.TaskDef) and s.name == "add")
    assert add.params == [A.Param("a", "number", None), A.Param("b", "number", Num(1))]


def test_safe_loop_from_seed_parses():
    src = '''task run_agent(question, max_steps, budget)
    let spent be 0
    while (n < max_steps) and (spent <= budget)  -- bounded loop
        set n to n + 1
        let step be llm_step(question, catalog, ctx)
        when step["kind"] == "final"
            give step["text"]
        otherwise when contains(tools, step["name"])
            try
                let result be call_tool(tools[step["name"]], step["args"])
            recover err
                set ctx to ctx + " [" + step["name"] + " => error: " + err + "]"
        otherwise
            set ctx to ctx + " [" + step["name"] + " => not allowed]"
    give "out of steps"
'''
    task = one(src)
    loop = task.body[1]
    assert isinstance(loop, A.While)
    when = loop.body[2]
    assert isinstance(when, A.When) and len(when.branches) == 2 and when.otherwise is not None


# ---------------------------------------------------------------- literals
@pytest.mark.parametrize("src, value", [
    ("42", 42), ("1_000_000", 1000000), ("0x1f", 31), ("0o17", 15), ("0b101", 5),
    ("0xFF_FF", 65535), ("3.14", 3.14), ("1_000.5", 1000.5), ("1e3", 1000.0),
    ("1.5e-3", 0.0015), ("1E+9", 1e9), ("12345678901234567890123", 12345678901234567890123),
])
def test_numbers(src, value):
    node = expr(src)
    assert node == Num(value) and type(node.value) is type(value)


def test_exponent_forms_are_floats():
    assert isinstance(expr("1e3").value, float)


@pytest.mark.parametrize("src, text", [("1.50d", "1.50"), ("100d", "100"), ("2e3d", "2E+3")])
def test_decimals_keep_their_scale(src, text):
    value = expr(src).value
    assert isinstance(value, Decimal) and str(value) == text


def test_no_negative_literals():
    assert expr("-3") == A.Unary("-", Num(3))


@pytest.mark.parametrize("src, text", [
    (r'"a\nb\tc\rd"', "a\nb\tc\rd"), (r'"q\"q"', 'q"q'), (r"'it\'s'", "it's"),
    (r'"back\\slash"', "back\\slash"), (r'"C:\users"', "C:\\users"), (r'"\x41"', "\\x41"),
    (r'"\u00e9"', "é"), (r'"\ud83d\ude00"', "😀"), (r'"\u{1F600}"', "😀"), (r'"\u{41}"', "A"),
    ('"{n}"', "{n}"), ("''", ""),
])
def test_quoted_strings_and_escapes(src, text):
    assert expr(src) == S(text)


def test_template_parts_alternate_text_and_holes():
    assert expr("`hi {name}, {1 + 2}!`") == A.Template(
        ["hi ", N("name"), ", ", A.Binary("+", Num(1), Num(2)), "!"])


def test_template_without_holes_is_a_template_with_one_text_part():
    assert expr("`plain`") == A.Template(["plain"])
    assert expr("``") == A.Template([])


def test_template_escapes_and_literal_braces():
    assert expr(r"`a \{b} \` \n`") == A.Template(["a {b} ` \n"])
    # \u{ is not an escape in a template: the brace opens a hole
    assert expr(r"`\u{x}`") == A.Template(["\\u", N("x")])


def test_template_hole_with_nested_strings_and_braces():
    assert expr('`{ {"a": "}"}["a"] }`') == A.Template(
        [A.Index(A.MapLit([(S("a"), S("}"))]), S("a"))])


def test_nested_template_in_hole():
    assert expr("`a{`b{c}`}`") == A.Template(["a", A.Template(["b", N("c")])])


def test_template_spans_lines_and_holes_know_their_position():
    node = one("let t be `line one\n  {value}`\n").value
    hole = node.parts[1]
    assert hole == N("value") and (hole.span.line, hole.span.col) == (2, 4)


def test_booleans_and_nothing():
    assert expr("[true, false, nothing]") == A.ListLit([A.Bool(True), A.Bool(False), A.Nothing()])


# ---------------------------------------------------------------- collections
def test_list_with_trailing_comma():
    assert expr("[1, 2,]") == A.ListLit([Num(1), Num(2)])
    assert expr("[]") == A.ListLit([])


def test_map_keys():
    assert expr('{name: 1, "k": 2, 3: 4, (a + b): 5, `x{y}`: 6,}') == A.MapLit([
        (S("name"), Num(1)), (S("k"), Num(2)), (Num(3), Num(4)),
        (A.Binary("+", N("a"), N("b")), Num(5)), (A.Template(["x", N("y")]), Num(6))])


def test_map_keys_may_be_hard_keywords():
    assert expr("{type: 1, to: 2, when: 3}") == A.MapLit(
        [(S("type"), Num(1)), (S("to"), Num(2)), (S("when"), Num(3))])


def test_newlines_inside_brackets_are_ignored():
    stmt = one("let m be {\n    a: 1,\n    b: [\n        2,\n    ],\n}\n")
    assert stmt.value == A.MapLit([(S("a"), Num(1)), (S("b"), A.ListLit([Num(2)]))])


# ---------------------------------------------------------------- operators and precedence
@pytest.mark.parametrize("src, tree", [
    ("1 + 2 * 3", A.Binary("+", Num(1), A.Binary("*", Num(2), Num(3)))),
    ("1 - 2 - 3", A.Binary("-", A.Binary("-", Num(1), Num(2)), Num(3))),
    ("7 // 2 % 3", A.Binary("%", A.Binary("//", Num(7), Num(2)), Num(3))),
    ("a / b", A.Binary("/", N("a"), N("b"))),
    ("-2 ** 2", A.Unary("-", A.Binary("**", Num(2), Num(2)))),
    ("2 ** 3 ** 2", A.Binary("**", Num(2), A.Binary("**", Num(3), Num(2)))),
    ("2 ** -1", A.Binary("**", Num(2), A.Unary("-", Num(1)))),
    ("- -x", A.Unary("-", A.Unary("-", N("x")))),
    ("not not x", A.Unary("not", A.Unary("not", N("x")))),
    ("not a == b", A.Unary("not", A.Compare(N("a"), ["=="], [N("b")]))),
    ("a or b and c", A.Or(N("a"), A.And(N("b"), N("c")))),
    ("a and b or c", A.Or(A.And(N("a"), N("b")), N("c"))),
    ("x |> f or g", A.Pipe(N("x"), A.Or(N("f"), N("g")))),
    ("xs |> sort_by(g) |> first", A.Pipe(A.Pipe(N("xs"), A.Call(N("sort_by"), [N("g")], [])), N("first"))),
    ("a + b < c * d", A.Compare(A.Binary("+", N("a"), N("b")), ["<"], [A.Binary("*", N("c"), N("d"))])),
])
def test_precedence(src, tree):
    assert expr(src) == tree


def test_comparison_chains():
    assert expr("a < b <= c") == A.Compare(N("a"), ["<", "<="], [N("b"), N("c")])
    assert expr("a == b != c > d >= e") == A.Compare(
        N("a"), ["==", "!=", ">", ">="], [N("b"), N("c"), N("d"), N("e")])


def test_membership():
    assert expr("x in xs") == A.Compare(N("x"), ["in"], [N("xs")])
    assert expr("x not in xs") == A.Compare(N("x"), ["not in"], [N("xs")])
    assert expr("not x in xs") == A.Unary("not", A.Compare(N("x"), ["in"], [N("xs")]))


# ---------------------------------------------------------------- postfix and `of`
def test_postfix_chain():
    assert expr("a.b[0](1, k = 2).c") == A.Attr(
        A.Call(A.Index(A.Attr(N("a"), "b"), Num(0)), [Num(1)], [("k", Num(2))]), "c")


def test_any_word_after_a_dot_is_a_member():
    assert expr("ev.type") == A.Attr(N("ev"), "type")
    assert expr("tx.to") == A.Attr(N("tx"), "to")
    assert expr("mod.decide(x)") == A.Call(A.Attr(N("mod"), "decide"), [N("x")], [])


def test_of():
    assert expr("name of person") == A.Attr(N("person"), "name")
    assert expr("a of b of c") == A.Attr(A.Attr(N("c"), "b"), "a")
    assert expr("city of order.address") == A.Attr(A.Attr(N("order"), "address"), "city")


def test_call_arguments():
    assert expr("f()") == A.Call(N("f"), [], [])
    assert expr("f(1, 2,)") == A.Call(N("f"), [Num(1), Num(2)], [])
    assert expr("f(x == 1)") == A.Call(N("f"), [A.Compare(N("x"), ["=="], [Num(1)])], [])
    assert expr("f(a, p3 = 5, p2 = 1)") == A.Call(N("f"), [N("a")], [("p3", Num(5)), ("p2", Num(1))])


# ---------------------------------------------------------------- lambdas, inline when, special forms
def test_lambdas():
    assert expr("(a, b) => a + b") == A.Lambda(
        [A.Param("a", None, None), A.Param("b", None, None)], A.Binary("+", N("a"), N("b")))
    assert expr("() => 1") == A.Lambda([], Num(1))
    assert expr("((x) => x + 1)(1)") == A.Call(
        A.Lambda([A.Param("x", None, None)], A.Binary("+", N("x"), Num(1))), [Num(1)], [])
    assert expr("(x)") == N("x")
    assert expr("(a) + 1") == A.Binary("+", N("a"), Num(1))


def test_inline_when():
    assert expr("when c then x") == A.InlineWhen(N("c"), N("x"), None)
    assert expr("when c then x + 1 otherwise y |> f") == A.InlineWhen(
        N("c"), A.Binary("+", N("x"), Num(1)), A.Pipe(N("y"), N("f")))
    assert expr("when a then 1 otherwise when b then 2 otherwise 3") == A.InlineWhen(
        N("a"), Num(1), A.InlineWhen(N("b"), Num(2), Num(3)))


def test_inline_when_as_argument_and_map_value():
    assert expr("f(when c then 1 otherwise 2, 3)") == A.Call(
        N("f"), [A.InlineWhen(N("c"), Num(1), Num(2)), Num(3)], [])
    assert expr("{a: when c then 1, b: 2}") == A.MapLit(
        [(S("a"), A.InlineWhen(N("c"), Num(1), None)), (S("b"), Num(2))])


def test_sandbox_expression():
    assert expr("sandbox f(1)") == A.SandboxExpr(A.Call(N("f"), [Num(1)], []), None)


def test_llm_forms():
    assert expr("reason about x with depth = 2, tone = \"dry\"") == A.LLMExpr(
        "reason", N("x"), None, None, [("depth", Num(2)), ("tone", S("dry"))])
    assert expr("reason x") == A.LLMExpr("reason", N("x"), None, None, [])
    assert expr('decide between ["a", "b"] given ctx') == A.LLMExpr(
        "decide", A.ListLit([S("a"), S("b")]), N("ctx"), None, [])
    assert expr("decide opts") == A.LLMExpr("decide", N("opts"), None, None, [])
    assert expr('analyze data for "trends"') == A.LLMExpr("analyze", N("data"), None, S("trends"), [])
    assert expr('generate "poem" given topic with n = 2') == A.LLMExpr(
        "generate", S("poem"), N("topic"), None, [("n", Num(2))])


def test_with_clause_commas_belong_to_the_llm_form_inside_a_call():
    assert expr("f(reason x with a = 1, b = 2)") == A.Call(
        N("f"), [A.LLMExpr("reason", N("x"), None, None, [("a", Num(1)), ("b", Num(2))])], [])
    assert expr("f(reason x with a = 1, 2)") == A.Call(
        N("f"), [A.LLMExpr("reason", N("x"), None, None, [("a", Num(1))]), Num(2)], [])


def test_clause_words_are_names_elsewhere():
    assert expr("given + about") == A.Binary("+", N("given"), N("about"))
    assert expr("f(for, within, under, between)") == A.Call(
        N("f"), [N("for"), N("within"), N("under"), N("between")], [])
    assert expr("reason about") == A.LLMExpr("reason", N("about"), None, None, [])


def test_human_forms():
    assert expr('show x as "label"') == A.HumanExpr("show", N("x"), S("label"))
    assert expr('ask "q?" with ["y", "n"]') == A.HumanExpr("ask", S("q?"), A.ListLit([S("y"), S("n")]))
    assert expr("approve plan within 90s") == A.HumanExpr("approve", N("plan"), Num(90))
    assert expr("approve plan within 2m") == A.HumanExpr("approve", N("plan"), Num(120))
    assert expr("approve plan within t") == A.HumanExpr("approve", N("plan"), N("t"))
    assert expr('confirm "sure?"') == A.HumanExpr("confirm", S("sure?"), None)


# ---------------------------------------------------------------- statements
def test_let_and_set():
    assert one("let x be 1") == A.Let("x", Num(1), False)
    assert one("set x to 2") == A.Set(N("x"), Num(2))
    assert one('set m["a"]["b"] to 3') == A.Set(A.Index(A.Index(N("m"), S("a")), S("b")), Num(3))
    assert one("set p.x to 4") == A.Set(A.Attr(N("p"), "x"), Num(4))
    assert one("set xs[0] to 5") == A.Set(A.Index(N("xs"), Num(0)), Num(5))


def test_give_and_stop():
    assert body("give\ngive 1\nstop\nstop x") == [A.Give(None), A.Give(Num(1)), A.Stop(None), A.Stop(N("x"))]


def test_when_statement():
    stmt = one("when a\n    x\notherwise when b\n    y\notherwise when c\n    z\notherwise\n    w\n")
    assert stmt == A.When([(N("a"), [A.ExprStmt(N("x"))]), (N("b"), [A.ExprStmt(N("y"))]),
                           (N("c"), [A.ExprStmt(N("z"))])], [A.ExprStmt(N("w"))])
    assert one("when a\n    x\n") == A.When([(N("a"), [A.ExprStmt(N("x"))])], None)


def test_inline_when_may_be_a_when_statement_condition():
    stmt = one("when (when a then b otherwise c)\n    x\n")
    assert stmt.branches[0][0] == A.InlineWhen(N("a"), N("b"), N("c"))


def test_each_and_while():
    assert one("each x in xs\n    print(x)\n") == A.Each("x", N("xs"), [A.ExprStmt(A.Call(N("print"), [N("x")], []))])
    assert one("while n < 3\n    set n to n + 1\n") == A.While(
        A.Compare(N("n"), ["<"], [Num(3)]), [A.Set(N("n"), A.Binary("+", N("n"), Num(1)))])


def test_tasks():
    stmt = one('task f(p1, p2 = 1, p3: number, p4: text = "x",)\n    give p1\n')
    assert stmt == A.TaskDef("f", [A.Param("p1", None, None), A.Param("p2", None, Num(1)),
                                   A.Param("p3", "number", None), A.Param("p4", "text", S("x"))],
                             [A.Give(N("p1"))], False)
    assert one("task g\n    give 1\n") == A.TaskDef("g", [], [A.Give(Num(1))], False)
    assert one("task g()\n    give 1\n") == A.TaskDef("g", [], [A.Give(Num(1))], False)


def test_nested_task_and_require_in_body():
    stmt = one('task outer\n    require net("h.com")\n    task inner(x)\n        give x\n    give inner\n')
    assert stmt.body[0] == A.Require([A.CapReq("net", S("h.com"))])
    assert isinstance(stmt.body[1], A.TaskDef) and stmt.body[1].name == "inner"


def test_try_recover():
    assert one("try\n    x\nrecover\n    y\n") == A.Try([A.ExprStmt(N("x"))], "error", [A.ExprStmt(N("y"))])
    assert one("try\n    x\nrecover err\n    y\n").err_name == "err"


def test_raise_statement_and_call():
    assert one('raise "boom"') == A.Raise(S("boom"))
    assert one("raise err") == A.Raise(N("err"))
    assert one("raise(err)") == A.ExprStmt(A.Call(N("raise"), [N("err")], []))


def test_intent_and_invariant():
    assert one('intent: "do things"') == A.Intent("do things")
    assert one("invariant: x > 0") == A.Invariant(None, A.Compare(N("x"), [">"], [Num(0)]))
    assert one('invariant "positive": x > 0').label == "positive"
    # a template label keeps its static source text
    assert one("invariant `x is {x}`: x > 0").label == "x is {x}"


def test_require():
    assert one('require net("api.x.com"), file.read("/data"), llm, env "HOME"') == A.Require([
        A.CapReq("net", S("api.x.com")), A.CapReq("file.read", S("/data")), A.CapReq("llm", None),
        A.CapReq("env", S("HOME"))])
    # capability names are not validated by the parser
    assert one("require anything_at_all") == A.Require([A.CapReq("anything_at_all", None)])


def test_sandbox_blocks():
    assert one("sandbox\n    print(1)\n") == A.Sandbox([A.ExprStmt(A.Call(N("print"), [Num(1)], []))], None)
    stmt = one('sandbox under net("a.com"), file.read\n    x\n')
    assert stmt.under == [A.CapReq("net", S("a.com")), A.CapReq("file.read", None)]
    assert one("sandbox x") == A.ExprStmt(A.SandboxExpr(N("x"), None))


def test_type_and_enum():
    assert one("type Point\n    x: number\n    type: text\n") == A.TypeDef(
        "Point", [("x", "number"), ("type", "text")], False)
    assert one("enum Shape\n    circle(r)\n    rect(w, h)\n    empty\n") == A.EnumDef(
        "Shape", [("circle", ["r"]), ("rect", ["w", "h"]), ("empty", [])], False)


def test_use_and_export():
    assert one('use "./lib.syn" as lib') == A.Use("./lib.syn", "lib")
    stmts = body("export task f\n    give 1\nexport let x be 1\nexport type T\n    a: number\n"
                 "export enum E\n    a\n")
    assert [s.exported for s in stmts] == [True] * 4
    assert [type(s) for s in stmts] == [A.TaskDef, A.Let, A.TypeDef, A.EnumDef]


def test_test_block_log_markers_checkpoint():
    assert one('test "it works"\n    assert(true)\n') == A.TestBlock(
        "it works", [A.ExprStmt(A.Call(N("assert"), [A.Bool(True)], []))])
    assert one('log "hi"') == A.Log(S("hi"))
    assert one('trace "t"\n    x\n') == A.Marker("trace", "t", [A.ExprStmt(N("x"))])
    assert one('measure "m"\n    x\n') == A.Marker("measure", "m", [A.ExprStmt(N("x"))])
    assert one("checkpoint state") == A.Checkpoint(N("state"))


def test_soft_keywords_are_names_where_they_do_not_start_their_construct():
    assert one("let test be 5") == A.Let("test", Num(5), False)
    assert one("test(1)") == A.ExprStmt(A.Call(N("test"), [Num(1)], []))
    assert one("use.x") == A.ExprStmt(A.Attr(N("use"), "x"))
    assert one("export + 1") == A.ExprStmt(A.Binary("+", N("export"), Num(1)))
    assert one("enum[0]") == A.ExprStmt(A.Index(N("enum"), Num(0)))
    assert one("let enum be from") == A.Let("enum", N("from"), False)


def test_protected_names_may_hold_plain_values():
    assert one("let print be 5") == A.Let("print", Num(5), False)


def test_human_and_llm_statements():
    assert one('show report as "Report"') == A.ExprStmt(A.HumanExpr("show", N("report"), S("Report")))
    assert one("let ok be approve plan") == A.Let("ok", A.HumanExpr("approve", N("plan"), None), False)


# ---------------------------------------------------------------- match and patterns
def arm(pattern_src, guard=""):
    stmt = one(f"match v\n    is {pattern_src}{guard}\n        x\n")
    return stmt.arms[0]


@pytest.mark.parametrize("src, pattern", [
    ("_", A.PWildcard()),
    ("1", A.PValue(Num(1))),
    ('"a"', A.PValue(S("a"))),
    ("x", A.PValue(N("x"))),
    ("Color.red", A.PValue(A.Attr(N("Color"), "red"))),
    ("nothing", A.PValue(A.Nothing())),
    ('{"k": 1}', A.PValue(A.MapLit([(S("k"), Num(1))]))),
    ("[]", A.PList([], None, [])),
    ("[p1, p2]", A.PList([A.PBind("p1"), A.PBind("p2")], None, [])),
    ("[h, ...rest]", A.PList([A.PBind("h")], "rest", [])),
    ("[...init, last]", A.PList([], "init", [A.PBind("last")])),
    ("[a, ...mid, z]", A.PList([A.PBind("a")], "mid", [A.PBind("z")])),
    ("[a, ...]", A.PList([A.PBind("a")], "", [])),
    ("[_, 1, \"s\"]", A.PList([A.PWildcard(), A.PValue(Num(1)), A.PValue(S("s"))], None, [])),
    ("[[a, b], {c}]", A.PList([A.PList([A.PBind("a"), A.PBind("b")], None, []),
                               A.PMap([("c", None)])], None, [])),
    ("{}", A.PMap([])),
    ("{name, age}", A.PMap([("name", None), ("age", None)])),
    ("{status: 200, body}", A.PMap([("status", A.PValue(Num(200))), ("body", None)])),
    ("{type: \"circle\", r}", A.PMap([("type", A.PValue(S("circle"))), ("r", None)])),
    ("{point: [x, y]}", A.PMap([("point", A.PList([A.PBind("x"), A.PBind("y")], None, []))])),
    ("Shape.circle(r)", A.PEnum(A.Attr(N("Shape"), "circle"), [A.PBind("r")])),
    ("geo.Shape.rect(w, _)", A.PEnum(A.Attr(A.Attr(N("geo"), "Shape"), "rect"),
                                     [A.PBind("w"), A.PWildcard()])),
    ("Shape.poly([a, ...])", A.PEnum(A.Attr(N("Shape"), "poly"), [A.PList([A.PBind("a")], "", [])])),
])
def test_patterns(src, pattern):
    assert arm(src).pattern == pattern


def test_guard_sees_pattern_and_inline_when_is_not_confused():
    a = arm("Shape.rect(w, h)", " when w == h")
    assert a.guard == A.Compare(N("w"), ["=="], [N("h")])
    assert a.pattern == A.PEnum(A.Attr(N("Shape"), "rect"), [A.PBind("w"), A.PBind("h")])


def test_match_with_otherwise():
    stmt = one("match x\n    is 1\n        a\n    is [y] when y > 0\n        b\n    otherwise\n        c\n")
    assert len(stmt.arms) == 2 and stmt.otherwise == [A.ExprStmt(N("c"))]
    assert stmt.arms[1].guard == A.Compare(N("y"), [">"], [Num(0)])


def test_map_literal_after_the_pattern_is_an_ordinary_map():
    stmt = one("match x\n    is [a] when a == {k: 1}\n        b\n")
    assert stmt.arms[0].guard == A.Compare(N("a"), ["=="], [A.MapLit([(S("k"), Num(1))])])


# ---------------------------------------------------------------- layout
def test_blank_and_comment_lines_do_not_affect_indentation():
    src = "when a\n\n  -- note\n        -- deeper note\n    x\n\n    y\nz\n"
    assert body(src) == [A.When([(N("a"), [A.ExprStmt(N("x")), A.ExprStmt(N("y"))])], None), A.ExprStmt(N("z"))]


def test_tab_counts_as_four_columns():
    assert body("when a\n\tx\n    y\n") == [A.When([(N("a"), [A.ExprStmt(N("x")), A.ExprStmt(N("y"))])], None)]


def test_crlf_line_endings_and_no_final_newline():
    assert body("let a be 1\r\nlet b be 2") == [A.Let("a", Num(1), False), A.Let("b", Num(2), False)]


def test_empty_source():
    assert parse("", "e.syn") == A.Module("e.syn", [])
    assert parse("-- only a comment\n\n", "e.syn").body == []


# ---------------------------------------------------------------- spans
def test_spans_point_at_the_first_token():
    stmts = parse("let x be 1\ntask f(a)\n    give a + 2\n", "s.syn").body
    assert (stmts[0].span.file, stmts[0].span.line, stmts[0].span.col) == ("s.syn", 1, 1)
    give = stmts[1].body[0]
    assert (give.span.line, give.span.col) == (3, 5)
    assert (give.value.span.line, give.value.span.col) == (3, 10)
    assert (give.value.right.span.line, give.value.right.span.col) == (3, 14)
    assert (stmts[0].value.span.line, stmts[0].value.span.col) == (1, 10)


def test_every_node_has_a_span():
    module = parse('task f(a, b = 1)\n    give [a, {k: `v{b}`}, (x) => x of a]\nmatch f(1)\n'
                   '    is [p, ...q]\n        log p\n', "s.syn")
    for node in A.walk(module):
        assert node.span is not None, node


def test_parse_expression_with_offset():
    node = parse_expression("a + b", "f.syn", 3, 10)
    assert (node.right.span.line, node.right.span.col) == (3, 14)
