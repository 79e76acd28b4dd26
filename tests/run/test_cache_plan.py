"""The response cache across runs (``run --cache``) and the plan before spending (``run --plan``)."""

from __future__ import annotations

import json
import socket
import subprocess
from pathlib import Path

import pytest
from run_helpers import cli_command, fast_setting, make_task, read_records, task_index

from execstate.records import RUN_MANIFEST_NAME, RunManifest
from execstate.run import CacheWarning, ResponseCache, format_plan, plan_tasks, run_tasks
from execstate.testing.loopback import Reply, Request, ScriptedServer, completion


def _answer(req: Request) -> Reply:
    i = task_index(req)
    usage = {"prompt_tokens": 100 + i, "completion_tokens": 7, "completion_tokens_details": {"reasoning_tokens": 3}}
    return Reply(body=completion(json.dumps({"output": str(i)}), usage=usage))


def test_a_second_run_over_the_same_tasks_sends_nothing(tmp_path: Path) -> None:
    server = ScriptedServer(_answer).start()
    tasks = [make_task(i) for i in range(6)]
    setting = fast_setting(server.url)
    cache = tmp_path / "cache"
    first = run_tasks(tasks, [setting], tmp_path / "a", samples=2, cache=cache, progress=False)
    assert first.ok and len(server.requests) == 12 and first.cached == {"s": 0}
    server.stop()  # any request of the second run, the endpoint check included, would now fail

    second = run_tasks(tasks, [setting], tmp_path / "b", samples=2, cache=cache, progress=False)
    assert second.ok and second.cached == {"s": 12} and second.new_records == 12
    before = {(r.task_id, r.sample): r for r in read_records(tmp_path / "a")}
    after = read_records(tmp_path / "b")
    assert len(after) == 12 and all(r.cached and r.attempts == 0 for r in after)
    for r in after:  # the original answer and usage, under this run's setting name
        assert (r.text, r.usage) == (before[(r.task_id, r.sample)].text, before[(r.task_id, r.sample)].usage)
    assert not any(r.cached for r in before.values())
    manifest = RunManifest.model_validate_json((tmp_path / "b" / RUN_MANIFEST_NAME).read_text())
    assert manifest.invocations[-1].cached == {"s": 12}


def test_a_new_study_sends_only_its_cells(serve, tmp_path: Path) -> None:
    server = serve(_answer)
    old = [make_task(i) for i in range(5)]
    new = [make_task(i) for i in range(100, 104)]
    setting = fast_setting(server.url)
    run_tasks(old, [setting], tmp_path / "a", cache=tmp_path / "c", progress=False)
    assert len(server.requests) == 5
    summary = run_tasks(old + new, [setting], tmp_path / "b", cache=tmp_path / "c", progress=False)
    sent = server.requests[5:]
    assert sorted(task_index(r) for r in sent) == [100, 101, 102, 103]
    assert summary.cached == {"s": 5} and summary.ok
    assert {r.task_id for r in read_records(tmp_path / "b") if not r.cached} == {t.task_id for t in new}


def test_changed_request_misses_and_no_response_is_not_cached(serve, tmp_path: Path) -> None:
    calls = {"n": 0}

    def script(req: Request) -> Reply:
        calls["n"] += 1
        if task_index(req) == 1:
            return Reply(status=400, body={"error": {"message": "bad"}})
        return _answer(req)

    server = serve(script)
    tasks = [make_task(0), make_task(1)]
    run_tasks(tasks, [fast_setting(server.url)], tmp_path / "a", cache=tmp_path / "c", progress=False)
    # the no-response of task 1 was not kept; another temperature is another request
    again = run_tasks(tasks, [fast_setting(server.url)], tmp_path / "b", cache=tmp_path / "c", progress=False)
    assert again.cached == {"s": 1}
    warmer = run_tasks(
        tasks, [fast_setting(server.url, temperature=0.5)], tmp_path / "d", cache=tmp_path / "c", progress=False
    )
    assert warmer.cached == {"s": 0}


def test_a_corrupt_entry_is_ignored_with_a_warning(serve, tmp_path: Path) -> None:
    server = serve(_answer)
    tasks = [make_task(i) for i in range(3)]
    setting = fast_setting(server.url)
    run_tasks(tasks, [setting], tmp_path / "a", cache=tmp_path / "c", progress=False)
    entries = sorted((tmp_path / "c").rglob("*.json"))
    assert len(entries) == 3
    entries[0].write_text('{"format": 1, "key": "tru')
    with pytest.warns(CacheWarning, match="ignored"):
        summary = run_tasks(tasks, [setting], tmp_path / "b", cache=tmp_path / "c", progress=False)
    assert summary.cached == {"s": 2} and len(server.requests) == 4 and summary.ok
    assert ResponseCache(tmp_path / "c").has(entries[0].stem)  # re-written by the answer sent again


def _settings_file(tmp_path: Path, port: int) -> Path:
    path = tmp_path / "settings.toml"
    path.write_text(
        f"""
[[setting]]
name = "gpt"
provider = "openai"
base_url = "http://127.0.0.1:{port}/v1"
model = "m"
api_key_env = "EXECSTATE_TEST_NO_SUCH_KEY"
max_output_tokens = 1000
price_input_per_mtok = 2.0
price_output_per_mtok = 8.0

[[setting]]
name = "claude"
provider = "anthropic"
base_url = "http://127.0.0.1:{port}"
model = "claude-x"
api_key_env = "EXECSTATE_TEST_NO_SUCH_KEY"
reasoning = "low"
price_input_per_mtok = 3.0
price_output_per_mtok = 15.0

[[setting]]
name = "check"
provider = "oracle"
"""
    )
    return path


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_plan_opens_no_connection(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the plan opened a connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    tasks = [make_task(i) for i in range(10)]
    rows = plan_tasks(tasks, _settings_file(tmp_path, _closed_port()), tmp_path / "out", samples=2)
    by = {r.setting: r for r in rows}
    gpt, claude, check = by["gpt"], by["claude"], by["check"]
    assert (gpt.planned, gpt.to_send, gpt.requests, gpt.max_output_tokens) == (20, 20, 20, 1000)
    assert gpt.input_tokens_est > 0 and gpt.cost_low is not None and gpt.cost_high is not None
    assert gpt.cost_high == pytest.approx(gpt.cost_low + 20 * 1000 * 8.0 / 1e6)
    # anthropic always sends max_tokens: the plan reads the cap from the request body
    assert claude.max_output_tokens is not None and claude.max_output_tokens > 4096
    assert (check.requests, check.cost_low) == (0, 0.0)
    batched = {r.setting: r for r in plan_tasks(tasks, _settings_file(tmp_path, 1), None, samples=2, batch=True)}
    # openai and anthropic have a batch form: one request per batch of cells, at half the price
    assert batched["gpt"].batch and batched["gpt"].requests == 1
    assert batched["gpt"].cost_high == pytest.approx(gpt.cost_high / 2)
    assert batched["claude"].batch and batched["claude"].cost_low == pytest.approx(claude.cost_low / 2)
    assert not batched["check"].batch  # the oracle has none: it is planned live


def test_plan_counts_recorded_and_cached_cells(serve, tmp_path: Path) -> None:
    server = serve(_answer)
    tasks = [make_task(i) for i in range(4)]
    setting = fast_setting(server.url, price_input_per_mtok=1.0, price_output_per_mtok=1.0, max_output_tokens=10)
    run_tasks(tasks[:2], [setting], tmp_path / "a", cache=tmp_path / "c", progress=False)
    (row,) = plan_tasks(tasks, [setting], tmp_path / "new", cache=tmp_path / "c")
    assert (row.planned, row.recorded, row.cached, row.to_send) == (4, 0, 2, 2)
    assert row.cost_high == pytest.approx(row.cost_low + 2 * 10 / 1e6)
    (row,) = plan_tasks(tasks[:2], [setting], tmp_path / "a", cache=tmp_path / "c")
    assert (row.planned, row.recorded, row.to_send) == (2, 2, 0)
    assert "cost high" in format_plan([row]) and "estimated" in format_plan([row])


def test_cli_plan_prints_the_table_without_a_server(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("".join(make_task(i).to_json_line() + "\n" for i in range(3)))
    done = subprocess.run(
        cli_command(
            "run", "--plan", "--tasks", str(tasks), "--settings", str(_settings_file(tmp_path, _closed_port())),
            "--out", str(tmp_path / "out"),
        ),
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split()[:3] == ["setting", "provider", "mode"]
    assert [line.split()[0] for line in lines[1:4]] == ["gpt", "claude", "check"]
    assert "nothing was sent" in lines[-1]
    assert not (tmp_path / "out" / "responses.jsonl").exists()
