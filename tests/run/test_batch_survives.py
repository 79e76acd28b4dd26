"""Batches that survive (issue 51): a batch that fails as a whole is a batch event re-submitted after a delay,
results that are gone are sent again, open batches can be cancelled, account errors in results stop the setting
without recording a cell, batches are split under the vendors' limits, and OpenAI's batch runs on /v1/responses.

The fakes end each batch at its first poll (``hold = False``) unless a test holds it; the tests wait on what a
fake has seen, never on time. Delays are asserted through an injected sleep or the journal's timestamps.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from run_helpers import complete_lines, make_task, read_records

from execstate.records import write_jsonl
from execstate.run import Setting, cancel_batches, run_tasks
from execstate.run._batch import LINE_OVERHEAD, _Request, run_batched, split_requests
from execstate.run._journal import JOURNAL_NAME, open_journal
from execstate.run._prompt import render_messages
from execstate.run._store import open_store
from execstate.run.providers._wire import batch_delay_s
from execstate.run.providers.anthropic_batch import ANTHROPIC_BATCH
from execstate.run.providers.openai_batch import OPENAI_BATCH
from execstate.testing.fake_batch import FakeAnthropicBatch, FakeOpenAIBatch

N_TASKS = 6
KEY_ENV = "EXECSTATE_TEST_SURVIVE_KEY"
_MARK = re.compile(r"print\('T(\d+)'\)")


def _index(body: dict[str, Any]) -> int:
    m = _MARK.search(json.dumps(body))
    assert m, body
    return int(m.group(1))


def _answer(body: dict[str, Any]) -> str:
    return json.dumps({"output": str(_index(body))})


def _task_id(i: int) -> str:
    return make_task(i).task_id


def _tasks(n: int = N_TASKS) -> list[Any]:
    return [make_task(i) for i in range(n)]


@dataclass(frozen=True)
class Vendor:
    provider: str
    key: str
    model: str

    def fake(self, **kw: Any) -> Any:
        if self.provider == "anthropic":
            return FakeAnthropicBatch(key=self.key, answer=_answer, models=(self.model,), **kw)
        return FakeOpenAIBatch(key=self.key, answer=_answer, **kw)

    def base_url(self, fake: Any) -> str:
        return fake.url if self.provider == "anthropic" else fake.url + "/v1"

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
            batch_retry_s=0.02,
        )
        fields.update(over)
        return Setting.model_validate(fields)


VENDORS = [Vendor("openai", "sk-test-survive", "m"), Vendor("anthropic", "sk-ant-test-survive", "claude-test")]


@pytest.fixture(params=VENDORS, ids=[v.provider for v in VENDORS])
def vendor(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Vendor:
    v: Vendor = request.param
    monkeypatch.setenv(KEY_ENV, v.key)
    return v


def _events(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / JOURNAL_NAME).read_text().splitlines() if line.strip()]


def _at(event: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(event["at"])


def _all_answered(out: Path, n: int = N_TASKS) -> dict[str, Any]:
    records = {r.task_id: r for r in read_records(out)}
    assert len(records) == n and complete_lines(out / "responses.jsonl") == n
    for i in range(n):
        r = records[_task_id(i)]
        assert r.status == "completed" and json.loads(r.text or "") == {"output": str(i)}, r
    return records


def _fail_once_whole(vendor: Vendor, fake: Any) -> str:
    """Make the next batch fail as a whole, the vendor's way; the reason the journal must name."""
    if vendor.provider == "openai":
        fake.fail_batches(1, "token_limit_exceeded")  # created, then `failed` with errors.data
        return "token_limit_exceeded"
    fake.fail_creates.append("overloaded_error")  # the create call refused with 529
    return "overloaded_error"


# -- a batch that fails as a whole -----------------------------------------------------------------


def test_a_batch_that_fails_whole_is_resubmitted_after_a_delay_and_answered(tmp_path: Path, vendor: Vendor) -> None:
    with vendor.fake(hold=False) as fake:
        reason = _fail_once_whole(vendor, fake)
        summary = run_tasks(_tasks(), [vendor.setting(fake)], tmp_path, batch=True, progress=False)
    assert summary.ok, summary
    records = _all_answered(tmp_path)
    assert all(r.attempts == 1 and r.errors == [] for r in records.values())  # no cell's budget was spent
    assert len(fake.creates()) == 2
    assert summary.batches["b"].failed == 1
    events = _events(tmp_path)
    [failed] = [e for e in events if e["event"] == "failed"]
    assert reason in failed["reason"] and failed["failure"] == 1 and failed["cells"] == N_TASKS
    assert 0.01 <= failed["delay_s"] <= 0.02  # [d/2, d] with d = batch_retry_s
    last_submit = [e for e in events if e["event"] == "submitted"][-1]
    assert (_at(last_submit) - _at(failed)).total_seconds() >= failed["delay_s"] - 0.001
    if vendor.provider == "openai":  # the failed batch was accepted, then closed without counting a round
        first = fake.created[0]
        [closed] = [e for e in events if e["event"] == "closed" and e["batch_id"] == first]
        assert closed["reason"].startswith("failed: ") and len(closed["unspent"]) == N_TASKS
        assert failed["batch_id"] == first
    else:  # refused at creation: no batch id
        assert failed["batch_id"] is None and len(fake.created) == 1


def test_whole_batch_failures_wait_on_the_documented_doubling_schedule(tmp_path: Path, vendor: Vendor) -> None:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)  # the driver's only wait before a re-submission: recorded, not waited

    with vendor.fake(hold=False) as fake:
        for _ in range(2):
            _fail_once_whole(vendor, fake)
        s = vendor.setting(fake, batch_retry_s=10.0, batch_max_failures=3)
        journal, state = open_journal(tmp_path / JOURNAL_NAME)
        store, _, _ = open_store(tmp_path / "responses.jsonl")
        try:
            counts = asyncio.run(
                run_batched(
                    s,
                    [(t, 0) for t in _tasks()],
                    provider=_provider(s),
                    journal=journal,
                    state=state,
                    store=store,
                    sleep=sleep,
                    rng=random.Random(7),
                )
            )
        finally:
            journal.close()
            store.close()
    assert counts.failed == 2
    assert 5.0 <= slept[0] <= 10.0 and 10.0 <= slept[1] <= 20.0
    failed = [e for e in _events(tmp_path) if e["event"] == "failed"]
    assert [e["delay_s"] for e in failed] == pytest.approx(slept)
    _all_answered(tmp_path)
    rng = random.Random(1)
    assert all(20.0 <= batch_delay_s(s, 3, rng) <= 40.0 for _ in range(50))  # d = 10 * 2**2


def _provider(setting: Setting) -> Any:
    class _NoLive:
        name = setting.provider
        model = setting.model
        pipeline_check = False

        async def attempt(self, request: Any) -> Any:
            raise AssertionError("a batch run sends nothing live")

        async def aclose(self) -> None:
            return None

    return _NoLive()


def test_too_many_whole_batch_failures_stop_the_setting_and_record_nothing(tmp_path: Path, vendor: Vendor) -> None:
    with vendor.fake(hold=False) as fake:
        for _ in range(3):
            reason = _fail_once_whole(vendor, fake)
        s = vendor.setting(fake, batch_max_failures=2)
        stopped = run_tasks(_tasks(), [s], tmp_path, batch=True, progress=False)
        assert read_records(tmp_path) == []
        assert "b" in stopped.aborted and reason in stopped.aborted["b"]
        assert "failed as a whole 3 times" in stopped.aborted["b"]
        failed = [e for e in _events(tmp_path) if e["event"] == "failed"]
        assert [e["failure"] for e in failed] == [1, 2, 3] and failed[-1]["delay_s"] is None
        resumed = run_tasks(_tasks(), [s], tmp_path, batch=True, progress=False)  # the cause went away
    assert resumed.ok, resumed
    records = _all_answered(tmp_path)
    assert all(r.attempts == 1 for r in records.values())
    assert len(fake.creates()) == 4


# -- results that are gone -------------------------------------------------------------------------


def test_a_batch_whose_results_are_gone_has_its_cells_sent_again(tmp_path: Path, vendor: Vendor) -> None:
    with vendor.fake(hold=False) as fake:
        fake.auto_finish = lambda batch_id: {"drop": batch_id == fake.created[0]}
        summary = run_tasks(_tasks(), [vendor.setting(fake)], tmp_path, batch=True, progress=False)
    assert summary.ok, summary
    first, second = fake.created
    records = _all_answered(tmp_path)
    assert all(r.batch_id == second and r.attempts == 1 for r in records.values())
    assert summary.batches["b"].gone == 1 and summary.batches["b"].resent == N_TASKS
    [closed] = [e for e in _events(tmp_path) if e["event"] == "closed" and e["batch_id"] == first]
    assert closed["reason"].startswith("results gone: ") and len(closed["unspent"]) == N_TASKS
    if vendor.provider == "anthropic":
        assert "archived" in closed["reason"]
    else:
        assert "404" in closed["reason"]


# -- cancel ------------------------------------------------------------------------------------------


def _cli(tmp_path: Path, vendor: Vendor, fake: Any) -> tuple[list[str], Path, dict[str, str]]:
    tasks = tmp_path / "tasks.jsonl"
    write_jsonl(tasks, _tasks())
    settings = tmp_path / "settings.toml"
    settings.write_text(
        f'[[setting]]\nname = "b"\nprovider = "{vendor.provider}"\nbase_url = "{vendor.base_url(fake)}"\n'
        f'model = "{vendor.model}"\napi_key_env = "{KEY_ENV}"\nbatch_poll_s = 0.005\nmax_attempts = 3\n'
        "backoff_initial_s = 0.001\nbackoff_max_s = 0.01\n"
    )
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "execstate", "run", "--batch", "--tasks", str(tasks), "--settings", str(settings)]
    return [*cmd, "--out", str(out)], out, {**os.environ, KEY_ENV: vendor.key}


def test_cancel_cancels_open_batches_at_the_vendor_and_a_later_run_answers_their_cells(
    tmp_path: Path, vendor: Vendor
) -> None:
    with vendor.fake() as fake:
        cmd, out, env = _cli(tmp_path, vendor, fake)
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            fake.wait_for_poll(count=1, timeout=60)
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
        [batch_id] = fake.created
        cancel = [sys.executable, "-m", "execstate", "run", "--cancel", str(out)]
        done = subprocess.run(cancel, env=env, capture_output=True, timeout=120)
        assert done.returncode == 0, done.stderr.decode()
        assert fake.cancelled == [batch_id]  # POST .../cancel reached the vendor
        assert f"b: cancelled batch {batch_id} ({N_TASKS} cells" in done.stdout.decode()
        [_, cancelled] = _events(out)
        assert cancelled["event"] == "cancelled" and cancelled["batch_id"] == batch_id
        assert cancel_batches(out) == []  # nothing open any more: a second cancel does nothing
        assert complete_lines(out / "responses.jsonl") == 0
        fake.hold = False
        again = subprocess.run(cmd, env=env, capture_output=True, timeout=120)
        assert again.returncode == 0, again.stderr.decode()
    records = _all_answered(out)
    second = fake.created[1]
    assert all(r.batch_id == second and r.attempts == 1 for r in records.values())  # the cancel spent nothing


# -- account errors in the results ---------------------------------------------------------------------


def _account_errors(vendor: Vendor, fake: Any, indices: set[int]) -> None:
    """The first batch's requests of these tasks come back with the vendor's account error."""

    def pick(cid: str, body: dict[str, Any]) -> bool:
        return _index(body) in indices

    def billing(cid: str, body: dict[str, Any]) -> str | None:
        return "billing_error" if pick(cid, body) else None

    def how(batch_id: str) -> dict[str, Any]:
        if batch_id != fake.created[0]:
            return {}
        return {"quota": pick} if vendor.provider == "openai" else {"errored": billing}

    fake.auto_finish = how


def test_an_account_error_in_batch_results_stops_the_setting_and_keeps_its_cells_pending(
    tmp_path: Path, vendor: Vendor
) -> None:
    with vendor.fake(hold=False) as fake:
        _account_errors(vendor, fake, {1, 4})
        s = vendor.setting(fake)
        stopped = run_tasks(_tasks(), [s], tmp_path, batch=True, progress=False)
        assert "b" in stopped.aborted and "account error" in stopped.aborted["b"]
        recorded = {r.task_id for r in read_records(tmp_path)}
        assert recorded == {_task_id(i) for i in (0, 2, 3, 5)}  # the answered ones kept, none of the refused
        assert len(fake.creates()) == 1  # never re-sent in this run
        [closed] = [e for e in _events(tmp_path) if e["event"] == "closed"]
        assert sorted(map(tuple, closed["unspent"])) == [(_task_id(1), 0), (_task_id(4), 0)]
        resumed = run_tasks(_tasks(), [s], tmp_path, batch=True, progress=False)  # the account was fixed
    assert resumed.ok, resumed
    records = _all_answered(tmp_path)
    second = fake.created[1]
    assert sorted(_index(body) for body in fake.batch_requests(second).values()) == [1, 4]
    for i in (1, 4):
        assert records[_task_id(i)].attempts == 1 and records[_task_id(i)].batch_id == second


# -- limits and batches in flight ---------------------------------------------------------------------


def test_requests_are_split_under_the_count_and_byte_limits() -> None:
    requests = [_Request(f"c{i}", (f"t{i}", 0), {}, size) for i, size in enumerate([40, 40, 40, 90, 10, 10, 10])]
    sizes = [[r.size for r in chunk] for chunk in split_requests(requests, 3, 100)]
    assert sizes == [[40, 40], [40], [90, 10], [10, 10]]
    assert [len(c) for c in split_requests(requests, 2, 10_000)] == [2, 2, 2, 1]
    big = [_Request("c", ("t", 0), {}, 500)]
    assert [len(c) for c in split_requests(big, 10, 100)] == [1]  # alone; the vendor refuses it whole
    assert (OPENAI_BATCH.max_requests, OPENAI_BATCH.max_bytes) == (50_000, 200_000_000)
    assert (ANTHROPIC_BATCH.max_requests, ANTHROPIC_BATCH.max_bytes) == (100_000, 256_000_000)
    assert LINE_OVERHEAD > 0


def test_a_form_byte_limit_splits_batches_and_batch_open_caps_those_in_flight(
    tmp_path: Path, vendor: Vendor, monkeypatch: pytest.MonkeyPatch
) -> None:
    form = OPENAI_BATCH if vendor.provider == "openai" else ANTHROPIC_BATCH
    body = form.body(vendor.setting(_Url()), render_messages(make_task(0)))
    one = len(json.dumps({"custom_id": "c" * 25, "params": body}))
    monkeypatch.setattr(form, "max_bytes", 2 * (one + LINE_OVERHEAD) + 10)  # two requests per batch
    with vendor.fake(hold=False) as fake:
        summary = run_tasks(_tasks(), [vendor.setting(fake, batch_open=1)], tmp_path, batch=True, progress=False)
    assert summary.ok, summary
    assert [len(fake.batch_requests(b)) for b in fake.created] == [2, 2, 2]
    _all_answered(tmp_path)
    events = _events(tmp_path)
    # batch_open = 1: each batch is closed before the next is submitted
    assert [e["event"] for e in events] == ["submitted", "closed"] * 3


class _Url:
    url = "http://127.0.0.1:9"


# -- OpenAI's batch on /v1/responses ------------------------------------------------------------------------


def test_the_responses_batch_form_answers_every_cell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-test-resp")
    with FakeOpenAIBatch(key="sk-test-resp", answer=_answer, hold=False) as fake:
        s = Setting.model_validate(
            dict(
                name="r",
                provider="openai-responses",
                base_url=fake.url + "/v1",
                model="gpt-test",
                api_key_env=KEY_ENV,
                batch_poll_s=0.005,
            )
        )
        summary = run_tasks(_tasks(), [s], tmp_path, batch=True, progress=False)
        [batch_id] = fake.created
        batch = fake.batch(batch_id)
        lines = fake.batch_requests(batch_id)
    assert summary.ok, summary
    assert batch["endpoint"] == "/v1/responses" and batch["status"] == "completed"
    assert all("input" in body and "messages" not in body for body in lines.values())
    records = _all_answered(tmp_path)
    for r in records.values():
        assert r.batch_id == batch_id and r.provider == "openai-responses" and r.model == "gpt-test"
        assert r.usage.prompt_tokens is not None and r.usage.completion_tokens is not None
    assert Counter(r.finish_reason for r in records.values()) == {"stop": N_TASKS}


def test_a_refused_batch_creation_is_a_batch_event_for_openai_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    vendor = VENDORS[0]
    monkeypatch.setenv(KEY_ENV, vendor.key)
    with vendor.fake(hold=False) as fake:
        fake.fail_creates += [500, 429]  # POST /v1/batches refused twice, no retry inside the call
        summary = run_tasks(_tasks(), [vendor.setting(fake)], tmp_path, batch=True, progress=False)
    assert summary.ok, summary
    assert len(fake.creates()) == 3 and len(fake.created) == 1
    failed = [e for e in _events(tmp_path) if e["event"] == "failed"]
    assert [(e["failure"], e["batch_id"]) for e in failed] == [(1, None), (2, None)]
    assert "HTTP 500" in failed[0]["reason"] and "HTTP 429" in failed[1]["reason"]
    assert 0.02 <= failed[1]["delay_s"] <= 0.04  # the second failure waits on d = 2 * batch_retry_s
    assert all(r.attempts == 1 for r in _all_answered(tmp_path).values())


def test_an_account_error_on_batch_creation_stops_at_once_without_a_failed_event(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    vendor = VENDORS[1]
    monkeypatch.setenv(KEY_ENV, vendor.key)
    with vendor.fake(hold=False) as fake:
        fake.fail_creates.append("billing_error")  # 402: an account error, never re-submitted
        s = vendor.setting(fake)
        stopped = run_tasks(_tasks(), [s], tmp_path, batch=True, progress=False)
        assert "account error" in stopped.aborted["b"] and "402" in stopped.aborted["b"]
        assert len(fake.creates()) == 1 and read_records(tmp_path) == []
        assert not (tmp_path / JOURNAL_NAME).exists() or _events(tmp_path) == []
        resumed = run_tasks(_tasks(), [s], tmp_path, batch=True, progress=False)
    assert resumed.ok, resumed
    assert all(r.attempts == 1 for r in _all_answered(tmp_path).values())
