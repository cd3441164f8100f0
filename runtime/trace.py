"""Run traces: what an agent did, as spans and events, sent through one exporter seam.

A run's tracer is process-wide (one program runs per process; `synsema eval` runs each row in
a process of its own) and None unless the host asked for a trace (`--trace FILE`, or the
standard `OTEL_EXPORTER_OTLP_*` variables). Every hook in the interpreter is then one test of a
module global, so a run without a trace pays nothing for the hooks it passes.

Spans nest through a context variable, so the spans a thread opens (parallel work, MCP's
background loop) have the right parent. The format of a record — the one schema `--trace`
files, the OpenTelemetry exporter and `synsema view` share — is written in docs/tracing.md:

    {"type": "trace", "version": 1, "trace": HEX32, "program": PATH, "ts": SECONDS}
    {"type": "span_start", "trace", "span": HEX16, "parent": HEX16|null, "name", "op", "ts", "attrs"}
    {"type": "event", "trace", "span", "name", "ts", "attrs"}
    {"type": "span_end", "trace", "span", "ts", "status": "ok"|"error", "error": TEXT|null, "attrs"}

Attributes are JSON scalars or lists of them, named after the OpenTelemetry GenAI semantic
conventions where one exists (`gen_ai.*`) and `synsema.*` otherwise. Producers hand over only
what stdout could show: a private value or a secret is its redacted display text, never its
content (`shown` below is the one helper that makes a Synsema value safe to record).
"""

from __future__ import annotations

import contextvars
import json
import os
import threading
import time

_tracer: Tracer | None = None
_current: contextvars.ContextVar = contextvars.ContextVar("synsema_trace_span", default=None)


class Exporter:
    """Where records go: `export` gets each record as it happens, `shutdown` once at the end."""

    def export(self, record: dict) -> None:
        raise NotImplementedError

    def shutdown(self) -> None:
        pass


class JsonLinesExporter(Exporter):
    """`--trace FILE`: one JSON object per line, flushed as written, so a killed run keeps
    everything it did up to the kill."""

    def __init__(self, path: str):
        self.path = path
        self._file = open(path, "w", encoding="utf-8")  # noqa: SIM115 (closed by shutdown)
        self._lock = threading.Lock()   # parallel items' spans end on their own threads

    def export(self, record: dict) -> None:
        line = json.dumps(record, ensure_ascii=False, default=str) + "\n"
        with self._lock:
            self._file.write(line)
            self._file.flush()

    def shutdown(self) -> None:
        self._file.close()


class Span:
    """One operation in progress; `set` adds attributes known only later (usage, finish)."""

    __slots__ = ("tracer", "id", "parent", "name", "op", "attrs", "failed")

    def __init__(self, tracer: Tracer, span_id: str, parent: str | None, name: str, op: str):
        self.tracer = tracer
        self.id = span_id
        self.parent = parent
        self.name = name
        self.op = op
        self.attrs: dict = {}
        self.failed: str | None = None

    def set(self, attrs: dict) -> None:
        self.attrs.update(_clean(attrs))

    def event(self, name: str, attrs: dict | None = None) -> None:
        self.tracer.emit({"type": "event", "span": self.id, "name": name, "ts": time.time(),
                          "attrs": _clean(attrs or {})})

    def fail(self, message: str) -> None:
        """Mark the span failed (with a message stdout could show) without raising."""
        self.failed = message


class _NoSpan:
    """What a hook holds when no trace is being written: every method does nothing."""

    __slots__ = ()
    id = None

    def set(self, attrs: dict) -> None:
        pass

    def event(self, name: str, attrs: dict | None = None) -> None:
        pass

    def fail(self, message: str) -> None:
        pass


NO_SPAN = _NoSpan()


class Tracer:
    """The run's trace: one trace id, the exporters, and the tool-call ids a model handed out
    (so a `call_tool` span can name the call it answers)."""

    def __init__(self, exporters: list[Exporter], program: str):
        self.trace_id = os.urandom(16).hex()
        self.exporters = exporters
        self.pending_calls: dict[str, list[str]] = {}
        self.capture_content = os.environ.get("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT",
                                              "").lower() == "true"
        self.labels = None   # the run's label state under --labels (see content_allowed)
        self.emit({"type": "trace", "version": 1, "program": program, "ts": time.time()})

    def emit(self, record: dict) -> None:
        record["trace"] = self.trace_id
        for exporter in self.exporters:
            exporter.export(record)

    def start(self, op: str, name: str, attrs: dict) -> Span:
        parent = _current.get()
        span = Span(self, os.urandom(8).hex(), parent.id if parent is not None else None, name, op)
        self.emit({"type": "span_start", "span": span.id, "parent": span.parent, "name": name, "op": op,
                   "ts": time.time(), "attrs": _clean(attrs)})
        return span

    def end(self, span: Span, error: str | None) -> None:
        error = error or span.failed
        self.emit({"type": "span_end", "span": span.id, "ts": time.time(),
                   "status": "error" if error else "ok", "error": error, "attrs": span.attrs})

    def model_called(self, names_and_ids: list[tuple[str, str]]) -> None:
        for name, call_id in names_and_ids:
            self.pending_calls.setdefault(name, []).append(call_id)

    def call_id_for(self, name: str) -> str | None:
        """The oldest unanswered id the model gave a call of `name`, if any."""
        waiting = self.pending_calls.get(name)
        return waiting.pop(0) if waiting else None

    def shutdown(self) -> None:
        for exporter in self.exporters:
            exporter.shutdown()


class span:
    """`with trace.span("chat", "chat gpt-4o", {...}) as s:` — a span around the block, or
    NO_SPAN when no trace is written. An exception leaving the block marks the span failed
    with the language's message when it has one (SynError), else only the exception's kind."""

    __slots__ = ("op", "name", "attrs", "_span", "_token")

    def __init__(self, op: str, name: str, attrs: dict | None = None):
        self.op = op
        self.name = name
        self.attrs = attrs
        self._span = None

    def __enter__(self):
        tracer = _tracer
        if tracer is None:
            return NO_SPAN
        self._span = tracer.start(self.op, self.name, self.attrs or {})
        self._token = _current.set(self._span)
        return self._span

    def __exit__(self, kind, problem, traceback):
        opened = self._span
        if opened is None:
            return False
        _current.reset(self._token)
        error = None
        if problem is not None:
            report = getattr(problem, "report", None)   # a SynError: its stderr line, redacted when secret
            error = report() if callable(report) else kind.__name__
        opened.tracer.end(opened, error)
        return False


def enabled() -> bool:
    return _tracer is not None


def current_tracer() -> Tracer | None:
    return _tracer


def event(name: str, attrs: dict | None = None) -> None:
    """An event on the innermost open span (the run's, at least); nothing when tracing is off."""
    if _tracer is None:
        return
    opened = _current.get()
    if opened is not None:
        opened.event(name, attrs)
    else:
        _tracer.emit({"type": "event", "span": None, "name": name, "ts": time.time(),
                      "attrs": _clean(attrs or {})})


class TraceSetupError(Exception):
    """The host asked for a trace that cannot be written: a usage error (exit 2)."""


def start(path: str | None, program: str) -> None:
    """Begin the run's trace if the host asked for one: `--trace FILE` (JSON lines), and the
    OpenTelemetry exporter when the standard OTLP variables name an endpoint."""
    global _tracer
    exporters: list[Exporter] = []
    if path is not None:
        try:
            exporters.append(JsonLinesExporter(path))
        except OSError as problem:
            raise TraceSetupError(f"--trace: cannot write {path}: {problem.strerror}") from None
    if otlp_requested():
        from synsema.runtime.trace_otel import OtlpExporter
        exporters.append(OtlpExporter.from_environment())
    if exporters:
        _tracer = Tracer(exporters, program)


def otlp_requested() -> bool:
    """The OpenTelemetry SDK's own switches: an OTLP endpoint set, the SDK not disabled, and
    OTEL_TRACES_EXPORTER not `none`."""
    env = os.environ
    if env.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    if env.get("OTEL_TRACES_EXPORTER", "otlp").strip().lower() == "none":
        return False
    return bool(env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") or env.get("OTEL_EXPORTER_OTLP_ENDPOINT"))


def stop() -> None:
    """End the trace: every exporter flushed and closed (nothing to do when none was started)."""
    global _tracer
    tracer, _tracer = _tracer, None
    if tracer is not None:
        tracer.shutdown()


def shown(value) -> str:
    """A Synsema value as stdout would show it: private values and secrets redacted."""
    from synsema.runtime.values import display
    return display(value)


def content_allowed() -> bool:
    """Whether message and argument content may be recorded: only when the host opts in with
    the standard OpenTelemetry GenAI variable, and — since a request's text no longer says which
    of its parts were private — only while the run has made no private value. Synsema values
    (tool arguments and results) are recorded as `shown` text whatever the run holds."""
    tracer = _tracer
    if tracer is None or not tracer.capture_content:
        return False
    return tracer.labels is None or not tracer.labels.touched


def content_allowed_for_values() -> bool:
    """Whether Synsema values (tool arguments and results) are recorded, as `shown` text."""
    tracer = _tracer
    return tracer is not None and tracer.capture_content


def _clean(attrs: dict) -> dict:
    """Attributes as JSON scalars or lists of them; None values dropped."""
    out = {}
    for key, value in attrs.items():
        if value is None:
            continue
        if type(value) in (str, int, float, bool):
            out[key] = value
        elif type(value) in (list, tuple):
            out[key] = [item if type(item) in (str, int, float, bool) else str(item) for item in value]
        else:
            out[key] = str(value)
    return out
