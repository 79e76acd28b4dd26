"""``run --batch``: vendor batches at half price, journaled so a killed run resumes its batches, never re-submits.

Every fake keeps its batches in memory in the test process, holds each batch
in progress until the test finishes it, and the tests wait on what the fake
has seen (a poll), never on time.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from run_helpers import complete_lines, make_task, read_records

from execstate.cli._run import format_summary
from execstate.records import write_jsonl
from execstate.run import Setting, SettingAborted, run_tasks
from execstate.run._batch import BatchCounts, run_batched
from execstate.run._journal import JOURNAL_NAME, custom_id, open_journal
from execstate.run._progress import RunProgress
from execstate.run._store import open_store
from execstate.run.providers import provider_entry
from execstate.run.providers.anthropic_batch import ANTHROPIC_BATCH
from execstate.run.providers.openai import classify_response
from execstate.run.providers.openai_batch import openai_line_attempt
from execstate.testing.fake_batch import FakeAnthropicBatch, FakeOpenAIBatch

N_TASKS = 6
KEY_ENV = "EXECSTATE_TEST_BATCH_KEY"
_MARK = re.compile(r"print\('T(\d+)'\)")


def _index(body: dict[str, Any]) -> int:
    m = _MARK.search(json.dumps(body))
    assert m, body
    return int(m.group(1))


def _answer(body: dict[str, Any]) -> str:
    return json.dumps({"output": str(_index(body))})


def _task_id(i: int) -> str:
    return make_task(i).task_id


@dataclass(frozen=True)
class Vendor:
    provider: str
    key: str
    model: str
    live_path: str

    def fake(self, **kw: Any) -> FakeOpenAIBatch | FakeAnthropicBatch:
        if self.provider == "openai":
            return FakeOpenAIBatch(key=self.key, answer=_answer, **kw)
        return FakeAnthropicBatch(key=self.key, answer=_answer, models=(self.model,), **kw)

    def live(self, fake: Any) -> list[Any]:
        """The live requests the fake received."""
        return [r for r in fake.seen("POST", self.live_path) if r.path == self.live_path]

    def base_url(self, fake: Any) -> str:
        return fake.url + "/v1" if self.provider == "openai" else fake.url

    def setting(self, fake: Any, **over: Any) -> Setting:
        fields: dict[str, Any] = dict(
            name="b",
            provider=self.provider,
            base_url=self.base_url(fake),
            model=self.model,
            api_key_env=KEY_ENV,
            batch_poll_s=0.005,
            max_attempts=3,
            backoff_initial_s=0.001,
            backoff_max_s=0.01,
        )
        fields.update(over)
        return Setting.model_validate(fields)


VENDORS = [
    Vendor("openai", "sk-test-batch", "m", "/v1/chat/completions"),
    Vendor("anthropic", "sk-ant-test-batch", "claude-test", "/v1/messages"),
]


@pytest.fixture(params=VENDORS, ids=[v.provider for v in VENDORS])
def vendor(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Vendor:
    v: Vendor = request.param
    monkeypatch.setenv(KEY_ENV, v.key)
    return v


def _events(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / JOURNAL_NAME).read_text().splitlines() if line.strip()]


def _expire_tasks(*indices: int) -> Any:
    """A fake's selection: the requests of these tasks."""
    return lambda cid, body: _index(body) in indices


# -- kill while polling, resume ----------------------------------------------------------------------


def _cli(tmp_path: Path, vendor: Vendor, fake: Any, *extra: str) -> tuple[list[str], Path]:
    tasks = tmp_path / "tasks.jsonl"
    write_jsonl(tasks, [make_task(i) for i in range(N_TASKS)])
    settings = tmp_path / "settings.toml"
    settings.write_text(
        f'[[setting]]\nname = "b"\nprovider = "{vendor.provider}"\nbase_url = "{vendor.base_url(fake)}"\n'
        f'model = "{vendor.model}"\napi_key_env = "{KEY_ENV}"\nbatch_poll_s = 0.005\nmax_attempts = 3\n'
        "backoff_initial_s = 0.001\nbackoff_max_s = 0.01\n"
    )
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "execstate", "run", "--batch", "--tasks", str(tasks), "--settings", str(settings)]
    return [*cmd, "--out", str(out), *extra], out


def test_sigkill_while_polling_resumes_the_batch_and_resends_expired_cells(tmp_path: Path, vendor: Vendor) -> None:
    with vendor.fake() as fake:
        cmd, out = _cli(tmp_path, vendor, fake)
        env = {**os.environ, KEY_ENV: vendor.key}

        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            fake.wait_for_poll(count=1, timeout=60)
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
        [first] = fake.created
        [submitted] = _events(out)  # journaled before the first poll, and nothing closed
        assert submitted["event"] == "submitted" and submitted["batch_id"] == first
        assert sorted(map(tuple, submitted["cells"])) == sorted((_task_id(i), 0) for i in range(N_TASKS))
        assert complete_lines(out / "responses.jsonl") == 0

        ids = {tuple(cell): cid for cell, cid in zip(submitted["cells"], submitted["custom_ids"])}
        expired = {ids[(_task_id(1), 0)], ids[(_task_id(4), 0)]}
        fake.finish(first, expire=expired)
        fake.hold = False  # the re-send batch ends at its first poll

        done = subprocess.run(cmd, env=env, capture_output=True, timeout=120)
        assert done.returncode == 0, done.stderr.decode()

    records = read_records(out)
    cells = Counter((r.task_id, r.setting, r.sample) for r in records)
    assert len(records) == N_TASKS and set(cells.values()) == {1}
    assert {r.task_id for r in records} == {_task_id(i) for i in range(N_TASKS)}
    assert len(fake.creates()) == 2  # the first batch once (resumed, not re-created), then the re-send batch
    first, second = fake.created
    assert set(fake.batch_requests(second)) == expired
    for r in records:
        i = int(r.task_id[1:].split("/")[0])
        assert r.status == "completed" and json.loads(r.text or "") == {"output": str(i)}
        assert r.provider == vendor.provider and r.model == vendor.model
        if i in (1, 4):
            assert r.batch_id == second and r.attempts == 2
            assert len(r.errors) == 1 and r.errors[0].startswith(f"attempt 1: batch {first}: ")
            assert "expired" in r.errors[0]
        else:
            assert r.batch_id == first and r.attempts == 1 and r.errors == []
    events = _events(out)
    assert [e["batch_id"] for e in events if e["event"] == "submitted"] == [first, second]
    assert {e["batch_id"] for e in events if e["event"] == "closed"} == {first, second}
    [closed_first] = [e for e in events if e["event"] == "closed" and e["batch_id"] == first]
    assert closed_first["counts"] == {"completed": N_TASKS - 2, "resend": 2}
    assert {(t, k) for t, k, _ in closed_first["resend"]} == {(_task_id(1), 0), (_task_id(4), 0)}
    stdout = done.stdout.decode()
    assert "b: batches: 1 submitted (2 cells), 1 resumed, 2 cells re-sent" in stdout
    assert f"{N_TASKS} cells planned, 0 already recorded, {N_TASKS} recorded now, 0 missing" in stdout


def test_ctrl_c_while_polling_leaves_the_batch_open_for_the_next_run(tmp_path: Path, vendor: Vendor) -> None:
    with vendor.fake() as fake:
        cmd, out = _cli(tmp_path, vendor, fake)
        env = {**os.environ, KEY_ENV: vendor.key}
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            fake.wait_for_poll(count=1, timeout=60)
        finally:
            proc.send_signal(signal.SIGINT)
            stdout, stderr = proc.communicate(timeout=30)
        assert proc.returncode == 130, stderr.decode()
        assert b"Traceback" not in stderr and b"re-run the same command to resume" in stdout
        assert [e["event"] for e in _events(out)] == ["submitted"]
        fake.finish(fake.created[0])
        done = subprocess.run(cmd, env=env, capture_output=True, timeout=120)
        assert done.returncode == 0, done.stderr.decode()
    assert len(fake.creates()) == 1 and len(read_records(out)) == N_TASKS


def test_a_rerun_without_batch_still_resumes_the_open_batch_and_sends_the_rest_live(
    tmp_path: Path, vendor: Vendor
) -> None:
    with vendor.fake() as fake:
        cmd, out = _cli(tmp_path, vendor, fake)
        env = {**os.environ, KEY_ENV: vendor.key}
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            fake.wait_for_poll(count=1, timeout=60)
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
        [first] = fake.created
        fake.finish(first, expire=_expire_tasks(2))
        live_cmd = [a for a in cmd if a != "--batch"]
        done = subprocess.run(live_cmd, env=env, capture_output=True, timeout=120)
        assert done.returncode == 0, done.stderr.decode()
        live = vendor.live(fake)
    assert len(fake.creates()) == 1 and [_index(json.loads(r.body)) for r in live] == [2]
    records = {r.task_id: r for r in read_records(out)}
    assert len(records) == N_TASKS
    assert {t for t, r in records.items() if r.batch_id is None} == {_task_id(2)}
    assert all(r.batch_id == first for t, r in records.items() if t != _task_id(2))
    assert [e["event"] for e in _events(out)] == ["submitted", "closed"]


# -- fallback, give-up, counts --------------------------------------------------------------------------


def test_fallback_live_answers_expired_cells_live(tmp_path: Path, vendor: Vendor) -> None:
    with vendor.fake(hold=False) as fake:
        fake.auto_expire = _expire_tasks(0, 3)
        s = vendor.setting(fake)
        summary = run_tasks(
            [make_task(i) for i in range(N_TASKS)], [s], tmp_path, batch=True, batch_fallback="live", progress=False
        )
        live = vendor.live(fake)
    assert summary.ok, summary
    assert len(fake.creates()) == 1 and len(live) == 2
    assert sorted(_index(json.loads(r.body)) for r in live) == [0, 3]
    [batch_id] = fake.created
    records = {r.task_id: r for r in read_records(tmp_path)}
    assert len(records) == N_TASKS
    for i in range(N_TASKS):
        r = records[_task_id(i)]
        assert r.status == "completed" and json.loads(r.text or "") == {"output": str(i)}
        if i in (0, 3):
            assert r.batch_id is None and r.attempts == 2 and r.latency_s is not None
            assert r.errors[0].startswith(f"attempt 1: batch {batch_id}: ") and "expired" in r.errors[0]
        else:
            assert r.batch_id == batch_id and r.attempts == 1
    assert summary.batches["b"] == BatchCounts(submitted=1, resumed=0, resent=2, cells=N_TASKS, live=2)
    assert [e["event"] for e in _events(tmp_path)] == ["submitted", "closed"]


def test_cells_that_keep_expiring_give_up_after_max_attempts(tmp_path: Path, vendor: Vendor) -> None:
    with vendor.fake(hold=False) as fake:
        fake.auto_expire = _expire_tasks(2)
        s = vendor.setting(fake, max_attempts=2)
        summary = run_tasks([make_task(i) for i in range(3)], [s], tmp_path, batch=True, progress=False)
    assert summary.ok  # every cell has its record: the given-up one is a no-response
    assert len(fake.creates()) == 2
    first, second = fake.created
    given_up = {r.task_id: r for r in read_records(tmp_path)}[_task_id(2)]
    assert given_up.status == "no-response" and given_up.text is None
    assert given_up.batch_id == second and given_up.attempts == 2
    assert [e.split(":")[0] + ":" + e.split(":")[1] for e in given_up.errors] == [
        f"attempt 1: batch {first}",
        f"attempt 2: batch {second}",
    ]
    assert summary.recorded["b"]["no-response"] == 1 and summary.recorded["b"]["retry"] == 1


def test_summary_counts_chunks_and_settings_without_a_batch_api(tmp_path: Path) -> None:
    vendor = VENDORS[0]
    os.environ[KEY_ENV] = vendor.key
    try:
        with vendor.fake(hold=False) as fake:
            fake.auto_expire = lambda cid, body: _index(body) == 5 and len(fake.created) <= 2
            s = vendor.setting(fake, batch_max_requests=4)
            oracle = Setting(name="check", provider="oracle")
            tasks = [make_task(i, oracle=str(i)) for i in range(N_TASKS)]
            summary = run_tasks(tasks, [s, oracle], tmp_path, batch=True, progress=False)
    finally:
        del os.environ[KEY_ENV]
    assert summary.ok and summary.new_records == 2 * N_TASKS
    assert summary.batches == {"b": BatchCounts(submitted=3, resumed=0, resent=1, cells=N_TASKS + 1)}
    assert summary.recorded["b"] == Counter({"completed": N_TASKS, "retry": 1})
    assert summary.recorded["check"]["completed"] == N_TASKS  # sent live
    assert summary.notes == ["check: provider 'oracle' has no batch API; its cells were sent live"]
    text = format_summary(summary)
    assert "b: batches: 3 submitted (7 cells), 0 resumed, 1 cells re-sent" in text
    assert "check: provider 'oracle' has no batch API" in text
    assert [len(fake.batch_requests(b)) for b in fake.created] == [4, 2, 1]


def test_batch_true_in_the_setting_batches_without_the_flag(tmp_path: Path, vendor: Vendor) -> None:
    with vendor.fake(hold=False) as fake:
        s = vendor.setting(fake, batch=True)
        summary = run_tasks([make_task(i) for i in range(3)], [s], tmp_path, progress=False)
    assert summary.ok and len(fake.created) == 1
    assert not vendor.live(fake)
    assert {r.batch_id for r in read_records(tmp_path)} == {fake.created[0]}


def test_progress_shows_submitted_in_progress_and_done(tmp_path: Path, vendor: Vendor) -> None:
    async def go(fake: Any) -> tuple[BatchCounts, str]:
        s = vendor.setting(fake)
        provider, _ = await provider_entry(s.provider).open(s)
        journal, state = open_journal(tmp_path / JOURNAL_NAME)
        store, _, _ = open_store(tmp_path / "responses.jsonl")
        cells = [(make_task(i), 0) for i in range(4)]
        progress = RunProgress(True)
        progress.add("b", len(cells))
        try:
            with progress:
                counts = await run_batched(
                    s, cells, provider=provider, journal=journal, state=state, store=store, progress=progress
                )
        finally:
            await provider.aclose()
            journal.close()
            store.close()
        bars = progress._progress
        assert bars is not None
        return counts, bars.tasks[0].description

    with vendor.fake(hold=False) as fake:
        counts, label = asyncio.run(go(fake))
    assert counts == BatchCounts(submitted=1, cells=4)
    assert label == "b [batch: 4 submitted, 0 in progress, 4 done]"
    assert len(read_records(tmp_path)) == 4


def test_a_refused_key_while_polling_stops_the_setting(tmp_path: Path, vendor: Vendor) -> None:
    async def go(fake: Any) -> None:
        s = vendor.setting(fake)
        provider, _ = await provider_entry(s.provider).open(s)
        journal, state = open_journal(tmp_path / JOURNAL_NAME)
        store, _, _ = open_store(tmp_path / "responses.jsonl")
        try:
            work = asyncio.ensure_future(
                run_batched(s, [(make_task(0), 0)], provider=provider, journal=journal, state=state, store=store)
            )
            await asyncio.to_thread(fake.wait_for_poll)
            fake.key = "rotated"
            with pytest.raises(SettingAborted, match=r"HTTP 401"):
                await work
        finally:
            await provider.aclose()
            journal.close()
            store.close()

    with vendor.fake() as fake:
        asyncio.run(go(fake))
    [event] = _events(tmp_path)  # still open: a re-run with a good key resumes it
    assert event["event"] == "submitted"


def test_batch_answers_go_to_the_cache_and_cached_cells_are_not_sent(tmp_path: Path, vendor: Vendor) -> None:
    from execstate.run._cache import ResponseCache

    tasks = [make_task(i) for i in range(4)]
    with vendor.fake(hold=False) as fake:
        s = vendor.setting(fake)
        first = run_tasks(tasks, [s], tmp_path / "a", batch=True, progress=False, cache=tmp_path / "cache")
        again = run_tasks(
            tasks + [make_task(9)],
            [s],
            tmp_path / "b",
            batch=True,
            progress=False,
            cache=ResponseCache(tmp_path / "cache"),
        )
    assert first.ok and again.ok
    assert again.cached == {"b": 4}
    assert len(fake.created) == 2 and list(fake.batch_requests(fake.created[1])) == [custom_id(_task_id(9), 0)]
    records = {r.task_id: r for r in read_records(tmp_path / "b")}
    assert all(records[_task_id(i)].cached for i in range(4))
    assert records[_task_id(9)].batch_id == fake.created[1] and not records[_task_id(9)].cached


# -- a batch cell is recorded as live would record it ----------------------------------------------------

_TIMING = {"batch_id", "latency_s", "started_at", "finished_at", "request_id"}  # a live answer's request-id header


def test_a_batch_cell_records_what_a_live_run_records(tmp_path: Path, vendor: Vendor) -> None:
    tasks = [make_task(i) for i in range(3)]
    with vendor.fake(hold=False) as fake:
        s = vendor.setting(fake)
        assert run_tasks(tasks, [s], tmp_path / "live", progress=False).ok
        assert run_tasks(tasks, [s], tmp_path / "batch", batch=True, progress=False).ok
    live = {r.task_id: r for r in read_records(tmp_path / "live")}
    batched = {r.task_id: r for r in read_records(tmp_path / "batch")}
    assert set(live) == set(batched)
    for task_id, rec in batched.items():
        assert rec.batch_id == fake.created[0] and live[task_id].batch_id is None
        assert rec.model_dump(exclude=_TIMING) == live[task_id].model_dump(exclude=_TIMING)
        assert rec.usage.prompt_tokens is not None


def test_openai_result_lines_are_classified_like_live_responses() -> None:
    body = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi \ud83d"}, "finish_reason": "length"}],
        "usage": {"prompt_tokens": 3, "completion_tokens": 2, "completion_tokens_details": {"reasoning_tokens": 1}},
    }
    raw = json.dumps(body).encode()
    line = {"id": "r", "custom_id": "c1", "response": {"status_code": 200, "request_id": "q", "body": body}}
    assert openai_line_attempt(line) == classify_response(200, {}, raw)
    assert openai_line_attempt(line).text == "hi \ufffd"
    for status, kind in ((429, "retry"), (500, "retry"), (400, "final"), (401, "abort")):
        failed = {"custom_id": "c1", "response": {"status_code": status, "body": {"error": {"message": "m"}}}}
        assert openai_line_attempt(failed).kind == kind
    expired = {"custom_id": "c1", "response": None, "error": {"code": "batch_expired", "message": "too late"}}
    assert openai_line_attempt(expired).kind == "retry"
    timeout = {"custom_id": "c1", "response": None, "error": {"code": "request_timeout", "message": "slow"}}
    assert openai_line_attempt(timeout).kind == "timeout"


def test_anthropic_results_are_classified_like_live_responses() -> None:
    def errored(kind: str) -> dict[str, Any]:
        return {"type": "errored", "error": {"type": "error", "error": {"type": kind, "message": "m"}}}

    assert ANTHROPIC_BATCH.result_attempt(errored("overloaded_error")).kind == "retry"
    assert ANTHROPIC_BATCH.result_attempt(errored("api_error")).kind == "retry"
    refused = ANTHROPIC_BATCH.result_attempt(errored("invalid_request_error"))
    assert refused.kind == "final" and "invalid_request_error: m" in (refused.error or "")
    assert ANTHROPIC_BATCH.result_attempt({"type": "expired"}).kind == "retry"
    assert ANTHROPIC_BATCH.result_attempt({"type": "canceled"}).kind == "retry"
    message = {"type": "message", "content": [{"type": "text", "text": "ok"}], "stop_reason": "end_turn"}
    ok = ANTHROPIC_BATCH.result_attempt({"type": "succeeded", "message": message})
    assert ok.kind == "completed" and ok.text == "ok" and ok.finish_reason == "stop"


# -- the journal and custom ids -------------------------------------------------------------------------


def test_custom_ids_fit_anthropic_and_are_distinct() -> None:
    ids = {custom_id(f"t{i}/" + "x" * 300, k) for i in range(500) for k in range(3)}
    assert len(ids) == 1500
    assert all(re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", i) for i in ids)


def test_a_torn_last_journal_line_is_cut_off(tmp_path: Path) -> None:
    path = tmp_path / JOURNAL_NAME
    good = json.dumps(
        {
            "event": "submitted",
            "setting": "b",
            "provider": "openai",
            "batch_id": "B1",
            "cells": [["t0", 0]],
            "custom_ids": ["c0"],
            "at": "x",
        }
    )
    path.write_bytes(good.encode() + b"\n" + b'{"event":"closed","batch_')
    journal, state = open_journal(path)
    journal.close()
    assert state.repair is not None and state.repair.offset == len(good) + 1
    assert path.read_bytes() == good.encode() + b"\n"
    assert list(state.open) == [("b", "B1")] and state.rounds[("t0", "b", 0)] == 1
    assert state.repair.saved_to.read_bytes() == b'{"event":"closed","batch_'


def test_a_batch_whose_cells_are_all_recorded_is_closed_at_start(tmp_path: Path, vendor: Vendor) -> None:
    """A kill after the results were written but before "closed": the next run closes it without polling."""
    with vendor.fake(hold=False) as fake:
        s = vendor.setting(fake)
        assert run_tasks([make_task(0)], [s], tmp_path, batch=True, progress=False).ok
        events = _events(tmp_path)
        (tmp_path / JOURNAL_NAME).write_text(json.dumps(events[0]) + "\n")  # as if killed before "closed"
        polls = len(fake.polls())
        summary = run_tasks([make_task(0)], [s], tmp_path, batch=True, progress=False)
        assert len(fake.polls()) == polls
    assert summary.ok and summary.already_recorded == 1
    assert [e["event"] for e in _events(tmp_path)] == ["submitted", "closed"]
    assert len(read_records(tmp_path)) == 1
