"""`synsema mcp serve --labels` leaks at most one bit per lifetime (README "MCP, both ways").

A client of the official SDK binary-searches a private balance through a served task that fails
when the amount is above it. Served with two different balances, the client must see exactly
the same thing: the first call that private data decided ends the server, so it never gets an
answer to learn from; the operator gets a line on stderr and the audit log a record.
"""

from __future__ import annotations

import json

import anyio

from mcp_support import served, text_of

BANK = '''let balance be private({balance}, "bank")

-- Withdraw an amount: fails when the balance is too low.
task withdraw(amount: number)
    when balance < amount
        raise "insufficient funds"
    give "ok"

-- A public helper: never looks at the balance.
task fee(amount: number)
    give amount // 100
'''


def _binary_search(tmp_path, balance: int):
    script = tmp_path / f"bank{balance}.syn"
    script.write_text(BANK.format(balance=balance), encoding="utf-8")
    audit = tmp_path / f"audit{balance}.jsonl"
    errlog = tmp_path / f"stderr{balance}.txt"

    async def main():
        transcript = []
        async with served("--labels", "--audit", audit, script, errlog=errlog) as session:
            with anyio.fail_after(60):
                fee = await session.call_tool("fee", {"amount": 250})
                transcript.append(("fee", fee.isError, text_of(fee)))
                low, high = 0, 1024
                while low < high:
                    middle = (low + high) // 2
                    try:
                        answer = await session.call_tool("withdraw", {"amount": middle})
                    except Exception as closed:   # the server ended: the SDK's connection error
                        transcript.append(("withdraw", middle, "closed", type(closed).__name__))
                        break
                    transcript.append(("withdraw", middle, answer.isError, text_of(answer)))
                    if answer.isError:
                        high = middle
                    else:
                        low = middle + 1
        return transcript

    transcript = anyio.run(main)
    records = [json.loads(line) for line in audit.read_text().splitlines()]
    return transcript, records, errlog.read_text()


def test_a_binary_search_learns_nothing_and_the_server_stops(tmp_path):
    rich, rich_audit, rich_err = _binary_search(tmp_path, 420)
    poor, poor_audit, poor_err = _binary_search(tmp_path, 17)
    assert rich == poor
    assert rich[0] == ("fee", False, "2")                 # public calls are answered as before
    assert len(rich) == 2 and rich[1][:3] == ("withdraw", 512, "closed")
    for err, records in ((rich_err, rich_audit), (poor_err, poor_audit)):
        assert "label_violation: the outcome of a call of 'withdraw' depended on private data" in err
        assert "420" not in err and "17" not in err
        limit = [r for r in records if "limit" in r]
        assert [r["limit"] for r in limit] == ["labels"]
        assert records[-1]["summary"]["exit"] == 1
