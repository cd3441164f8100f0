"""parallel_map's fan-out (issue 30): eight model calls against a local OpenAI-compatible
server that answers each after 200 ms, as `parallel_map(task, xs, 8)` and as the sequential
loop (`limit` 1 is the loop: one call at a time). Whole `synsema run` processes, wall clock,
median of RUNS of the time the program itself measures around the map (after a warm-up call);
the ratio is what matters (the goal: about 1/8). Not part of `make bench` (it measures waiting,
not computing). Usage: .venv/bin/python bench/fan_out.py [RUNS]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DELAY = 0.2
PROGRAM = """require llm, time
task question(n)
    give llm_step(`question {n}`, [], nothing)["text"]
let warm be question(0)
let started be now()
let answers be parallel_map(question, range(1, 9), LIMIT)
print(now() - started)
"""


class Handler(BaseHTTPRequestHandler):
    """Every answer after DELAY seconds, shaped as a chat completion."""

    def do_POST(self):
        self.rfile.read(int(self.headers["content-length"]))
        time.sleep(DELAY)
        body = json.dumps({"id": "c", "object": "chat.completion", "created": 0, "model": "bench",
                           "choices": [{"index": 0, "finish_reason": "stop",
                                        "message": {"role": "assistant", "content": "ok"}}],
                           "usage": {"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6}}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def timed(program: str, env: dict) -> float:
    """The seconds the map took, as the program measured them (after one warm-up call, so the
    provider's first-use import is not in either side)."""
    done = subprocess.run([sys.executable, "-m", "synsema", "run", program], env=env, capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    return float(done.stdout)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = {**os.environ, "SYNSEMA_LLM_PROVIDER": "openai", "OPENAI_API_KEY": "sk-bench",
           "SYNSEMA_LLM_BASE_URL": f"http://127.0.0.1:{server.server_address[1]}/v1",
           "SYNSEMA_LLM_MODEL": "gpt-4.1-mini"}
    with tempfile.TemporaryDirectory() as folder:
        medians = {}
        for limit in (1, 8):
            path = os.path.join(folder, f"fan{limit}.syn")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(PROGRAM.replace("LIMIT", str(limit)))
            medians[limit] = statistics.median(timed(path, env) for _ in range(runs))
    sequential, parallel = medians[1], medians[8]
    print(f"eight 200 ms model calls, sequential (limit 1): {sequential:.2f} s")
    print(f"eight 200 ms model calls, parallel_map limit 8: {parallel:.2f} s")
    print(f"ratio: {parallel / sequential:.2f} (goal: about 1/8 = 0.125)")
    server.shutdown()


if __name__ == "__main__":
    main()
