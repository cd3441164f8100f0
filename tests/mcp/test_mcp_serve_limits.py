"""`mcp serve` against hostile clients and scripts (issue 25 item 7), through the official SDK
client: calls from many clients run at once, each in a process of its own with a per-call time
and memory limit; a call its client abandons is stopped; a file that fails to load is a clean
error; errors never show where the server keeps its files."""

from __future__ import annotations

import os
import signal
import time

import anyio

from conftest import run_synsema

from mcp_support import served, text_of
from synsema.runtime.mcp.forked import SPARES

TOOLS = '''\
require file.write("./marks")

-- Add two numbers.
task add(a: number, b: number)
    give a + b

-- Spin until stopped, writing a mark now and then when asked to.
task spin(mark: bool = false)
    require file.write("./marks")
    let i be 0
    while true
        set i to i + 1
        when mark and i % 20000 == 0
            write_file("./marks/spin.txt", text(i))

task boom(n: number)
    give 1 / n

task grow()
    let xs be [0]
    while true
        set xs to xs + xs

task doubling()
    let a be [1]
    each i in range(30)
        set a to [a, a]
    give a

let counter be 0
task bump()
    set counter to counter + 1
    give counter
'''


def _script(tmp_path):
    (tmp_path / "marks").mkdir()
    path = tmp_path / "tools.syn"
    path.write_text(TOOLS, encoding="utf-8")
    return path


def test_a_slow_call_never_delays_another_clients_call(tmp_path):
    script = _script(tmp_path)
    order = []

    async def main():
        async with served("--time-limit", "20", script, cwd=tmp_path) as first, \
                served(script, cwd=tmp_path) as second:
            async with anyio.create_task_group() as group:
                async def slow():
                    result = await first.call_tool("spin", {})
                    order.append(("spin", result.isError, text_of(result)))

                group.start_soon(slow)
                await anyio.sleep(1)
                fast = await second.call_tool("add", {"a": 2, "b": 3})
                order.append(("add", fast.isError, text_of(fast)))
                again = await first.call_tool("add", {"a": 1, "b": 1})   # the same client, too
                order.append(("add", again.isError, text_of(again)))
                group.cancel_scope.cancel()

    anyio.run(main)
    assert order == [("add", False, "5"), ("add", False, "2")]


def test_more_slow_calls_than_waiting_processes_never_delay_another(tmp_path):
    """Call processes are forked ahead (forked.SPARES wait); a call that finds none waiting has
    one forked at once, whatever the calls before it are doing."""
    script = _script(tmp_path)
    order = []

    async def main():
        async with served("--time-limit", "20", script, cwd=tmp_path) as session:
            async with anyio.create_task_group() as group:
                async def slow():
                    result = await session.call_tool("spin", {})
                    order.append(("spin", text_of(result)))

                for _ in range(SPARES + 1):
                    group.start_soon(slow)
                await anyio.sleep(1)
                fast = await session.call_tool("add", {"a": 2, "b": 3})
                order.append(("add", text_of(fast)))
                group.cancel_scope.cancel()

    anyio.run(main)
    assert order == [("add", "5")]


def _call_processes(script) -> tuple[int, list[int]]:
    """The zygote serving `script` and its children (the processes waiting for a call), read
    from /proc: every process of the server has the script's path on its command line."""
    parents = {}
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                if str(script).encode() not in handle.read().split(b"\0"):
                    continue
            with open(f"/proc/{entry}/stat") as handle:
                parents[int(entry)] = int(handle.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError):
            continue
    server = next(pid for pid, parent in parents.items() if parent not in parents)
    zygote = next(pid for pid, parent in parents.items() if parent == server)
    return zygote, [pid for pid, parent in parents.items() if parent == zygote]


def _wait_for(condition):
    for _ in range(200):
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError("the condition never held")


def _ended(pid: int) -> bool:
    """Gone, or a zombie its parent has not reaped yet."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def _kill(pids) -> None:
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    _wait_for(lambda: all(_ended(pid) for pid in pids))


def test_a_waiting_call_process_killed_from_outside_is_replaced(tmp_path):
    script = _script(tmp_path)

    async def main():
        async with served(script, cwd=tmp_path) as session:
            first = await session.call_tool("add", {"a": 1, "b": 1})
            _wait_for(lambda: len(_call_processes(script)[1]) == SPARES)
            _kill(_call_processes(script)[1])
            return first, await session.call_tool("add", {"a": 2, "b": 3})

    first, second = anyio.run(main)
    assert (first.structuredContent, second.structuredContent) == ({"result": 2}, {"result": 5})


def test_calls_after_the_zygote_is_gone_are_told_to_restart_the_server(tmp_path):
    script = _script(tmp_path)

    async def main():
        async with served(script, cwd=tmp_path) as session:
            _wait_for(lambda: len(_call_processes(script)[1]) == SPARES)
            zygote, waiting = _call_processes(script)
            _kill([zygote, *waiting])
            return await session.call_tool("add", {"a": 2, "b": 3})

    result = anyio.run(main)
    assert result.isError and "call processes are gone; restart the server" in text_of(result)


def test_the_per_call_time_limit_stops_the_call_and_the_server_goes_on(tmp_path):
    script = _script(tmp_path)

    async def main():
        async with served("--time-limit", "1", script, cwd=tmp_path) as session:
            spun = await session.call_tool("spin", {})
            added = await session.call_tool("add", {"a": 1, "b": 2})
            return spun, added

    spun, added = anyio.run(main)
    assert spun.isError and "ran longer than the per-call time limit of 1 s (--time-limit)" in text_of(spun)
    assert (added.isError, added.structuredContent) == (False, {"result": 3})


def test_an_abandoned_call_is_stopped(tmp_path):
    script = _script(tmp_path)
    marks = tmp_path / "marks" / "spin.txt"

    async def main():
        async with served(script, cwd=tmp_path) as session:
            with anyio.move_on_after(3):
                await session.call_tool("spin", {"mark": True})

    anyio.run(main)          # the client goes away while the call runs
    assert marks.exists()
    time.sleep(1)
    seen = marks.read_text()
    time.sleep(1.5)
    assert marks.read_text() == seen, "the call kept running after its client left"


def test_memory_per_call_is_bounded(tmp_path):
    script = _script(tmp_path)

    async def main():
        async with served("--memory-limit", "300M", script, cwd=tmp_path) as session:
            return await session.call_tool("grow", {}), await session.call_tool("add", {"a": 1, "b": 1})

    grown, added = anyio.run(main)
    assert grown.isError and ("out of memory" in text_of(grown) or "value too large" in text_of(grown))
    assert "Traceback" not in text_of(grown) and "Internal error" not in text_of(grown)
    assert added.structuredContent == {"result": 2}


def test_errors_name_files_relative_to_the_served_program(tmp_path):
    script = _script(tmp_path)

    async def main():
        async with served(script.resolve()) as session:     # served by its absolute path
            return await session.call_tool("boom", {"n": 0})

    boom = anyio.run(main)
    assert boom.isError and "tools.syn:17:" in text_of(boom)
    assert str(tmp_path) not in text_of(boom)


def test_a_shared_value_result_is_refused_quickly_and_calls_do_not_share_state(tmp_path):
    script = _script(tmp_path)

    async def main():
        async with served(script, cwd=tmp_path) as session:
            with anyio.fail_after(10):
                doubled = await session.call_tool("doubling", {})
            bumps = [(await session.call_tool("bump", {})).structuredContent for _ in range(2)]
            return doubled, bumps

    doubled, bumps = anyio.run(main)
    assert doubled.isError and "value too large" in text_of(doubled)
    # each call starts from the program as it was loaded
    assert bumps == [{"result": 1}, {"result": 1}]


def test_a_file_that_fails_to_load_is_a_clean_error_naming_its_line(tmp_path):
    broken = tmp_path / "broken.syn"
    broken.write_text("task f()\n    give 1\nlet x be 1 / 0\n", encoding="utf-8")
    done = run_synsema("mcp", "serve", broken, timeout=60)
    assert done.returncode == 1
    assert "broken.syn:3:" in done.stderr and "Division by zero" in done.stderr
    assert "Traceback" not in done.stderr and "TypeError" not in done.stderr


def test_call_limits_are_checked_like_the_other_host_flags(tmp_path):
    script = _script(tmp_path)
    done = run_synsema("mcp", "serve", "--time-limit", "soon", script, timeout=60)
    assert done.returncode == 2 and "--time-limit must be a number of seconds" in done.stderr
