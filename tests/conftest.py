"""Fixtures the tests share: a loopback HTTP listener that records every request, a process scan, `serve`
(a scripted model endpoint on 127.0.0.1 for the run stage's and adaptive testing's tests), and `classic_build`
(the classic study built once per test session, shared by the test files that check it)."""

from __future__ import annotations

import fcntl
import http.server
import json
import os
import pickle
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from execstate.builder import BuildResult, Measurements, build, write_build
from execstate.metrics.cpp import Compiler
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
    takes about 60 CPU seconds. Under pytest-xdist the first worker to ask builds it and writes its records (the
    public JSON lines) to the session's shared temporary folder under a file lock (``write_build``); the others read them back (``read_jsonl``), so
    the records a test sees have made the round trip through their own on-disk format. A test of rebuilding
    builds again itself (``test_classic_build``'s rebuilt cases). The build's measurement memo is kept beside the
    records (``classic_measurements``)."""
    folder = _classic_folder(tmp_path_factory)
    folder.parent.mkdir(exist_ok=True)
    with open(folder.parent / "classic.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "manifest.json").exists():  # write_build writes the manifest after the records
            memo = Measurements(max_entries=CLASSIC_MEMO_ENTRIES)
            plain = build([], studies=["classic"], jobs=2, memo=memo)
            folder.mkdir(parents=True, exist_ok=True)
            (folder / MEMO_FILE).write_bytes(pickle.dumps(memo.tables()))  # before the manifest, too
            write_build(plain, folder)
    tasks = list(read_jsonl(folder / "tasks.jsonl", Task))
    exclusions = list(read_jsonl(folder / "excluded.jsonl", Exclusion))
    manifest = BuildManifest.model_validate(json.loads((folder / "manifest.json").read_text()))
    return BuildResult(tasks, exclusions, manifest)


CLASSIC_MEMO_ENTRIES = 8192
"""Measurements the session's classic build keeps (the pipeline's main-job memo size): all of the study's."""
MEMO_FILE = "measurements.pickle"
"""The classic build's measurement memo, pickled beside its records (``classic_measurements``)."""


def _classic_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's shared folder of the classic build (one for every pytest-xdist worker)."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # pytest-xdist: every worker's base folder lies in the session's one
    return shared / "shared-builds" / "classic"


@pytest.fixture(scope="module")
def classic_measurements(classic_build: BuildResult, tmp_path_factory: pytest.TempPathFactory) -> Measurements:
    """A fresh memo holding every measurement the session's classic build made (``classic_build``), in whichever
    worker made it: a later build of the classic study's programs on the same inputs (``build --variants``, which
    rebuilds the originals, as the pipeline's variants build does with the main build's memo) takes them from it
    instead of measuring again. Measurements are deterministic functions of their key (``measurement_key``);
    ``test_build_variants``'s rebuild of three cases without a memo checks that the lines come out the same."""
    tables = pickle.loads((_classic_folder(tmp_path_factory) / MEMO_FILE).read_bytes())
    return Measurements.with_tables(tables, max_entries=CLASSIC_MEMO_ENTRIES)


@pytest.fixture(scope="session")
def cpp_cache_with_headers() -> Callable[[Path], Path]:
    """``cpp_cache_with_headers(root)``: ``root`` made a C++ compile cache with no program in it but every
    precompiled header the user's cache (``Compiler().cache_root()``) already holds, hard-linked (a complete entry
    is renamed into ``pch/`` whole, so it never changes; a ``.gch`` is used from any folder). For the tests that
    count their own program compiles in a cache of their own: they still start with no program compiled, and
    do not rebuild the 5-10 s headers of ``<bits/stdc++.h>`` each time. A header the user's cache lacks (or
    cannot be linked: another filesystem) is built in ``root`` when first needed, as in any empty cache."""
    shared = Compiler().cache_root() / "pch"

    def seed(root: Path) -> Path:
        entries = sorted(shared.iterdir()) if shared.is_dir() else []
        for entry in entries:
            if not (entry / "meta.json").is_file():
                continue
            target = root / "pch" / entry.name
            try:
                shutil.copytree(entry, target, copy_function=os.link)
            except OSError:
                shutil.rmtree(target, ignore_errors=True)
        return root

    return seed
