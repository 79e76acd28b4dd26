"""The viewer without a browser: the cache (built once, rebuilt on change, the only file written into a run folder),
the queries (bound parameters, fixed sorts), the server's fixed routes (no path can be read through it) and the
command line."""

from __future__ import annotations

import http.client
import json
import os
import shutil
from pathlib import Path

import pytest

from execstate.errors import InputFileError, UsageError


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``folder`` (symlinks not followed) with its size and mtime."""
    out = {}
    for path in sorted(folder.rglob("*")):
        st = path.lstat()
        out[str(path.relative_to(folder))] = (st.st_size, st.st_mtime_ns)
    return out


@pytest.fixture
def run_copy(fixture_run, tmp_path) -> Path:
    """A private copy of the fixture run without its cache."""
    out = tmp_path / "copy"
    shutil.copytree(fixture_run, out, ignore=shutil.ignore_patterns(".execstate-view*"))
    return out


def test_nothing_but_the_cache_is_written_into_a_run_folder(run_copy):
    from execstate.view import CACHE_NAME, Viewer

    before = snapshot(run_copy)
    viewer = Viewer([run_copy])
    page = viewer.list({"arm": "inside-loop-state", "study": "classic"})
    cell = page["rows"][0]["cell"]
    trace = viewer.trace(0, cell)
    assert trace["available"] and trace["end"] == "checkpoint"
    assert viewer.cell(0, cell)["task"]["arm"] == "inside-loop-state"
    viewer.close()
    after = snapshot(run_copy)
    assert set(after) - set(before) == {CACHE_NAME}
    assert {k: v for k, v in after.items() if k != CACHE_NAME} == before
    again = Viewer([run_copy])  # the recorded trace was kept in the cache
    assert again.store.trace(0, page["rows"][0]["task_id"]) == trace
    again.close()


def test_the_cache_is_rebuilt_when_a_record_file_changes(run_copy):
    from execstate.view import open_cache, run_folder

    folder = run_folder(run_copy)
    assert open_cache(folder)[1] is True  # first open: built
    assert open_cache(folder)[1] is False  # unchanged: reused
    grades = run_copy / "grades.jsonl"
    os.utime(grades, ns=(1, 1))  # touched, same bytes: reused
    assert open_cache(folder)[1] is False
    lines = grades.read_text(encoding="utf-8").splitlines(keepends=True)
    grades.write_text("".join(lines[:-1]), encoding="utf-8")  # one cell fewer: rebuilt
    assert open_cache(folder)[1] is True
    from execstate.view import Viewer

    viewer = Viewer([run_copy])
    assert viewer.list({})["total"] == len(lines) - 1
    viewer.close()


def test_request_values_are_bound_never_sql(fixture_run):
    from execstate.view import Viewer

    viewer = Viewer([fixture_run])
    try:
        everything = viewer.list({})["total"]
        assert viewer.list({"study": "x' OR 1=1 --"})["total"] == 0
        assert viewer.list({"case": "%"})["total"] == 0  # a substring, not a LIKE pattern
        assert viewer.list({"case": "kadane"})["total"] == sum(
            1 for r in viewer.list({"size": "500"})["rows"] if "kadane" in r["case_id"]
        )
        assert viewer.list({"nonsense": "1"})["total"] == everything  # unknown keys are ignored
        with pytest.raises(UsageError, match="unknown sort"):
            viewer.list({"sort": "task; DROP TABLE cells"})
        with pytest.raises(UsageError, match="run must be a number"):
            viewer.list({"run": "0 OR 1=1"})
        with pytest.raises(UsageError, match="no cell"):
            viewer.cell(0, 10**6)
    finally:
        viewer.close()


def _get(url: str, path: str, method: str = "GET", host: str | None = None) -> tuple[int, bytes, dict]:
    address = url.removeprefix("http://").rstrip("/")
    conn = http.client.HTTPConnection(address, timeout=30)
    conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    conn.putheader("Host", host or address)
    conn.endheaders()
    reply = conn.getresponse()
    body = reply.read()
    conn.close()
    return reply.status, body, dict(reply.getheaders())


def test_no_path_outside_the_viewer_can_be_read(run_copy, tmp_path):
    from execstate.view import Viewer, start_server

    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT\n")
    (run_copy / "link").symlink_to(secret)
    (run_copy / "root").symlink_to("/")
    server = start_server(Viewer([run_copy]), port=0, background=True)
    try:
        status, body, headers = _get(server.url, "/")
        assert status == 200 and b"execstate view" in body
        assert "script-src 'self'" in headers["Content-Security-Policy"]
        assert headers["X-Content-Type-Options"] == "nosniff"
        probes = [
            "/../../../../etc/passwd",
            "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
            "/assets/..%2f..%2f..%2f..%2fetc%2fpasswd",
            "/assets/%2e%2e/%2e%2e/_cache.py",
            "//etc/passwd",
            "/etc/passwd",
            str(secret),
            "/link",
            "/root/etc/passwd",
            "/build/tasks.jsonl",
            "/grades.jsonl",
            "/.execstate-view.duckdb",
            "/api/../assets/viewer.js/../../_server.py",
            "/api/list/../../../etc/passwd",
        ]
        for probe in probes:
            status, body, _ = _get(server.url, probe)
            assert status == 404, probe
            assert b"TOP-SECRET" not in body and b"root:" not in body and b"import " not in body, probe
        assert _get(server.url, "/api/meta", method="POST")[0] == 405
        assert _get(server.url, "/api/meta", host="evil.example:80")[0] == 403  # DNS rebinding
        status, body, _ = _get(server.url, "/api/list?study=%27%20OR%201%3D1%20--")
        assert status == 200 and json.loads(body)["total"] == 0
        status, body, _ = _get(server.url, "/api/cell?run=0&cell=x")
        assert status == 400 and "run=N&cell=M" in json.loads(body)["error"]
    finally:
        server.stop()


def test_a_folder_that_is_no_run_is_named_with_the_fix(tmp_path):
    from execstate.view import run_folder

    with pytest.raises(InputFileError, match="Fix: pass the folder `execstate pipeline --out`"):
        run_folder(tmp_path)
    (tmp_path / "responses.jsonl").write_text("")
    with pytest.raises(InputFileError, match="execstate grade --run"):
        run_folder(tmp_path)


def test_the_command_writes_a_static_viewer(fixture_run, tmp_path, capsys):
    from execstate.cli import main

    assert main(["view", str(fixture_run), "--static", str(tmp_path / "site")]) == 0
    assert (tmp_path / "site" / "index.html").is_file()
    index = (tmp_path / "site" / "data" / "index.js").read_text()
    assert index.count("\n") - 2 == sum(1 for line in (fixture_run / "grades.jsonl").read_text().splitlines() if line.strip())
    assert "static viewer:" in capsys.readouterr().out
    assert main(["view", str(fixture_run), "--static", str(fixture_run / "site")]) == 2  # never into a run folder
    assert not (fixture_run / "site").exists()
