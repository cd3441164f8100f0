"""The OpenTelemetry exporter of run traces: our records become spans of the official SDK,
sent by its OTLP/HTTP exporter (the `synsema[otel]` extra).

The SDK reads its own configuration from the standard variables (OTEL_EXPORTER_OTLP_ENDPOINT,
OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS, OTEL_SERVICE_NAME,
OTEL_RESOURCE_ATTRIBUTES, …), so a host configures Synsema as it configures any instrumented
program. Only the HTTP/protobuf protocol is shipped; asking for gRPC is a usage error that says so.
Spans are batched and flushed when the run ends.
"""

from __future__ import annotations

import os

from synsema.runtime.trace import Exporter, TraceSetupError

_KINDS = {"chat": "CLIENT", "execute_tool": "INTERNAL", "invoke_agent": "INTERNAL"}


class OtlpExporter(Exporter):
    def __init__(self, provider, tracer):
        self._provider = provider
        self._tracer = tracer
        self._open: dict[str, object] = {}

    @classmethod
    def from_environment(cls) -> "OtlpExporter":
        protocol = (os.environ.get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
                    or os.environ.get("OTEL_EXPORTER_OTLP_PROTOCOL") or "http/protobuf").strip()
        if protocol != "http/protobuf":
            raise TraceSetupError(f"OTEL_EXPORTER_OTLP_PROTOCOL={protocol}: synsema exports traces over "
                                  "http/protobuf only; unset it or set it to http/protobuf")
        from synsema.runtime import extras
        try:
            extras.need("otel", "OpenTelemetry export (OTEL_EXPORTER_OTLP_ENDPOINT is set)")
        except extras.MissingExtra as missing:
            raise TraceSetupError(missing.message) from None
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
        from importlib.metadata import version
        __version__ = version("synsema")
        resource = Resource.create({"service.name": os.environ.get("OTEL_SERVICE_NAME") or "synsema",
                                    "service.version": __version__})
        provider = TracerProvider(resource=resource)
        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
        return cls(provider, provider.get_tracer("synsema", __version__))

    def export(self, record: dict) -> None:
        kind = record["type"]
        if kind == "span_start":
            self._start(record)
        elif kind == "event":
            opened = self._open.get(record["span"])
            if opened is not None:
                opened.add_event(record["name"], record["attrs"], timestamp=_ns(record["ts"]))
        elif kind == "span_end":
            self._end(record)

    def _start(self, record: dict) -> None:
        from opentelemetry import trace as otel
        parent = self._open.get(record["parent"]) if record["parent"] else None
        context = otel.set_span_in_context(parent) if parent is not None else None
        self._open[record["span"]] = self._tracer.start_span(
            record["name"], context=context, kind=getattr(otel.SpanKind, _KINDS.get(record["op"], "INTERNAL")),
            attributes=record["attrs"], start_time=_ns(record["ts"]))

    def _end(self, record: dict) -> None:
        from opentelemetry.trace import Status, StatusCode
        opened = self._open.pop(record["span"], None)
        if opened is None:
            return
        opened.set_attributes(record["attrs"])
        if record["status"] == "error":
            opened.set_attribute("error.type", "synsema_error")
            opened.set_status(Status(StatusCode.ERROR, record["error"]))
        opened.end(end_time=_ns(record["ts"]))

    def shutdown(self) -> None:
        for opened in self._open.values():   # a run cut short still sends what it opened
            opened.end()
        self._open.clear()
        self._provider.shutdown()


def _ns(seconds: float) -> int:
    return int(seconds * 1e9)
