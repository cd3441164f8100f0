"""Shared fixtures: a real HTTP server on 127.0.0.1, a closed port, a file tree with symlinks."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest

class _Handler(BaseHTTPRequestHandler):
    """/hello, /status/N, /redirect?to=URL, /slow?s=SECONDS, /utf8, /echo-headers."""

    def do_GET(self):
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        if url.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", query["to"][0])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if url.path == "/slow":
            time.sleep(float(query.get("s", ["2"])[0]))
        status = int(url.path.rsplit("/", 1)[1]) if url.path.startswith("/status/") else 200
        body = "héllo wörld" if url.path == "/utf8" else f"hello from {url.path}"
        if url.path == "/echo-headers":
            body = f"{self.headers.get('Authorization')}|{self.headers.get('X-Api-Key')}"
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("X-Test", "one")
        self.send_header("X-Test", "two")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def http_server():
    """A real server on 127.0.0.1; yields its port."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


@pytest.fixture
def closed_port():
    """A port on 127.0.0.1 with nothing listening (bound then released)."""
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def tree(tmp_path):
    """data/ (with notes, a sub directory, links in and out), database/, secret/ — under tmp_path."""
    (tmp_path / "data" / "sub").mkdir(parents=True)
    (tmp_path / "data" / "public").mkdir()
    (tmp_path / "database").mkdir()
    (tmp_path / "secret").mkdir()
    (tmp_path / "data" / "notes.txt").write_text("notes-ok\n")
    (tmp_path / "data" / "private.txt").write_text("private-data\n")
    (tmp_path / "data" / "public" / "info.txt").write_text("public-ok\n")
    (tmp_path / "database" / "x.txt").write_text("database-data\n")
    (tmp_path / "secret" / "key.txt").write_text("top-secret\n")
    (tmp_path / "data" / "link_out").symlink_to(tmp_path / "secret" / "key.txt")
    (tmp_path / "data" / "link_in").symlink_to(tmp_path / "data" / "notes.txt")
    return tmp_path
