"""``run --batch`` on a gemini setting: the Gemini Batch API (batchGenerateContent with inlined requests) against
the loopback fake on 127.0.0.1; same records as live, batch_id set, priced at the batch price."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from run_helpers import answer, make_task, read_records

from execstate.leaderboard._cost import response_cost
from execstate.records import write_jsonl
from execstate.run import Setting, run_tasks
from execstate.run._batch import batch_form
from execstate.run._journal import JOURNAL_NAME
from execstate.run._prompt import render_messages
from execstate.run.providers._wire import BatchHttp
from execstate.run.providers.gemini_batch import GEMINI_BATCH, GeminiBatchApi, result_attempt
from execstate.testing.fake_gemini import FakeGemini, daily_quota

KEY = "AIza-batch-0123456789"
KEY_ENV = "EXECSTATE_TEST_GEMINI_BATCH_KEY"
MODEL = "gemini-2.5-flash"
_MARK = re.compile(r"print\('T(\d+)'\)")
_TIMING = {"batch_id", "latency_s", "started_at", "finished_at", "request_id"}


def _echo(body: dict[str, Any]) -> str:
    m = _MARK.search(json.dumps(body))
    assert m, body
    return answer(int(m.group(1)))


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)


def _fake(**kw: Any) -> FakeGemini:
    return FakeGemini(key=KEY, answer=_echo, **kw)


def _setting(fake: FakeGemini, **over: Any) -> Setting:
    fields: dict[str, Any] = dict(
        name="g",
        provider="gemini",
        base_url=fake.url,
        model=MODEL,
        api_key_env=KEY_ENV,
        reasoning="low",
        batch_poll_s=0.005,
        max_attempts=3,
        backoff_initial_s=0.001,
        backoff_max_s=0.01,
        price_input_per_mtok=0.3,
        price_output_per_mtok=2.5,
    )
    fields.update(over)
    return Setting.model_validate(fields)


def _creates(fake: FakeGemini) -> list[Any]:
    return [r for r in fake.seen("POST", "/v1beta/models/") if r.path.endswith(":batchGenerateContent")]


def _live(fake: FakeGemini) -> list[Any]:
    return [r for r in fake.seen("POST", "/v1beta/models/") if r.path.endswith(":generateContent")]


def test_the_gemini_entry_names_its_batch_form() -> None:
    form = batch_form("gemini")
    assert form is GEMINI_BATCH and form.name == "gemini"
    assert GeminiBatchApi.max_bytes == 20_000_000 and GeminiBatchApi.max_requests > 0
    assert callable(getattr(form, "cancel", None))


def test_run_batch_on_the_command_line_answers_every_cell_through_one_batch(tmp_path: Path) -> None:
    with _fake() as fake:
        tasks = tmp_path / "tasks.jsonl"
        write_jsonl(tasks, [make_task(i) for i in range(5)])
        settings = tmp_path / "settings.toml"
        settings.write_text(
            f'[[setting]]\nname = "g"\nprovider = "gemini"\nbase_url = "{fake.url}"\nmodel = "{MODEL}"\n'
            f'api_key_env = "{KEY_ENV}"\nreasoning = "low"\nbatch_poll_s = 0.005\nmax_attempts = 3\n'
        )
        out = tmp_path / "out"
        cmd = [sys.executable, "-m", "execstate", "run", "--batch", "--tasks", str(tasks), "--settings", str(settings)]
        done = subprocess.run(
            [*cmd, "--out", str(out)], env={**os.environ, KEY_ENV: KEY}, capture_output=True, timeout=120
        )
        assert done.returncode == 0, done.stderr.decode()
        [create] = _creates(fake)
        assert not _live(fake)
    assert create.path == f"/v1beta/models/{MODEL}:batchGenerateContent"
    assert create.headers["x-goog-api-key"] == KEY and not create.query
    body = create.json()
    batch = body["batch"]
    assert batch["display_name"] == "execstate g"
    items = batch["input_config"]["requests"]["requests"]
    assert len(items) == 5 and all(set(item) == {"request", "metadata"} for item in items)
    assert all(item["request"]["generationConfig"]["thinkingConfig"]["thinkingBudget"] == 2048 for item in items)
    records = read_records(out)
    assert sorted(r.text or "" for r in records) == sorted(answer(i) for i in range(5))
    assert {r.batch_id for r in records} == {"batches/fake0000"}
    assert all(r.status == "completed" and r.served_model == MODEL for r in records)
    journal = [json.loads(line) for line in (out / JOURNAL_NAME).read_text().splitlines()]
    assert [e["event"] for e in journal] == ["submitted", "closed"]
    assert sorted(e["custom_ids"] for e in journal[:1])[0] == [i["metadata"]["key"] for i in items]


def test_a_batch_cell_records_what_a_live_run_records_at_half_the_price(tmp_path: Path) -> None:
    tasks = [make_task(i) for i in range(3)]
    with _fake() as fake:
        s = _setting(fake)
        assert run_tasks(tasks, [s], tmp_path / "live", progress=False).ok
        assert run_tasks(tasks, [s], tmp_path / "batch", batch=True, progress=False).ok
    live = {r.task_id: r for r in read_records(tmp_path / "live")}
    batched = {r.task_id: r for r in read_records(tmp_path / "batch")}
    assert set(live) == set(batched) and len(batched) == 3
    prices = {"price_input_per_mtok": 0.3, "price_output_per_mtok": 2.5}
    for task_id, rec in batched.items():
        assert rec.batch_id == "batches/fake0000" and live[task_id].batch_id is None
        assert rec.model_dump(exclude=_TIMING) == live[task_id].model_dump(exclude=_TIMING)
        assert rec.usage.reasoning_tokens is not None and rec.reasoning is not None
        live_cost, batch_cost = response_cost(live[task_id], prices), response_cost(rec, prices)
        assert live_cost is not None and batch_cost == pytest.approx(live_cost / 2)


def test_an_expired_batch_sends_its_cells_again_in_a_next_batch(tmp_path: Path) -> None:
    states = ["BATCH_STATE_EXPIRED", "BATCH_STATE_SUCCEEDED"]
    with _fake(batch_end=lambda n: states[n]) as fake:
        summary = run_tasks([make_task(i) for i in range(4)], [_setting(fake)], tmp_path, batch=True, progress=False)
        assert summary.ok
        assert len(_creates(fake)) == 2
    records = read_records(tmp_path)
    assert sorted(r.text or "" for r in records) == sorted(answer(i) for i in range(4))
    for r in records:
        assert r.batch_id == "batches/fake0001" and r.attempts == 2
        assert r.errors[0].startswith("attempt 1: batch batches/fake0000: the batch ended BATCH_STATE_EXPIRED")


def test_an_account_error_inside_the_batch_results_stops_the_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, "AIza-daily")
    with _fake(accounts={"AIza-daily": daily_quota()}) as fake:
        summary = run_tasks([make_task(i) for i in range(3)], [_setting(fake)], tmp_path, batch=True, progress=False)
        assert len(_creates(fake)) == 1  # never re-submitted
    assert "RESOURCE_EXHAUSTED" in summary.aborted["g"]
    assert read_records(tmp_path) == []


def test_cancel_ends_an_open_batch(tmp_path: Path) -> None:
    with _fake(batch_hold=True) as fake:
        setting = _setting(fake)

        async def go() -> tuple[str, str, str]:
            http = BatchHttp(setting, random.Random(0), (KEY,))
            try:
                body = GEMINI_BATCH.body(setting, render_messages(make_task(0)))
                name = await GEMINI_BATCH.submit(http, setting, [("c1", body)])
                before = await GEMINI_BATCH.poll(http, setting, name)
                await GEMINI_BATCH.cancel(http, setting, name)
                after = await GEMINI_BATCH.poll(http, setting, name)
                found, missing = await GEMINI_BATCH.results(http, setting, after)
                assert found == {} and "BATCH_STATE_CANCELLED" in missing
                assert before.counts == {"requestCount": 1, "pendingRequestCount": 1}
                return name, before.status, after.status if after.ended else "open"
            finally:
                await http.aclose()

        name, before, after = asyncio.run(go())
        [cancel] = [r for r in fake.requests if r.path.endswith(":cancel")]
    assert cancel.path == f"/v1beta/{name}:cancel" and cancel.headers["x-goog-api-key"] == KEY
    assert (before, after) == ("BATCH_STATE_PENDING", "BATCH_STATE_CANCELLED")


def test_results_without_their_key_are_matched_by_position() -> None:
    api = GeminiBatchApi()
    api._order["batches/x"] = ["a", "b"]
    response = {"candidates": [{"content": {"parts": [{"text": "hi"}]}, "finishReason": "STOP"}]}
    found = api._match("batches/x", [{"response": response}, {"error": {"code": 3, "message": "bad"}}])
    assert found["a"].kind == "completed" and found["a"].text == "hi"
    assert found["b"].kind == "final" and "HTTP 400 INVALID_ARGUMENT: bad" in (found["b"].error or "")
    assert GeminiBatchApi()._match("batches/y", [{"response": response}]) == {}  # no key, no order: missing


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        ({"code": 8, "message": "quota", "details": daily_quota().body["error"]["details"]}, "abort"),
        ({"code": 9, "message": "User location is not supported for the API use."}, "abort"),
        ({"code": 14, "message": "overloaded"}, "retry"),
        ({"code": 13, "message": "internal"}, "retry"),
        ({"code": 3, "message": "invalid"}, "final"),
    ],
)
def test_a_batch_error_is_classified_as_the_live_request_would_be(error: dict[str, Any], kind: str) -> None:
    assert result_attempt({"error": error}).kind == kind


def test_results_in_a_responses_file_are_read_and_matched_by_key(tmp_path: Path) -> None:
    with _fake(batch_file=True) as fake:
        summary = run_tasks([make_task(i) for i in range(3)], [_setting(fake)], tmp_path, batch=True, progress=False)
        assert summary.ok
        [download] = [r for r in fake.requests if r.path.startswith("/download/")]
    assert download.path == "/download/v1beta/files/batch-fake0000:download" and download.query == {"alt": "media"}
    assert download.headers["x-goog-api-key"] == KEY
    records = read_records(tmp_path)
    assert sorted(r.text or "" for r in records) == sorted(answer(i) for i in range(3))
    assert all(r.batch_id == "batches/fake0000" and r.attempts == 1 for r in records)
