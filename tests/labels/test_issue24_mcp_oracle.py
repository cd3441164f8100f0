"""Issue 24, item 6: `synsema mcp serve --labels` must not be an unlimited oracle.

A served task answers a result or an error depending on a private balance. A client (the
official SDK's, over stdio) binary-searches the amount with ten calls, once against a server
holding each of two balances. Noninterference per server lifetime, as the README promises per
run: once the two transcripts differ (one bit, like termination), the server must not answer
again, so nothing after the first difference may differ either.
"""

from __future__ import annotations

import sys

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from conftest import ROOT, synsema_env

SERVED = '''\
let balance be private({balance}, "bank")

-- Withdraw an amount: refused when the balance is too low.
task withdraw(amount: number)
    when balance < amount
        raise "insufficient funds"
    give "ok"
'''

CALLS = 10


async def _binary_search(script) -> list[str]:
    """The outcome of each call: ok, error, or closed (the server answered no more)."""
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "synsema", "mcp", "serve", "--labels", str(script)],
                                   env=synsema_env(), cwd=str(ROOT))
    transcript: list[str] = []
    low, high = 0, 1024
    with open("/dev/null", "w") as log:
        async with stdio_client(params, errlog=log) as (read, write):
            async with ClientSession(read, write) as session:
                with anyio.fail_after(60):
                    await session.initialize()
                while len(transcript) < CALLS:
                    middle = (low + high) // 2
                    try:
                        with anyio.fail_after(30):
                            result = await session.call_tool("withdraw", {"amount": middle})
                    except Exception:   # the server ended: every later call is unanswered too
                        transcript += ["closed"] * (CALLS - len(transcript))
                        break
                    transcript.append("error" if result.isError else "ok")
                    low, high = (middle, high) if transcript[-1] == "ok" else (low, middle)
    return transcript


def _searched(tmp_path, balance: int) -> list[str]:
    script = tmp_path / f"bank{balance}.syn"
    script.write_text(SERVED.replace("{balance}", str(balance)), encoding="utf-8")
    return anyio.run(_binary_search, script)


def test_a_binary_search_learns_at_most_one_bit_per_server(tmp_path):
    first, second = _searched(tmp_path, 300), _searched(tmp_path, 700)
    differ = [i for i in range(CALLS) if first[i] != second[i]]
    if differ:
        later = range(differ[0] + 1, CALLS)
        assert all(first[i] == second[i] == "closed" for i in later), (first, second)
