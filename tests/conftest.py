"""Fixtures the tests share: a loopback HTTP listener that records every request, a process scan, and `serve`
(a scripted model endpoint on 127.0.0.1 for the run stage's and adaptive testing's tests)."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from execstate.testing.loopback import Script, ScriptedServer


@pytest.fixture()
def listener() -> Iterator[tuple[int, list[str]]]:
    """``(port, hits)``: an HTTP server on 127.0.0.1; ``hits`` holds the path of every GET it received."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1], hits
    server.shutdown()


def processes_with(token: str) -> list[str]:
    """Host processes whose command line contains ``token``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and token.encode() in (entry / "cmdline").read_bytes():
                found.append(entry.name)
        except OSError:
            continue
    return found


@pytest.fixture()
def running() -> Callable[[str], list[str]]:
    """``running(token)``: the host processes whose command line contains ``token``."""
    return processes_with


@pytest.fixture
def serve() -> Iterator[Callable[[Script], ScriptedServer]]:
    """``serve(script)`` starts a ScriptedServer (a real scripted HTTP server) on 127.0.0.1; all are stopped after
    the test. The run stage's and adaptive testing's tests use it."""
    servers: list[ScriptedServer] = []

    def start(script: Script) -> ScriptedServer:
        server = ScriptedServer(script).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
