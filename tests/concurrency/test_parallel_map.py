"""parallel_map: concurrent waits, the sequential loop's results, output, audit and labels."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from conftest import run_synsema, synsema_env
from llm.fakes import openai_text


class SlowModel:
    """An OpenAI-compatible server whose every answer takes `delay` seconds; it counts how many
    requests it held at once (the concurrency a client achieved, measured without a clock)."""

    def __init__(self, delay: float):
        self.delay = delay
        self.in_flight = 0
        self.most = 0
        self.prompts: list[str] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def close(self):
        self._server.shutdown()
        self._server.server_close()

    def _handler(self):
        model = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                prompt = body["messages"][-1]["content"]
                with model._lock:
                    model.in_flight += 1
                    model.most = max(model.most, model.in_flight)
                    model.prompts.append(prompt)
                time.sleep(model.delay)
                with model._lock:
                    model.in_flight -= 1
                payload = json.dumps(openai_text(f"answer to {prompt}")).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args):
                pass

        return Handler


@pytest.fixture
def slow_model():
    server = SlowModel(0.4)
    yield server
    server.close()


def _model_env(server, **extra):
    return synsema_env(SYNSEMA_LLM_PROVIDER="openai", SYNSEMA_LLM_BASE_URL=server.url, OPENAI_API_KEY="sk-test",
                       SYNSEMA_LLM_MODEL="gpt-4.1-mini", SYNSEMA_LLM_TIMEOUT="20", **extra)


FAN_OUT = '''require llm
task question(n)
    print("asking", n)
    give llm_step(`question {n}`, [], nothing)["text"]
let answers be parallel_map(question, range(1, 9), LIMIT)
print(answers)
'''


def test_model_calls_overlap_and_results_and_output_keep_input_order(tmp_path, slow_model):
    program = tmp_path / "fan.syn"
    program.write_text(FAN_OUT.replace("LIMIT", "8"), encoding="utf-8")
    done = run_synsema("run", program, cwd=tmp_path, env=_model_env(slow_model))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"asking {n}" for n in range(1, 9)] + [
        "[" + ", ".join(f'"answer to question {n}"' for n in range(1, 9)) + "]"]
    assert slow_model.most >= 4   # the eight waits overlapped (8 at best on an idle machine)


def test_a_limit_of_one_is_the_sequential_loop(tmp_path, slow_model):
    program = tmp_path / "fan.syn"
    program.write_text(FAN_OUT.replace("LIMIT", "1"), encoding="utf-8")
    done = run_synsema("run", program, cwd=tmp_path, env=_model_env(slow_model))
    assert done.returncode == 0, done.stderr
    assert slow_model.most == 1
    assert slow_model.prompts == [f"question {n}" for n in range(1, 9)]


@pytest.mark.parametrize("flags", [[], ["--labels"]])
def test_the_first_failing_item_in_input_order_is_raised_after_the_earlier_ones(tmp_path, flags):
    program = tmp_path / "fail.syn"
    program.write_text('''task item(n)
    print("start", n)
    when n == 3 or n == 5
        raise(`item {n} failed`)
    give n
try
    print(parallel_map(item, [1, 2, 3, 4, 5, 6], 3))
recover e
    print("caught:", e)
print(parallel_map((n) => n * n, [], 4), parallel_map((n) => n, [7], 64))
''', encoding="utf-8")
    done = run_synsema("run", *flags, program, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["start 1", "start 2", "start 3", "caught: item 3 failed", "[] [7]"]


def test_bad_arguments_are_language_errors(tmp_path):
    for call, message in (("parallel_map((x) => x, [1], 0)", "parallel_map: limit must be a whole number from 1 to 64, got 0"),
                          ("parallel_map((x) => x, [1], 65)", "parallel_map: limit must be a whole number from 1 to 64"),
                          ("parallel_map(1, 2)", "parallel_map takes a list and a function"),
                          ("chunk([1], 0)", "chunk: size must be a whole number of at least 1, got 0")):
        program = tmp_path / "bad.syn"
        program.write_text(f"print({call})\n", encoding="utf-8")
        done = run_synsema("run", program, cwd=tmp_path)
        assert done.returncode == 1 and f"bad.syn:1:7: {message}" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


def test_deep_recursion_inside_an_item_ends_in_the_language_error(tmp_path):
    program = tmp_path / "deep.syn"
    program.write_text("task down(n)\n    when n == 0\n        give 0\n    give 1 + down(n - 1)\n"
                       "print(parallel_map(down, [10, 600], 2))\nprint(parallel_map(down, [5000], 1))\n",
                       encoding="utf-8")
    done = run_synsema("run", program, cwd=tmp_path)
    assert done.stdout == "[10, 600]\n"
    assert done.returncode == 1 and "maximum recursion depth exceeded" in done.stderr


def test_a_map_inside_an_item_runs_and_returns(tmp_path):
    program = tmp_path / "nested.syn"
    program.write_text("task inner(x)\n    give x + 1\ntask outer(xs)\n    give parallel_map(inner, xs, 4)\n"
                       "print(parallel_map(outer, [[1, 2], [3], [], [4, 5, 6]], 3))\n", encoding="utf-8")
    done = run_synsema("run", program, cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[[2, 3], [4], [], [5, 6, 7]]\n"


def test_the_readme_s_fan_out_block_runs(tmp_path):
    from conftest import ROOT
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = next(part.partition("\n")[2] for part in readme.split("```")[1::2] if "parallel_map(summarise" in part)
    program = tmp_path / "fan.syn"
    program.write_text(block + "print(summaries)\n", encoding="utf-8")
    server = SlowModel(0.05)
    try:
        done = run_synsema("run", program, cwd=tmp_path, env=_model_env(server))
    finally:
        server.close()
    assert done.returncode == 0, done.stderr
    assert done.stdout == '["answer to Summarise: first text", "answer to Summarise: second text"]\n'


def test_a_memory_limit_with_no_room_for_worker_threads_gives_the_same_run(tmp_path):
    """Under --memory-limit the 128 MB worker stacks stop fitting: fewer workers start, or none
    (the items then run in the calling thread). Before, this was an internal error ("cannot join
    thread before it is started", the run left in an item's flow) or a hang; the noninterference
    fuzzer found it. The run must be the one a roomy host gives: same output, errors and order."""
    program = tmp_path / "room.syn"
    program.write_text('''task item(x)
    print(`item {x}`)
    give parallel_map((y) => x * 10 + y, range(3), 4)
print(parallel_map(item, range(4), 8))
try
    print(parallel_map((x) => 10 // (2 - x), range(5), 3))
recover e
    print(`failed: {e}`)
''', encoding="utf-8")
    expected = ["item 0", "item 1", "item 2", "item 3", "[[0, 1, 2], [10, 11, 12], [20, 21, 22], [30, 31, 32]]",
                "failed: Division by zero"]
    for limit in ("off", "1000M", "700M", "300M"):
        done = run_synsema("run", "--memory-limit", limit, program, cwd=tmp_path, timeout=60)
        assert (done.returncode, done.stdout.splitlines()) == (0, expected), (limit, done.stderr)
