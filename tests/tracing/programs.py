"""The programs and the fake model conversation the trace tests run (shared by the JSON-lines,
OTLP and viewer tests, so all three see the same run)."""

from __future__ import annotations

from llm.fakes import openai_text, openai_tool_call

PLAINTEXT_SECRET = "sk-live-PLAINTEXT-9d8c7b"
PRIVATE_BALANCE = 987654321

# Reads a secret (shown as secret(API_KEY) wherever it goes), gets a private value from a tool,
# asks a model twice (one tool call in between), and is refused a capability once.
AGENT = f'''require stdout, secret("API_KEY"), llm

task balance(account: text)
    give private({PRIVATE_BALANCE}, "bank")

task greet(name: text)
    give "hello " + name

let key be secret("API_KEY")
let owed be call_tool(balance, {{account: "acme"}})
print("owed:", owed)
let tools be {{"greet": greet}}
let catalog be [tool_spec(greet, "Greets someone by name")]
let step be llm_step(`Greet ada. Key: {{key}}`, catalog, nothing)
let said be call_tool(tools[step["name"]], step["args"])
let done be llm_step(said, catalog, [step, tool_result(step, said)])
print(done["text"])
try
    print(read_file("/etc/hostname"))
recover err
    print("refused")
'''


def agent_replies(server) -> None:
    """The fake OpenAI-compatible server's two answers: a tool call, then a final text."""
    server.reply(openai_tool_call("greet", '{"name": "ada"}', prompt=40, completion=8))
    server.reply(openai_text("Done: hello ada", prompt=60, completion=6))


def agent_env(server, **extra) -> dict:
    from conftest import synsema_env
    return synsema_env(SYNSEMA_LLM_PROVIDER="openai", SYNSEMA_LLM_BASE_URL=server.url + "/v1",
                       OPENAI_API_KEY="sk-test-key", SYNSEMA_LLM_MODEL="gpt-4.1-mini", SYNSEMA_LLM_TIMEOUT="10",
                       API_KEY=PLAINTEXT_SECRET, **extra)

# The same agent with nothing private (it runs without --labels).
AGENT_PUBLIC = AGENT.replace(f'private({PRIVATE_BALANCE}, "bank")', "12")
