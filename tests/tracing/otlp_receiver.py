"""A real OTLP/HTTP trace receiver on 127.0.0.1: it decodes each POST /v1/traces body with the
official protobuf types (opentelemetry-proto) and keeps the raw bytes too, so a test can check
both the spans and that nothing it must not see was ever sent."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)


class Receiver:
    def __init__(self):
        self.raw: list[bytes] = []
        self.paths: list[str] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> "Receiver":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    def spans(self) -> list:
        """Every span received, decoded, in the order received."""
        found = []
        for body in self.raw:
            request = ExportTraceServiceRequest()
            request.ParseFromString(body)
            for resource in request.resource_spans:
                for scope in resource.scope_spans:
                    found.extend(scope.spans)
        return found

    def resources(self) -> list[dict]:
        out = []
        for body in self.raw:
            request = ExportTraceServiceRequest()
            request.ParseFromString(body)
            out.extend({a.key: _value(a.value) for a in r.resource.attributes} for r in request.resource_spans)
        return out

    def _handler(self):
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                receiver.paths.append(self.path)
                receiver.raw.append(body)
                reply = ExportTraceServiceResponse().SerializeToString()
                self.send_response(200)
                self.send_header("content-type", "application/x-protobuf")
                self.send_header("content-length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args):
                pass

        return Handler


def attributes(span) -> dict:
    return {a.key: _value(a.value) for a in span.attributes}


def _value(any_value):
    kind = any_value.WhichOneof("value")
    if kind == "array_value":
        return [_value(v) for v in any_value.array_value.values]
    return getattr(any_value, kind) if kind else None
