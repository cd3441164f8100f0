"""`synsema view`: a trace or eval results as one self-contained page, checked in a real headless
Chromium (no console errors, the expected steps, nothing fetched, a screenshot that is not blank)."""

from __future__ import annotations

import io
import json

from conftest import run_synsema
from llm.fakes import FakeServer

from .browser import close, open_page
from .programs import AGENT, PLAINTEXT_SECRET, PRIVATE_BALANCE, agent_env, agent_replies


def _agent_trace(tmp_path):
    program = tmp_path / "agent.syn"
    program.write_text(AGENT, encoding="utf-8")
    trace = tmp_path / "run.jsonl"
    with FakeServer() as server:
        agent_replies(server)
        done = run_synsema("run", "--labels", "--trace", trace, program, cwd=tmp_path, env=agent_env(server))
    assert done.returncode == 0, done.stderr
    return trace


def test_a_trace_page_shows_every_step_without_errors_or_fetches(tmp_path):
    trace = _agent_trace(tmp_path)
    viewed = run_synsema("view", trace, cwd=tmp_path)
    assert viewed.returncode == 0, viewed.stderr
    page_file = tmp_path / "run.html"
    assert viewed.stdout == f"wrote {page_file}\n"
    html = page_file.read_text(encoding="utf-8")
    assert PLAINTEXT_SECRET not in html and str(PRIVATE_BALANCE) not in html
    manager, browser, page, console, errors, requests = open_page(page_file.as_uri())
    try:
        assert errors == [] and [m for m in console if m[0] == "error"] == []
        assert requests == [page_file.as_uri()]   # self-contained: nothing else is fetched
        assert page.locator(".step").count() == 5
        assert page.locator(".op-chat").count() == 2 and page.locator(".op-execute_tool").count() == 2
        summary = page.locator("#summary").inner_text()
        assert "2 model calls" in summary and "2 tool calls" in summary and "1 denied" in summary
        root = page.locator(".op-invoke_agent")
        assert "capability.denied" in root.inner_text()   # a denial opens its step
        page.locator(".op-chat .line").first.click()
        assert "gen_ai.request.model" in page.locator(".op-chat").first.inner_text()
        shot = page.screenshot(full_page=True)
    finally:
        close(manager, browser)
    from PIL import Image
    image = Image.open(io.BytesIO(shot)).convert("RGB")
    colours = image.getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 20, "the screenshot is blank"


def test_results_page_sorts_filters_and_links_each_rows_trace(tmp_path):
    trace = _agent_trace(tmp_path)
    rows = [{"row": "r1", "args": {"q": "a"}, "output": ["ok"], "scores": {"exact": 1}, "error": None,
             "tokens": {"input": 10, "output": 2}, "duration": 0.5, "trace": trace.name},
            {"row": "r2", "args": {"q": "b"}, "output": [], "scores": {"exact": 0}, "tokens": {"input": 3, "output": 1},
             "error": {"kind": "runtime", "message": "boom </script><script>alert(1)</script>"}, "duration": 1.5},
            {"row": "r3", "args": {"q": "c"}, "output": ["ok"], "scores": {"exact": 1}, "error": None,
             "tokens": {"input": 5, "output": 5}, "duration": 0.1}]
    results = tmp_path / "results.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    viewed = run_synsema("view", results, "-o", tmp_path / "table.html", cwd=tmp_path)
    assert viewed.returncode == 0, viewed.stderr
    assert (tmp_path / "run.html").exists()   # the linked row's trace got its own page
    manager, browser, page, console, errors, _ = open_page((tmp_path / "table.html").as_uri())
    try:
        assert errors == [] and [m for m in console if m[0] == "error"] == []
        assert page.locator("tr.result").count() == 3
        assert "exact mean 0.667" in page.locator("#summary").inner_text()
        assert "boom </script><script>alert(1)</script>" in page.locator("tbody").inner_text()
        page.locator("th", has_text="duration").click()
        assert page.locator("tr.result td").first.inner_text() == "r3"
        page.locator("input.filter").fill("boom")
        assert page.locator("tr.result").count() == 1
        page.locator("input.filter").fill("")
        page.locator("a", has_text="trace").click()
        page.wait_for_load_state("load")
        assert page.locator(".step").count() == 5
    finally:
        close(manager, browser)


def test_view_refuses_what_it_cannot_show_with_the_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "trace", "version": 1}\nnot json\n', encoding="utf-8")
    done = run_synsema("view", bad, cwd=tmp_path)
    assert done.returncode == 2 and f"{bad}:2: not a JSON line" in done.stderr
    other = tmp_path / "other.jsonl"
    other.write_text('{"a": 1}\n', encoding="utf-8")
    done = run_synsema("view", other, cwd=tmp_path)
    assert done.returncode == 2 and "neither a trace" in done.stderr
    assert not (tmp_path / "bad.html").exists() and not (tmp_path / "other.html").exists()
