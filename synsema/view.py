"""`synsema view TRACE_OR_RESULTS`: a run (a `--trace` file) or an eval's results as one
self-contained HTML page — no network fetch, no external file, readable from disk.

A trace becomes a timeline: every span (the run, each model call, each tool call) is a step
with its bar on a shared time axis, its tokens and cost, its attributes and its events
(capability denials, label violations, retries, budget stops). Results become a sortable,
filterable table of rows, each linking to the row's own trace page when its trace file exists.

What the page shows was already public: traces and results hold only what stdout could show
(private values and secrets as their redacted text; see docs/tracing.md). The page never turns
data into markup: the records travel as JSON inside a script element (with `<` escaped, so no
record can close it), and the page's script writes them with `textContent`.
"""

from __future__ import annotations

import json
import os

from synsema.runtime.llm.prices import cost_of


class ViewError(Exception):
    """The input cannot be shown: a usage error (exit 2) naming the file and line."""


def load(path: str) -> tuple[str, list[dict]]:
    """("trace" | "results", the records) of a JSON-lines file."""
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except (OSError, UnicodeDecodeError) as problem:
        raise ViewError(f"cannot read {path}: {getattr(problem, 'strerror', None) or problem}") from None
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as problem:
            raise ViewError(f"{path}:{number}: not a JSON line ({problem.msg})") from None
        if type(record) is not dict:
            raise ViewError(f"{path}:{number}: each line must be a JSON object")
        records.append(record)
    if not records:
        raise ViewError(f"{path}: no records (an empty file)")
    if records[0].get("type") == "trace":
        return "trace", records
    if all("row" in record for record in records):
        return "results", records
    raise ViewError(f"{path}:1: neither a trace (its first line has \"type\": \"trace\") nor eval results "
                    "(every line has a \"row\")")


def steps(records: list[dict]) -> list[dict]:
    """The spans of a trace in start order, each with its depth, times, attributes and events;
    a span the run never ended (a killed run) ends at the last record's time."""
    spans: dict[str, dict] = {}
    order: list[dict] = []
    last = max((r.get("ts", 0) for r in records), default=0)
    for record in records:
        kind = record.get("type")
        if kind == "span_start":
            parent = spans.get(record.get("parent"))
            step = {"id": record["span"], "name": record.get("name", ""), "op": record.get("op", ""),
                    "start": record.get("ts", 0), "end": None, "depth": parent["depth"] + 1 if parent else 0,
                    "status": "open", "error": None, "attrs": dict(record.get("attrs") or {}), "events": []}
            spans[step["id"]] = step
            order.append(step)
        elif kind == "span_end" and record.get("span") in spans:
            step = spans[record["span"]]
            step["end"] = record.get("ts")
            step["status"] = record.get("status", "ok")
            step["error"] = record.get("error")
            step["attrs"].update(record.get("attrs") or {})
        elif kind == "event":
            owner = spans.get(record.get("span"))
            event = {"name": record.get("name", ""), "ts": record.get("ts", 0), "attrs": record.get("attrs") or {}}
            if owner is not None:
                owner["events"].append(event)
    for step in order:
        if step["end"] is None:
            step["end"] = last
        step["cost"] = cost_of(step["attrs"])
    return order


def render(path: str) -> str:
    kind, records = load(path)
    if kind == "trace":
        data = {"kind": "trace", "title": records[0].get("program") or os.path.basename(path),
                "steps": steps(records)}
    else:
        data = {"kind": "results", "title": os.path.basename(path), "rows": [_row(r, path) for r in records]}
    payload = json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")
    return _PAGE.replace("__TITLE__", _escape(data["title"])).replace("__DATA__", payload)


def _row(record: dict, path: str) -> dict:
    """A results row, with `trace_page` the relative link to its trace's own page when the
    trace file named by the row exists (`synsema view` writes that page beside it)."""
    row = dict(record)
    trace = record.get("trace")
    if type(trace) is str:
        folder = os.path.dirname(os.path.abspath(path))
        if os.path.exists(os.path.join(folder, trace)):
            row["trace_page"] = os.path.splitext(trace)[0] + ".html"
    return row


def write_pages(path: str, output: str) -> list[str]:
    """Write the page for `path` to `output`, and for results also each row's trace page; the
    pages written."""
    written = [output]
    _atomic_write(output, render(path))
    kind, records = load(path)
    if kind == "results":
        folder = os.path.dirname(os.path.abspath(path))
        for record in records:
            row = _row(record, path)
            if "trace_page" in row:
                page = os.path.join(folder, row["trace_page"])
                _atomic_write(page, render(os.path.join(folder, record["trace"])))
                written.append(page)
    return written


def _atomic_write(path: str, text: str) -> None:
    temporary = f"{path}.{os.getpid()}.tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(temporary, path)


def serve(output: str) -> None:
    """`--serve`: the page on http://127.0.0.1:PORT until Ctrl-C (only its own folder is served)."""
    import functools
    import http.server
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=os.path.dirname(os.path.abspath(output)))
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
        print(f"serving http://127.0.0.1:{server.server_address[1]}/{os.path.basename(output)} (Ctrl-C stops)",
              flush=True)
        server.serve_forever()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>__TITLE__ · synsema view</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; color: #1d2330; background: #f6f7fb; }
header { background: #1d2330; color: #fff; padding: 14px 22px; }
header h1 { font-size: 17px; margin: 0 0 4px; font-weight: 600; }
.summary { display: flex; gap: 22px; flex-wrap: wrap; font-size: 13px; opacity: .9; }
main { padding: 16px 22px; }
.step { background: #fff; border: 1px solid #dde1ea; border-radius: 6px; margin: 6px 0; }
.step > .line { display: grid; grid-template-columns: minmax(220px, 32%) 1fr 150px; gap: 12px;
  align-items: center; padding: 7px 10px; cursor: pointer; }
.name { font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.op-chat .name { color: #2153c7; } .op-execute_tool .name { color: #0d7a55; } .op-invoke_agent .name { color: #6b3fb8; }
.track { position: relative; height: 12px; background: #eef0f5; border-radius: 3px; }
.bar { position: absolute; top: 0; height: 12px; border-radius: 3px; background: #7d95d8; min-width: 2px; }
.op-execute_tool .bar { background: #55b58f; } .op-invoke_agent .bar { background: #b49be0; }
.status-error .bar { background: #d9534f; }
.meta { font-size: 12px; color: #566; text-align: right; }
.details { display: none; border-top: 1px solid #eef0f5; padding: 8px 12px; font-size: 12.5px; }
.step.open > .details { display: block; }
.details table { border-collapse: collapse; }
.details td { padding: 2px 10px 2px 0; vertical-align: top; font-family: ui-monospace, monospace; white-space: pre-wrap; word-break: break-word; }
.event { margin: 4px 0; padding: 4px 8px; border-left: 3px solid #e0a800; background: #fffbea; font-size: 12.5px; }
.event.bad { border-color: #d9534f; background: #fdf0ef; }
.error { color: #b52a25; font-family: ui-monospace, monospace; font-size: 12.5px; }
table.rows { border-collapse: collapse; width: 100%; background: #fff; }
table.rows th, table.rows td { border-bottom: 1px solid #e3e6ee; padding: 6px 8px; text-align: left; font-size: 13px; }
table.rows th { cursor: pointer; background: #eef0f5; user-select: none; }
input.filter { padding: 6px 8px; width: 320px; margin-bottom: 10px; border: 1px solid #ccd; border-radius: 4px; }
.empty { color: #667; font-style: italic; }
</style>
</head>
<body>
<header><h1 id="title"></h1><div class="summary" id="summary"></div></header>
<main id="main"></main>
<script type="application/json" id="data">__DATA__</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("data").textContent);
const main = document.getElementById("main");
function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}
function money(x) { return x ? "$" + x.toFixed(x < 0.01 ? 5 : 3) : ""; }
function seconds(x) { return x < 1 ? (x * 1000).toFixed(0) + " ms" : x.toFixed(2) + " s"; }
function tokensOf(step) {
  const a = step.attrs;
  if (a["gen_ai.usage.input_tokens"] !== undefined || a["gen_ai.usage.output_tokens"] !== undefined)
    return (a["gen_ai.usage.input_tokens"] || 0) + (a["gen_ai.usage.output_tokens"] || 0);
  return a["synsema.tokens"] || 0;
}
function attrTable(attrs) {
  const table = el("table");
  for (const key of Object.keys(attrs).sort()) {
    const tr = el("tr");
    tr.append(el("td", "", key), el("td", "", Array.isArray(attrs[key]) ? attrs[key].join(", ") : attrs[key]));
    table.append(tr);
  }
  return table;
}
function showTrace() {
  document.getElementById("title").textContent = data.title;
  const steps = data.steps;
  if (!steps.length) { main.append(el("p", "empty", "This trace has no steps.")); return; }
  const t0 = Math.min(...steps.map(s => s.start)), t1 = Math.max(...steps.map(s => s.end));
  const span = Math.max(t1 - t0, 1e-6);
  let tokens = 0, cost = 0, denied = 0, violations = 0;
  const models = steps.filter(s => s.op === "chat").length, tools = steps.filter(s => s.op === "execute_tool").length;
  for (const s of steps) {
    if (s.op === "chat") { tokens += tokensOf(s); cost += s.cost || 0; }
    for (const e of s.events) { if (e.name === "capability.denied") denied++; if (e.name === "label.violation") violations++; }
  }
  const summary = document.getElementById("summary");
  for (const text of [seconds(t1 - t0), models + " model calls", tools + " tool calls", tokens + " tokens",
                      cost ? money(cost) : "cost unknown", denied + " denied", violations + " label violations"])
    summary.append(el("span", "", text));
  for (const s of steps) {
    const box = el("div", "step op-" + s.op + " status-" + s.status);
    box.dataset.step = s.id;
    const line = el("div", "line");
    const name = el("div", "name", s.name);
    name.style.paddingLeft = (s.depth * 18) + "px";
    const track = el("div", "track"), bar = el("div", "bar");
    bar.style.left = ((s.start - t0) / span * 100) + "%";
    bar.style.width = (Math.max(s.end - s.start, 0) / span * 100) + "%";
    track.append(bar);
    const parts = [seconds(Math.max(s.end - s.start, 0))];
    if (s.op === "chat") { parts.push(tokensOf(s) + " tok"); if (s.cost) parts.push(money(s.cost)); }
    line.append(name, track, el("div", "meta", parts.join(" · ")));
    const details = el("div", "details");
    if (s.error) details.append(el("div", "error", s.error));
    details.append(attrTable(s.attrs));
    for (const e of s.events) {
      const bad = e.name === "capability.denied" || e.name === "label.violation";
      const ev = el("div", "event" + (bad ? " bad" : ""));
      ev.append(el("strong", "", e.name + " "), el("span", "", seconds(e.ts - t0) + " "));
      ev.append(attrTable(e.attrs));
      details.append(ev);
      if (bad) box.classList.add("open");
    }
    line.addEventListener("click", () => box.classList.toggle("open"));
    box.append(line, details);
    main.append(box);
  }
}
function showResults() {
  document.getElementById("title").textContent = data.title;
  const rows = data.rows;
  const scoreNames = [...new Set(rows.flatMap(r => Object.keys(r.scores || {})))].sort();
  const columns = ["row", "output", ...scoreNames.map(n => "score: " + n), "error", "tokens", "duration", "trace"];
  const value = (r, c) => {
    if (c.startsWith("score: ")) return (r.scores || {})[c.slice(7)];
    if (c === "tokens") { const t = r.tokens || {}; return typeof t === "number" ? t : (t.input || 0) + (t.output || 0); }
    if (c === "error") return r.error ? (r.error.kind ? r.error.kind + ": " : "") + (r.error.message || r.error) : "";
    if (c === "output") return Array.isArray(r.output) ? r.output.join("\\n") : r.output;
    return r[c];
  };
  const errored = rows.filter(r => r.error).length;
  const summary = document.getElementById("summary");
  summary.append(el("span", "", rows.length + " rows"), el("span", "", errored + " errored"));
  for (const n of scoreNames) {
    const xs = rows.map(r => (r.scores || {})[n]).filter(x => typeof x === "number" || typeof x === "boolean").map(Number);
    if (xs.length) summary.append(el("span", "", n + " mean " + (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(3)));
  }
  const filter = el("input", "filter");
  filter.placeholder = "filter rows (any column)";
  const table = el("table", "rows"), head = el("tr"), body = el("tbody");
  let sortBy = "row", ascending = true;
  for (const c of columns) {
    const th = el("th", "", c);
    th.addEventListener("click", () => { ascending = sortBy === c ? !ascending : true; sortBy = c; draw(); });
    head.append(th);
  }
  const thead = el("thead"); thead.append(head); table.append(thead, body);
  function draw() {
    const needle = filter.value.toLowerCase();
    const shown = rows.filter(r => !needle || columns.some(c => String(value(r, c) ?? "").toLowerCase().includes(needle)));
    shown.sort((a, b) => {
      const x = value(a, sortBy), y = value(b, sortBy);
      const order = (typeof x === "number" && typeof y === "number") ? x - y : String(x ?? "").localeCompare(String(y ?? ""));
      return ascending ? order : -order;
    });
    body.replaceChildren();
    for (const r of shown) {
      const tr = el("tr", "result");
      for (const c of columns) {
        const td = el("td");
        if (c === "trace" && r.trace_page) { const a = el("a", "", "trace"); a.href = r.trace_page; td.append(a); }
        else if (c !== "trace") td.textContent = value(r, c) ?? "";
        tr.append(td);
      }
      body.append(tr);
    }
  }
  filter.addEventListener("input", draw);
  main.append(filter, table);
  draw();
}
if (data.kind === "trace") showTrace(); else showResults();
</script>
</body>
</html>
"""
