"""run_tasks end to end: offline providers, resume bookkeeping, the manifest, and what is never written."""

from __future__ import annotations

import fcntl
import json
import socket
from pathlib import Path

import pytest
from run_helpers import answer, fast_setting, make_task, read_records, task_index

from execstate.errors import InputFileError, RecordError, UsageError
from execstate.records import write_jsonl
from execstate.run import RunManifest, Setting, SettingsError, StoreError, run_tasks
from execstate.testing.loopback import Reply, Request, completion


def _echo(req: Request) -> Reply:
    return Reply(body=completion(answer(task_index(req))))


def test_oracle_answers_with_the_oracle_and_flags_every_record(tmp_path: Path) -> None:
    tasks = [make_task(i, oracle=f"line {i}\n") for i in range(5)]
    summary = run_tasks(tasks, [Setting(name="check", provider="oracle")], tmp_path, progress=False)
    records = read_records(tmp_path)
    assert summary.ok and len(records) == 5
    assert all(r.pipeline_check and r.status == "completed" and r.provider == "oracle" for r in records)
    # the oracle without its final newline: the exact answer under every rule (SPEC 9)
    assert [json.loads(r.text or "") for r in records] == [{"output": f"line {i}"} for i in range(5)]


def test_replay_answers_from_file_and_missing_task_is_no_response(tmp_path: Path) -> None:
    replay = tmp_path / "answers.jsonl"
    replay.write_text(
        '{"task_id": "t0/short-trace-final", "text": "A0"}\n'
        '{"task_id": "t1/short-trace-final", "sample": 1, "text": "A1s1", "extra": 1}\n'
    )
    s = Setting(name="again", provider="replay", replay_file=str(replay))
    run_tasks([make_task(0), make_task(1)], [s], tmp_path / "out", samples=2, progress=False)
    got = {(r.task_id, r.sample): (r.status, r.text) for r in read_records(tmp_path / "out")}
    assert got[("t0/short-trace-final", 0)] == got[("t0/short-trace-final", 1)] == ("completed", "A0")
    assert got[("t1/short-trace-final", 1)] == ("completed", "A1s1")
    assert got[("t1/short-trace-final", 0)] == ("no-response", None)
    [missing] = [r for r in read_records(tmp_path / "out") if r.status == "no-response"]
    assert "has no entry for task t1/short-trace-final sample 0" in missing.errors[0]
    assert not missing.pipeline_check


def test_replay_file_errors_are_reported_at_start(tmp_path: Path) -> None:
    replay = tmp_path / "answers.jsonl"
    replay.write_text('{"task_id": "t0/short-trace-final"}\n')
    s = Setting(name="again", provider="replay", replay_file=str(replay))
    with pytest.raises(SettingsError, match=r"answers.jsonl:1: need a JSON object with task_id and text"):
        run_tasks([make_task(0)], [s], tmp_path / "out", progress=False)


def test_rerun_resumes_without_sending_recorded_cells(serve, tmp_path: Path) -> None:
    server = serve(_echo)
    tasks = [make_task(i) for i in range(6)]
    first = run_tasks(tasks, [fast_setting(server.url)], tmp_path, limit=4, progress=False)
    assert (first.planned, first.new_records) == (4, 4) and len(server.requests) == 4
    before = (tmp_path / "responses.jsonl").read_bytes()
    second = run_tasks(tasks, [fast_setting(server.url)], tmp_path, samples=2, progress=False)
    assert (second.planned, second.already_recorded, second.new_records) == (12, 4, 8)
    assert len(server.requests) == 12
    assert (tmp_path / "responses.jsonl").read_bytes().startswith(before)
    cells = [(r.task_id, r.setting, r.sample) for r in read_records(tmp_path)]
    assert len(cells) == len(set(cells)) == 12
    third = run_tasks(tasks, [fast_setting(server.url)], tmp_path, samples=2, progress=False)
    assert third.new_records == 0 and len(server.requests) == 12


def test_setting_selection(serve, tmp_path: Path) -> None:
    server = serve(_echo)
    settings = [fast_setting(server.url, name="a"), Setting(name="b", provider="oracle")]
    run_tasks([make_task(0)], settings, tmp_path, setting="b", progress=False)
    assert [r.setting for r in read_records(tmp_path)] == ["b"] and not server.requests
    with pytest.raises(SettingsError, match=r"no setting named 'c'. Fix: pass one of a, b "):
        run_tasks([make_task(0)], settings, tmp_path, setting="c", progress=False)


def test_api_key_is_sent_but_never_written(serve, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    key = "sk-test-DO-NOT-STORE-8f3a"
    monkeypatch.setenv("EXECSTATE_TEST_KEY", key)
    # The server echoes the Authorization header back in errors and answers, the worst case.
    calls: list[int] = []

    def script(req: Request) -> Reply:
        calls.append(1)
        auth = req.headers.get("authorization", "")
        if len(calls) == 1:
            return Reply(500, f"bad header {auth}".encode())
        return Reply(body=completion(answer(task_index(req))))

    server = serve(script)
    s = fast_setting(server.url, api_key_env="EXECSTATE_TEST_KEY", concurrency=1)
    run_tasks([make_task(0), make_task(1)], [s], tmp_path, progress=False)
    assert server.requests[0].headers["authorization"] == f"Bearer {key}"
    records = read_records(tmp_path)
    assert records[0].errors == ["attempt 1: HTTP 500: bad header Bearer ***"]
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert key.encode() not in path.read_bytes(), path
    manifest = RunManifest.model_validate_json((tmp_path / "run_manifest.json").read_text())
    assert manifest.settings["s"]["api_key_env"] == "EXECSTATE_TEST_KEY"


def test_manifest_records_settings_tasks_hash_and_versions(tmp_path: Path) -> None:
    tasks_file = tmp_path / "tasks.jsonl"
    write_jsonl(tasks_file, [make_task(i) for i in range(3)])
    run_tasks(tasks_file, [Setting(name="check", provider="oracle")], tmp_path / "out", progress=False)
    m = RunManifest.model_validate_json((tmp_path / "out" / "run_manifest.json").read_text())
    import hashlib
    import platform

    assert m.tasks_sha256 == hashlib.sha256(tasks_file.read_bytes()).hexdigest() and m.tasks == 3
    assert m.tasks_file == str(tasks_file) and m.settings["check"]["provider"] == "oracle"
    assert m.invocations[0].python == platform.python_version() and m.invocations[0].samples == 1
    # In-memory tasks hash to the same value as the canonical file.
    run_tasks(
        [make_task(i) for i in range(3)], [Setting(name="check", provider="oracle")], tmp_path / "out", progress=False
    )
    m2 = RunManifest.model_validate_json((tmp_path / "out" / "run_manifest.json").read_text())
    assert m2.tasks_sha256 == m.tasks_sha256 and len(m2.invocations) == 2


def test_resume_refuses_other_tasks_or_a_changed_setting(tmp_path: Path) -> None:
    oracle = Setting(name="check", provider="oracle")
    run_tasks([make_task(0)], [oracle], tmp_path, progress=False)
    with pytest.raises(SettingsError, match="use a new --out directory"):
        run_tasks([make_task(0, oracle="other")], [oracle], tmp_path, progress=False)
    changed = Setting(name="check", provider="replay", replay_file=str(tmp_path / "x.jsonl"))
    with pytest.raises(SettingsError, match=r"setting 'check' changed .*provider"):
        run_tasks([make_task(0)], [changed], tmp_path, progress=False)
    # Operational knobs may change between runs.
    run_tasks([make_task(0)], [Setting(name="check", provider="oracle", concurrency=3)], tmp_path, progress=False)


def test_unreachable_endpoint_fails_at_start_with_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as sock:  # a port that was free a moment ago and now has no listener
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    s = Setting(name="local", base_url=f"http://127.0.0.1:{port}/v1", model="m")
    with pytest.raises(SettingsError, match=rf"setting 'local': endpoint http://127.0.0.1:{port}/v1 is unreachable"):
        run_tasks([make_task(0)], [s], tmp_path, progress=False)
    assert read_records(tmp_path) == []


def test_missing_key_variable_fails_before_any_request(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("EXECSTATE_TEST_ABSENT", raising=False)
    s = Setting(name="hosted", base_url="http://127.0.0.1:9/v1", model="m", api_key_env="EXECSTATE_TEST_ABSENT")
    with pytest.raises(SettingsError, match="EXECSTATE_TEST_ABSENT is not set"):
        run_tasks([make_task(0)], [s], tmp_path, progress=False)


def test_torn_last_line_is_cut_and_kept_aside(tmp_path: Path) -> None:
    oracle = Setting(name="check", provider="oracle")
    run_tasks([make_task(i) for i in range(3)], [oracle], tmp_path, limit=2, progress=False)
    path = tmp_path / "responses.jsonl"
    good = path.read_bytes()
    path.write_bytes(good + b'{"schema_version":1,"task_id":"t2/short-trace-fi')  # a write cut by a crash
    summary = run_tasks([make_task(i) for i in range(3)], [oracle], tmp_path, progress=False)
    assert summary.repair is not None and summary.repair.offset == len(good)
    assert summary.repair.saved_to.read_bytes() == b'{"schema_version":1,"task_id":"t2/short-trace-fi'
    assert path.read_bytes().startswith(good)
    assert [r.task_id for r in read_records(tmp_path)] == [f"t{i}/short-trace-final" for i in range(3)]


def test_damage_before_the_last_line_is_refused(tmp_path: Path) -> None:
    oracle = Setting(name="check", provider="oracle")
    run_tasks([make_task(i) for i in range(2)], [oracle], tmp_path, progress=False)
    path = tmp_path / "responses.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("garbage\n" + "".join(lines))
    with pytest.raises(StoreError, match=r"responses.jsonl:1: not a valid Response record"):
        run_tasks([make_task(i) for i in range(2)], [oracle], tmp_path, progress=False)
    path.write_text("".join(lines + lines[:1]))
    with pytest.raises(StoreError, match="recorded twice"):
        run_tasks([make_task(i) for i in range(2)], [oracle], tmp_path, progress=False)


def test_a_second_concurrent_run_on_one_directory_is_refused(tmp_path: Path) -> None:
    tmp_path.mkdir(exist_ok=True)
    with open(tmp_path / ".run.lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        with pytest.raises(SettingsError, match="another `execstate run` is writing there"):
            run_tasks([make_task(0)], [Setting(name="c", provider="oracle")], tmp_path, progress=False)


def test_bad_arguments(tmp_path: Path) -> None:
    oracle = [Setting(name="check", provider="oracle")]
    with pytest.raises(UsageError, match="samples must be >= 1"):
        run_tasks([make_task(0)], oracle, tmp_path, samples=0)
    with pytest.raises(RecordError, match="task ids must be unique"):
        run_tasks([make_task(0), make_task(0)], oracle, tmp_path)
    with pytest.raises(InputFileError, match="does not exist"):
        run_tasks(tmp_path / "nope.jsonl", oracle, tmp_path)


def test_progress_bars_render_and_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    summary = run_tasks(
        [make_task(i) for i in range(7)], [Setting(name="check", provider="oracle")], tmp_path, progress=True
    )
    assert summary.recorded["check"]["completed"] == 7
    assert "ok 7  no-response 0  retries 0" in capsys.readouterr().err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_failed_write_is_raised_not_swallowed() -> None:
    from execstate.records import Response
    from execstate.run._runner import _Writer
    from execstate.run._store import ResponseStore

    writer = _Writer(ResponseStore(Path("/dev/full")))  # every write fails with ENOSPC
    writer.put(Response(task_id="t", setting="s", status="completed", text="x"))
    with pytest.raises(OSError, match="cannot append to /dev/full: No space left"):
        writer.close()


def test_an_unencodable_record_is_reported_and_the_rest_of_its_batch_is_written(tmp_path: Path) -> None:
    from execstate.records import Response
    from execstate.run._runner import _Writer
    from execstate.run._store import ResponseStore, StoreError

    path = tmp_path / "responses.jsonl"
    writer = _Writer(ResponseStore(path))
    good = [Response(task_id=f"t{i}", setting="s", status="completed", text="ok") for i in range(2)]
    bad = Response(task_id="bad", setting="s", status="completed", text="\ud800")  # lone surrogate
    writer.store.append([good[0]])
    with pytest.raises(StoreError, match=r"1 record\(s\) could not be encoded.*\('bad', 's', 0\)"):
        writer.store.append([bad, good[1]])
    assert [Response.model_validate_json(x).task_id for x in path.read_text().splitlines()] == ["t0", "t1"]
    writer.put(bad)  # through the writer thread: the failure stops the run instead of vanishing
    with pytest.raises(StoreError):
        writer.close()


def test_response_lines_round_trip_exactly() -> None:
    from hypothesis import given
    from hypothesis import strategies as st

    from execstate.records import Response, Usage

    text = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)

    @given(text, st.none() | st.floats(min_value=0, max_value=1e6, allow_nan=False), st.lists(text, max_size=3))
    def check(t: str, latency: float | None, errors: list[str]) -> None:
        rec = Response(
            task_id=t or "x",
            setting="s",
            status="completed",
            text=t,
            latency_s=latency,
            errors=errors,
            usage=Usage(prompt_tokens=3),
        )
        line = rec.to_json_line()
        assert "\n" not in line
        assert Response.model_validate_json(line) == rec
        assert json.loads(line) == json.loads(json.dumps(rec.model_dump(mode="json")))

    check()


def test_benchmark_server_answers_each_request_after_its_latency() -> None:
    import subprocess
    import sys
    import time
    import urllib.request
    from concurrent.futures import ThreadPoolExecutor

    proc = subprocess.Popen(
        [sys.executable, "-m", "execstate.testing.loopback", "--latency", "0.5"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        base = f"http://127.0.0.1:{int(proc.stdout.readline().split()[1])}/v1"
        t0 = time.monotonic()
        with urllib.request.urlopen(base + "/models", timeout=10) as r:
            assert json.loads(r.read())["data"][0]["id"] == "loopback"
        assert time.monotonic() - t0 < 0.5  # /models is not delayed

        def post(i: int) -> tuple[float, str]:
            req = urllib.request.Request(base + "/chat/completions", data=json.dumps({"i": i}).encode())
            start = time.monotonic()
            with urllib.request.urlopen(req, timeout=10) as r:
                body = json.loads(r.read())
            return time.monotonic() - start, body["choices"][0]["message"]["content"]

        t0 = time.monotonic()
        with ThreadPoolExecutor(8) as pool:
            results = list(pool.map(post, range(8)))
        # asyncio runs a timer up to its clock resolution early, so allow 10 ms of the 500
        assert all(took >= 0.49 and text == '{"output":"0"}' for took, text in results), results
        assert time.monotonic() - t0 < 2.0  # concurrent: eight in a row would take 4 s
    finally:
        proc.kill()
        proc.wait()
