"""Fixtures the tests share: a loopback HTTP listener that records every request, a process scan, `serve`
(a scripted model endpoint on 127.0.0.1 for the run stage's and adaptive testing's tests), and `classic_build`
(the classic study built once per test session, shared by the test files that check it)."""

from __future__ import annotations

import fcntl
import http.server
import json
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from execstate.builder import BuildResult, build, write_build
from execstate.records import BuildManifest, Exclusion, Task, read_jsonl
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


@pytest.fixture(scope="session")
def classic_build(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    """The classic study built with its defaults (``build([], studies=["classic"], jobs=2)``), once per session.

    Several test files check this same build (all cases admitted, the further arms, the variants' originals); it
    takes about 40 CPU seconds. Under pytest-xdist the first worker to ask builds it and writes its records (the
    public JSON lines) to the session's shared temporary folder under a file lock (``write_build``); the others read them back (``read_jsonl``), so
    the records a test sees have made the round trip through their own on-disk format. A test of rebuilding
    builds again itself (``test_classic_build``'s rebuilt cases)."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # pytest-xdist: every worker's base folder lies in the session's one
    folder = shared / "shared-builds" / "classic"
    folder.parent.mkdir(exist_ok=True)
    with open(folder.parent / "classic.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "manifest.json").exists():  # write_build writes the manifest after the records
            write_build(build([], studies=["classic"], jobs=2), folder)
    tasks = list(read_jsonl(folder / "tasks.jsonl", Task))
    exclusions = list(read_jsonl(folder / "excluded.jsonl", Exclusion))
    manifest = BuildManifest.model_validate(json.loads((folder / "manifest.json").read_text()))
    return BuildResult(tasks, exclusions, manifest)
