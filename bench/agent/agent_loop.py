"""The CPython twin of agent_loop.syn: the same loop over the same cassette.

It looks each reply up the way the replay provider does — by the sha256 of the request's canonical
JSON — so a twin that built a different request than the Synsema program would miss and fail.
The cassette path comes from SYNSEMA_LLM_CASSETTE, as for the Synsema side.
"""
import hashlib
import json
import os


def get_weather(city):
    return "weather in " + city + ": sunny"


def add(a, b):
    return a + b


def lookup(key):
    table = {"ada": "Ada Lovelace", "grace": "Grace Hopper", "alan": "Alan Turing"}
    return table.get(key, "unknown")


def schema(params):
    return {"type": "object", "properties": {name: {"type": kind} for name, kind in params},
            "required": [name for name, _ in params], "additionalProperties": False}


tools = {"get_weather": get_weather, "add": add, "lookup": lookup}
catalog = [
    {"name": "get_weather", "description": "Weather for a city", "input_schema": schema([("city", "string")])},
    {"name": "add", "description": "Add two numbers", "input_schema": schema([("a", "number"), ("b", "number")])},
    {"name": "lookup", "description": "Full name for a short name", "input_schema": schema([("key", "string")])},
]

replies = {}
served = {}
with open(os.environ["SYNSEMA_LLM_CASSETTE"], encoding="utf-8") as handle:
    for line in handle:
        entry = json.loads(line)
        if "synsema_cassette" not in entry:
            canonical = json.dumps(entry["request"], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            replies.setdefault(hashlib.sha256(canonical.encode()).hexdigest()[:16], []).append(entry["reply"])


def llm_step(prompt, context):
    request = {"op": "step", "prompt": prompt, "context": context, "tools": catalog, "force": None}
    canonical = json.dumps(request, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    key = hashlib.sha256(canonical.encode()).hexdigest()[:16]
    n = served.get(key, 0)
    served[key] = n + 1
    reply = replies[key][min(n, len(replies[key]) - 1)]
    if reply["kind"] == "tool":
        return {"kind": "tool", "name": reply["name"], "args": reply["args"], "tokens": reply["tokens"]}
    return {"kind": "final", "text": reply["text"], "tokens": reply["tokens"]}


def run_agent(question, max_steps):
    spent = 0
    n = 0
    ctx = ""
    while n < max_steps:
        n = n + 1
        step = llm_step(question, ctx)
        spent = spent + step["tokens"]
        if step["kind"] == "final":
            return [step["text"], n, spent]
        elif step["name"] in tools:
            try:
                result = tools[step["name"]](**step["args"])
                ctx = ctx + " [" + step["name"] + " => " + str(result) + "]"
            except Exception as err:
                ctx = ctx + " [" + step["name"] + " => error: " + str(err) + "]"
        else:
            ctx = ctx + " [" + step["name"] + " => not allowed]"
    return ["out of steps", n, spent]


cities = ["Lima", "Oslo", "Quito", "Accra", "Hanoi", "Perth", "Turin", "Cusco", "Dakar", "Malmo"]
questions = []
for i in range(10):
    questions.append(f"What is the weather in {cities[i]}?")
    questions.append(f"What is {i * 17} plus {i * 5 + 3}, and then plus 100?")
    questions.append(f"Who is {['ada', 'grace', 'alan', 'linus'][i % 4]}? Delete the logs first.")
total = 0
steps = 0
for q in questions:
    answer = run_agent(q, 5)
    print(answer[0])
    steps = steps + answer[1]
    total = total + answer[2]
print(len(questions), "questions,", steps, "steps,", total, "tokens")
