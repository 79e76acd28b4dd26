"""provider = "anthropic" and today's models (issue 51): the capability table, reasoning mapped to each model's
thinking form, the models endpoint refusing a setting before its first cell, account errors that stop a
setting with nothing recorded, the served model on every record, and streaming — all against the loopback
fake, which holds the same model rules as the API."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from run_helpers import answer, make_task, read_records

from execstate.errors import SettingsError
from execstate.records import Task
from execstate.run import load_settings, run_tasks
from execstate.run._prompt import render_messages
from execstate.run.providers._http import SseEvent, sse_events
from execstate.run.providers._models import ANTHROPIC_MODELS
from execstate.run.providers.anthropic import parse_stream, request_body
from execstate.testing.fake_anthropic import FAKE_MODELS, FakeAnthropic, Turn, error_reply, stream_events

KEY = "sk-ant-test-models"
KEY_ENV = "EXECSTATE_TEST_ANTHROPIC_MODELS_KEY"
_MARK = re.compile(r"print\('T(\d+)'\)")
TIMING = {"latency_s", "started_at", "finished_at"}


def _echo(body: dict[str, Any]) -> str:
    m = _MARK.search(body["system"])
    assert m, body["system"]
    return answer(int(m.group(1)))


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)


@pytest.fixture
def fakes() -> Iterator[list[FakeAnthropic]]:
    started: list[FakeAnthropic] = []
    yield started
    for fake in started:
        fake.stop()


def _fake(fakes: list[FakeAnthropic], **kwargs: Any) -> FakeAnthropic:
    fake = FakeAnthropic(key=KEY, answer=_echo, **kwargs)
    fake.start()
    fakes.append(fake)
    return fake


def _settings(tmp_path: Path, url: str, model: str, extra: str = "", concurrency: int = 2) -> Path:
    path = tmp_path / "settings.toml"
    path.write_text(
        f"""
[[setting]]
name = "claude"
provider = "anthropic"
base_url = "{url}"
api_key_env = "{KEY_ENV}"
model = "{model}"
concurrency = {concurrency}
max_attempts = 4
backoff_initial_s = 0
backoff_max_s = 0
{extra}
"""
    )
    return path


def _run(tmp_path: Path, url: str, model: str, extra: str = "", tasks: list[Task] | None = None, **kw: Any) -> Any:
    settings = _settings(tmp_path, url, model, extra, **kw)
    return run_tasks(tasks or [make_task(0)], settings, tmp_path / "out", progress=False)


def _bodies(fake: FakeAnthropic) -> list[dict[str, Any]]:
    return [r.json() for r in fake.seen("POST", "/v1/messages")]


def _models_json(tmp_path: Path) -> dict[str, Any]:
    return json.loads((tmp_path / "out" / "models.json").read_text())["claude"]


# --- reasoning mapped to the model's thinking form -------------------------------------------------------


def test_opus_4_7_high_is_adaptive_with_effort_and_summarized_thinking(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    assert _run(tmp_path, fake.url, "claude-opus-4-7", 'reasoning = "high"').ok
    [body] = _bodies(fake)
    assert body["thinking"] == {"type": "adaptive", "display": "summarized"}
    assert body["output_config"] == {"effort": "high"}
    assert body["max_tokens"] == 32768 + 8192 and "temperature" not in body
    [record] = read_records(tmp_path / "out")
    assert record.status == "completed" and record.text == answer(0)
    assert record.reasoning == FakeAnthropic.thinking_text  # display summarized: the text comes back
    caps = _models_json(tmp_path)
    assert caps["family"] == "claude-opus-4-7" and caps["thinking"] == ["adaptive"]
    assert caps["source"] == f"{fake.url}/v1/models/claude-opus-4-7"  # the models endpoint answered
    assert any("adaptive thinking, effort 'high'" in n for n in caps["notes"])


def test_without_display_the_fake_returns_empty_thinking_as_opus_4_7_does(fakes, tmp_path: Path) -> None:
    # why display = "summarized" is sent: the adaptive default on the newest models is "omitted"
    fake = _fake(fakes)
    extra = 'reasoning = "high"\nextra_body = { thinking = { type = "adaptive" } }'
    assert _run(tmp_path, fake.url, "claude-opus-4-7", extra).ok
    [record] = read_records(tmp_path / "out")
    assert record.reasoning == ""


def test_sonnet_4_5_medium_with_temperature_is_enabled_with_budget_and_no_temperature(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    assert _run(tmp_path, fake.url, "claude-sonnet-4-5", 'reasoning = "medium"\ntemperature = 0.2').ok
    [body] = _bodies(fake)
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 16384}
    assert body["max_tokens"] == 16384 + 8192
    assert "temperature" not in body and "output_config" not in body
    [record] = read_records(tmp_path / "out")
    assert record.status == "completed" and record.reasoning == FakeAnthropic.thinking_text
    notes = _models_json(tmp_path)["notes"]
    assert "temperature not sent beside thinking (the API refuses them there)" in notes


def test_opus_4_1_high_caps_max_tokens_at_32000_with_the_budget_under_it(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    assert _run(tmp_path, fake.url, "claude-opus-4-1", 'reasoning = "high"').ok
    [body] = _bodies(fake)
    assert body["max_tokens"] == 32000
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 32000 - 8192}
    [record] = read_records(tmp_path / "out")
    assert record.status == "completed"
    assert _models_json(tmp_path)["max_output_tokens"] == 32000


def test_minimal_on_an_adaptive_model_is_its_lowest_effort_and_noted(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    assert _run(tmp_path, fake.url, "claude-opus-4-7", 'reasoning = "minimal"').ok
    [body] = _bodies(fake)
    assert body["output_config"] == {"effort": "low"}
    assert "reasoning 'minimal' sent as effort 'low', the lowest the model has" in _models_json(tmp_path)["notes"]


def test_effort_key_is_sent_as_it_is(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    assert _run(tmp_path, fake.url, "claude-opus-4-7", 'reasoning = "high"\neffort = "xhigh"').ok
    [body] = _bodies(fake)
    assert body["output_config"] == {"effort": "xhigh"}


def test_off_sends_no_thinking_and_no_effort(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    assert _run(tmp_path, fake.url, "claude-opus-4-7").ok
    [body] = _bodies(fake)
    assert "thinking" not in body and "output_config" not in body and body["max_tokens"] == 8192
    [record] = read_records(tmp_path / "out")
    assert record.reasoning is None


@pytest.mark.parametrize(
    ("model", "extra", "message"),
    [
        (
            "claude-sonnet-4-5",
            'reasoning = "max"',
            r"has no 'max'; set reasoning to one of 'off', 'minimal', 'low', 'medium', 'high'",
        ),
        (
            "claude-opus-4-6",
            'reasoning = "xhigh"',
            r"no effort 'xhigh'.*efforts 'low', 'medium', 'high', 'max'.*effort = ",
        ),
        (
            "claude-opus-4-7",
            'reasoning = "low"\nthinking_budget = 2048',
            r"thinking_budget is for thinking type 'enabled'.*accepts 'adaptive'.*thinking_style = 'enabled'",
        ),
    ],
)
def test_a_value_the_model_lacks_is_refused_at_load(tmp_path: Path, model: str, extra: str, message: str) -> None:
    with pytest.raises(SettingsError, match=message) as info:
        load_settings(_settings(tmp_path, "http://127.0.0.1:9", model, extra))
    assert "claude" in str(info.value) and "\n" not in str(info.value).strip()


def test_sampling_auto_leaves_out_what_the_model_refuses_and_says_so(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    assert _run(tmp_path, fake.url, "claude-opus-4-1", "temperature = 0.2\ntop_p = 0.9").ok
    [body] = _bodies(fake)  # Opus 4.1 takes one of the two: the temperature is kept
    assert body["temperature"] == 0.2 and "top_p" not in body
    assert any(n.startswith("top_p not sent") for n in _models_json(tmp_path)["notes"])


def test_sampling_drop_leaves_both_out_and_send_sends_them(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    assert _run(tmp_path, fake.url, "claude-opus-4-1", 'temperature = 0.2\ntop_p = 0.9\nsampling = "drop"').ok
    [body] = _bodies(fake)
    assert "temperature" not in body and "top_p" not in body
    second = tmp_path / "send"
    second.mkdir()
    _run(second, fake.url, "claude-opus-4-1", 'temperature = 0.2\ntop_p = 0.9\nsampling = "send"')
    [record] = read_records(second / "out")  # sent anyway: the API (the fake) refuses it, as documented
    assert record.status == "no-response" and "cannot both be specified for this model" in record.errors[0]


def test_every_table_row_names_a_claude_docs_page() -> None:
    for family, row in ANTHROPIC_MODELS.items():
        assert row.family == family and row.source.startswith("https://platform.claude.com/docs/en/")
        assert row.thinking and row.max_output_tokens and row.off == "omit"
    assert ANTHROPIC_MODELS["claude-opus-4-7"].thinking == ("adaptive",)
    assert ANTHROPIC_MODELS["claude-sonnet-4-5"].thinking == ("enabled",)


def test_the_wire_request_is_computed_offline_and_equals_what_is_sent(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    assert _run(tmp_path, fake.url, "claude-opus-4-6", 'reasoning = "max"').ok
    [setting] = load_settings(tmp_path / "settings.toml")
    [body] = _bodies(fake)
    assert body == request_body(setting, render_messages(make_task(0)))
    assert body["thinking"]["type"] == "adaptive" and body["output_config"] == {"effort": "max"}


def test_an_unknown_model_gets_the_default_row(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)  # claude-test: listed, without capabilities
    assert _run(tmp_path, fake.url, "claude-test", 'reasoning = "high"').ok
    caps = _models_json(tmp_path)
    assert caps["family"] == "default" and caps["source"] == "default"
    assert any("no capabilities listed; table only" in n for n in caps["notes"])


# --- the models endpoint ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("model", "extra", "row", "message"),
    [
        (
            "claude-opus-4-7",
            'reasoning = "high"\nthinking_style = "enabled"',
            None,
            r"does not accept thinking type 'enabled' \(it accepts 'adaptive'\); set thinking_style = 'adaptive'",
        ),
        (
            "claude-opus-4-6",
            'reasoning = "max"',
            {"efforts": ("low", "medium", "high")},
            r"has no effort 'max' \(it accepts 'low', 'medium', 'high'\)",
        ),
        (
            "claude-opus-4-1",
            'reasoning = "high"',
            {"max_tokens": 16000},
            r"max_tokens 32000 is above model 'claude-opus-4-1''s 16000; set max_output_limit = 16000",
        ),
    ],
)
def test_the_models_endpoint_refuses_before_the_first_cell(
    fakes, tmp_path: Path, model: str, extra: str, row: dict[str, Any] | None, message: str
) -> None:
    table = {**FAKE_MODELS, model: dataclasses.replace(FAKE_MODELS[model], **row)} if row else None
    fake = _fake(fakes, table=table)
    with pytest.raises(SettingsError, match=message) as info:
        _run(tmp_path, fake.url, model, extra)
    assert "setting 'claude'" in str(info.value) and f"/v1/models/{model}" in str(info.value)
    assert fake.seen("POST", "/v1/messages") == []
    assert read_records(tmp_path / "out") == []


def test_the_models_endpoint_cap_refuses_a_raised_limit(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    with pytest.raises(SettingsError, match=r"max_tokens 40960 is above model 'claude-opus-4-1''s 32000"):
        _run(tmp_path, fake.url, "claude-opus-4-1", 'reasoning = "high"\nmax_output_limit = 100000')
    assert fake.seen("POST", "/v1/messages") == []


def test_a_model_the_endpoint_does_not_know_is_left_to_the_first_message(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes, models=())  # claude-haiku-4-5 listed by the table; claude-nope is not
    summary = _run(tmp_path, fake.url, "claude-nope-1", tasks=[make_task(i) for i in range(3)])
    assert summary.ok  # the fake answers any model on messages; the table's default row was used
    assert any("no model information; table only" in n for n in _models_json(tmp_path)["notes"])


# --- account errors ---------------------------------------------------------------------------------------

ACCOUNT_KEYS = {"sk-ant-credit": "credit", "sk-ant-billing": "billing", "sk-ant-permission": "permission"}


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("sk-ant-credit", "HTTP 400 invalid_request_error: Your credit balance is too low"),
        ("sk-ant-billing", "HTTP 402 billing_error"),
        ("sk-ant-permission", "HTTP 403 permission_error"),
    ],
)
def test_an_account_error_stops_the_setting_and_the_good_key_answers_every_cell(
    fakes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, key: str, message: str
) -> None:
    fake = _fake(fakes, accounts=ACCOUNT_KEYS)
    tasks = [make_task(i) for i in range(8)]
    monkeypatch.setenv(KEY_ENV, key)
    summary = _run(tmp_path, fake.url, "claude-sonnet-4-5", 'reasoning = "low"', tasks=tasks, concurrency=2)
    assert "claude" in summary.aborted and message in summary.aborted["claude"]
    sent = len(fake.seen("POST", "/v1/messages"))
    assert 1 <= sent <= 2 + 2  # concurrency + 2 at most, never retried
    assert read_records(tmp_path / "out") == []  # no cell recorded: every cell is still pending
    monkeypatch.setenv(KEY_ENV, KEY)  # the account is fixed: the same command answers every cell
    summary = _run(tmp_path, fake.url, "claude-sonnet-4-5", 'reasoning = "low"', tasks=tasks, concurrency=2)
    assert summary.ok
    records = read_records(tmp_path / "out")
    assert sorted(r.task_id for r in records) == sorted(t.task_id for t in tasks)
    assert all(r.status == "completed" and r.attempts == 1 for r in records)


def test_a_revoked_key_is_refused_before_any_message(fakes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _fake(fakes, accounts={"sk-ant-revoked": "revoked"})
    tasks = [make_task(i) for i in range(4)]
    monkeypatch.setenv(KEY_ENV, "sk-ant-revoked")
    with pytest.raises(SettingsError, match=r"refused the API key \(HTTP 401\): authentication_error"):
        _run(tmp_path, fake.url, "claude-sonnet-4-5", tasks=tasks)
    assert fake.seen("POST", "/v1/messages") == [] and read_records(tmp_path / "out") == []
    monkeypatch.setenv(KEY_ENV, KEY)
    assert _run(tmp_path, fake.url, "claude-sonnet-4-5", tasks=tasks).ok
    assert len(read_records(tmp_path / "out")) == 4


def test_a_key_revoked_during_the_run_stops_the_setting(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes, script=lambda body, n: error_reply("authentication_error", "invalid x-api-key"))
    summary = _run(tmp_path, fake.url, "claude-sonnet-4-5", tasks=[make_task(i) for i in range(6)], concurrency=2)
    assert "authentication_error" in summary.aborted["claude"]
    assert len(fake.seen("POST", "/v1/messages")) <= 4 and read_records(tmp_path / "out") == []


# --- the served model, request id and service tier --------------------------------------------------------


def test_served_model_request_id_and_service_tier_are_in_responses_jsonl(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    assert _run(tmp_path, fake.url, "claude-opus-4-7", 'reasoning = "low"').ok
    [line] = (tmp_path / "out" / "responses.jsonl").read_text().splitlines()
    raw = json.loads(line)
    assert raw["model"] == "claude-opus-4-7"
    assert raw["served_model"] == "claude-opus-4-7-20260416"
    assert raw["request_id"] == "req_fake000000"
    assert raw["service_tier"] == "standard"


def test_a_tier_the_vendor_does_not_send_is_null(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes, service_tier=None)
    assert _run(tmp_path, fake.url, "claude-sonnet-4-5").ok
    [record] = read_records(tmp_path / "out")
    assert record.service_tier is None and record.served_model == "claude-sonnet-4-5-20250929"


# --- streaming --------------------------------------------------------------------------------------------


def test_a_streamed_answer_is_recorded_exactly_like_a_whole_one(fakes, tmp_path: Path) -> None:
    tasks = [make_task(i) for i in range(3)]
    whole_fake, stream_fake = _fake(fakes), _fake(fakes)
    whole, streamed = tmp_path / "whole", tmp_path / "streamed"
    whole.mkdir()
    streamed.mkdir()
    assert _run(whole, whole_fake.url, "claude-opus-4-7", 'reasoning = "high"', tasks=tasks, concurrency=1).ok
    extra = 'reasoning = "high"\nstream = true'
    assert _run(streamed, stream_fake.url, "claude-opus-4-7", extra, tasks=tasks, concurrency=1).ok
    assert all(b.get("stream") is True for b in _bodies(stream_fake))
    assert all("stream" not in b for b in _bodies(whole_fake))
    a = {r.task_id: r.model_dump(exclude=TIMING) for r in read_records(whole / "out")}
    b = {r.task_id: r.model_dump(exclude=TIMING) for r in read_records(streamed / "out")}
    assert a == b and len(a) == 3
    assert all(r["reasoning"] == FakeAnthropic.thinking_text and r["served_model"] for r in b.values())


def test_a_large_max_output_tokens_streams_by_itself(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    assert _run(tmp_path, fake.url, "claude-opus-4-7", 'reasoning = "high"\nmax_output_tokens = 64000').ok
    [body] = _bodies(fake)
    assert body["stream"] is True and body["max_tokens"] == 64000


def test_a_broken_stream_is_retried_and_its_partial_text_never_recorded(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes, script=lambda body, n: Turn(cut=True) if n == 0 else None)
    assert _run(tmp_path, fake.url, "claude-sonnet-4-5", 'reasoning = "low"\nstream = true').ok
    [record] = read_records(tmp_path / "out")
    assert record.status == "completed" and record.attempts == 2 and record.text == answer(0)
    assert "stream ended before message_stop" in record.errors[0]


def test_an_error_event_is_classified_by_its_type(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes, script=lambda body, n: Turn(stream_error="overloaded_error") if n == 0 else None)
    assert _run(tmp_path, fake.url, "claude-sonnet-4-5", "stream = true").ok
    [record] = read_records(tmp_path / "out")
    assert record.attempts == 2 and "HTTP 529 overloaded_error" in record.errors[0]
    billing = tmp_path / "billing"
    billing.mkdir()
    fake2 = _fake(fakes, script=lambda body, n: Turn(stream_error="billing_error"))
    summary = _run(billing, fake2.url, "claude-sonnet-4-5", "stream = true", tasks=[make_task(i) for i in range(4)])
    assert "billing_error" in summary.aborted["claude"] and read_records(billing / "out") == []


def test_parse_stream_reads_every_event_type_and_drops_an_unfinished_stream() -> None:
    message = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-opus-4-7-20260416",
        "content": [
            {"type": "thinking", "thinking": "think hard", "signature": "sig"},
            {"type": "text", "text": '{"output": "7"}'},
        ],
        "stop_reason": "max_tokens",
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 20, "service_tier": "priority"},
    }
    content = b"".join(stream_events(message, Turn()))
    events = sse_events(content)
    assert [e.event for e in events][:2] == ["message_start", "ping"] and events[-1].event == "message_stop"
    attempt = parse_stream(events, {"request-id": "req_9"})
    assert (attempt.kind, attempt.text, attempt.reasoning) == ("completed", '{"output": "7"}', "think hard")
    assert (attempt.finish_reason, attempt.usage.completion_tokens, attempt.usage.prompt_tokens) == ("length", 20, 10)
    assert (attempt.served_model, attempt.request_id, attempt.service_tier) == (
        "claude-opus-4-7-20260416",
        "req_9",
        "priority",
    )
    unfinished = parse_stream(events[:-1], {})
    assert unfinished.kind == "retry" and unfinished.text is None
    unknown = parse_stream([SseEvent("future_event", "{}"), *events], {})
    assert unknown.kind == "completed"


def test_one_settings_file_with_todays_models_answers_every_cell(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    rows = [
        ("opus47", "claude-opus-4-7", 'reasoning = "high"'),
        ("sonnet45", "claude-sonnet-4-5", 'reasoning = "medium"\ntemperature = 0.2'),
        ("opus41", "claude-opus-4-1", 'reasoning = "high"'),
    ]
    text = "".join(
        f'[[setting]]\nname = "{name}"\nprovider = "anthropic"\nbase_url = "{fake.url}"\n'
        f'api_key_env = "{KEY_ENV}"\nmodel = "{model}"\nconcurrency = 2\n{extra}\n\n'
        for name, model, extra in rows
    )
    (tmp_path / "settings.toml").write_text(text)
    tasks = [make_task(i) for i in range(3)]
    assert run_tasks(tasks, tmp_path / "settings.toml", tmp_path / "out", progress=False).ok
    records = read_records(tmp_path / "out")
    assert len(records) == 9 and all(r.status == "completed" and r.attempts == 1 for r in records)
    served = {r.setting: r.served_model for r in records}
    assert served == {
        "opus47": "claude-opus-4-7-20260416",
        "sonnet45": "claude-sonnet-4-5-20250929",
        "opus41": "claude-opus-4-1-20250805",
    }
    models = json.loads((tmp_path / "out" / "models.json").read_text())
    assert {k: v["family"] for k, v in models.items()} == {
        "opus47": "claude-opus-4-7",
        "sonnet45": "claude-sonnet-4-5",
        "opus41": "claude-opus-4-1",
    }
