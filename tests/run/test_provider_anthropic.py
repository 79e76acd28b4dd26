"""provider = "anthropic" end to end: run_tasks against a loopback fake of the Messages API that checks
every request as Anthropic documents it."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from run_helpers import answer, make_task, read_records

from execstate.errors import SettingsError
from execstate.records import Task
from execstate.run import load_settings, provider_entry, render_system, run_tasks
from execstate.run._prompt import USER_MESSAGE, render_messages
from execstate.run.providers.anthropic import (
    THINKING_BUDGETS,
    AnthropicProvider,
    classify_response,
    parse_message,
    request_body,
)
from execstate.testing.fake_anthropic import (
    ERROR_STATUS,
    FakeAnthropic,
    Turn,
    error_body,
    error_reply,
    overloaded,
    rate_limited,
)
from execstate.testing.vendor import json_reply

KEY = "sk-ant-test-0123456789"
KEY_ENV = "EXECSTATE_TEST_ANTHROPIC_KEY"
_MARK = re.compile(r"print\('T(\d+)'\)")


def _index(body: dict[str, Any]) -> int:
    """Which ``make_task`` task a messages request is about."""
    m = _MARK.search(body["system"])
    assert m, body["system"]
    return int(m.group(1))


def _echo(body: dict[str, Any]) -> str:
    return answer(_index(body))


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


def _settings(
    tmp_path: Path, url: str, extra: str = "", backoff_max_s: float = 0, model: str = "claude-sonnet-4-5"
) -> Path:
    path = tmp_path / "settings.toml"
    path.write_text(
        f"""
[[setting]]
name = "claude"
provider = "anthropic"
base_url = "{url}"
api_key_env = "{KEY_ENV}"
model = "{model}"
concurrency = 2
max_attempts = 4
backoff_initial_s = 0
backoff_max_s = {backoff_max_s}
{extra}
"""
    )
    return path


def _run(
    tmp_path: Path,
    url: str,
    extra: str = "",
    tasks: list[Task] | None = None,
    backoff_max_s: float = 0,
    model: str = "claude-sonnet-4-5",
) -> Any:
    settings = _settings(tmp_path, url, extra, backoff_max_s, model)
    return run_tasks(tasks or [make_task(0)], settings, tmp_path / "out", progress=False)


def _messages(fake: FakeAnthropic) -> list[Any]:
    return fake.seen("POST", "/v1/messages")


# --- request shapes -------------------------------------------------------------------------------------


def test_request_without_reasoning_sends_sampling_fields_and_default_max_tokens(fakes, tmp_path: Path) -> None:
    # Claude Sonnet 4 takes temperature and top_p together (4.1 and later take one of the two)
    fake = _fake(fakes)
    summary = _run(tmp_path, fake.url, "temperature = 0.25\ntop_p = 0.5", model="claude-sonnet-4")
    assert summary.ok
    [models] = fake.seen("GET", "/v1/models")  # the model's capabilities, read at open with the same headers
    assert models.path == "/v1/models/claude-sonnet-4"
    [seen] = _messages(fake)
    for request in (models, seen):
        assert request.headers["x-api-key"] == KEY
        assert request.headers["anthropic-version"] == "2023-06-01"
    assert seen.headers["content-type"].startswith("application/json")
    task = make_task(0)
    assert seen.json() == {
        "model": "claude-sonnet-4",
        "max_tokens": 8192,
        "temperature": 0.25,
        "top_p": 0.5,
        "system": render_system(task.source, task.input),
        "messages": [{"role": "user", "content": USER_MESSAGE}],
    }
    [record] = read_records(tmp_path / "out")
    assert (record.status, record.text, record.finish_reason) == ("completed", answer(0), "stop")
    assert record.reasoning is None and record.provider == "anthropic" and record.model == "claude-sonnet-4"
    assert record.served_model == "claude-sonnet-4-20250514"


@pytest.mark.parametrize("level", ["minimal", "low", "medium", "high"])
def test_reasoning_sends_the_thinking_budget_and_drops_temperature(fakes, tmp_path: Path, level: str) -> None:
    fake = _fake(fakes)
    summary = _run(tmp_path, fake.url, f'reasoning = "{level}"\ntemperature = 0.7\ntop_p = 0.9')
    assert summary.ok
    [seen] = _messages(fake)
    body = seen.json()
    budget = THINKING_BUDGETS[level]
    assert body["thinking"] == {"type": "enabled", "budget_tokens": budget}
    assert body["max_tokens"] == budget + 8192
    assert "temperature" not in body and "top_p" not in body
    [record] = read_records(tmp_path / "out")
    assert record.status == "completed" and record.text == answer(0)
    assert record.reasoning == FakeAnthropic.thinking_text


def test_thinking_budget_and_version_options(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    extra = 'reasoning = "high"\nthinking_budget = 2048\nanthropic_version = "2099-01-01"\nmax_output_tokens = 3000'
    assert _run(tmp_path, fake.url, extra).ok
    [seen] = _messages(fake)
    assert seen.headers["anthropic-version"] == "2099-01-01"
    assert seen.json()["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assert seen.json()["max_tokens"] == 3000


def test_table_budget_is_lowered_below_a_smaller_max_output_tokens(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    assert _run(tmp_path, fake.url, 'reasoning = "high"\nmax_output_tokens = 5000').ok
    [seen] = _messages(fake)
    assert seen.json()["max_tokens"] == 5000
    assert seen.json()["thinking"]["budget_tokens"] == 4999


def test_wire_request_is_what_the_fake_receives(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    extra = 'reasoning = "low"\nextra_body = { metadata = { user_id = "u1" } }'
    assert _run(tmp_path, fake.url, extra).ok
    [setting] = load_settings(tmp_path / "settings.toml")
    entry = provider_entry("anthropic")
    assert entry.request is not None
    wire = entry.request(setting, render_messages(make_task(0)), 0)
    [seen] = _messages(fake)
    assert wire.url == fake.url + "/v1/messages"
    assert wire.body == seen.json() == request_body(setting, render_messages(make_task(0)))
    assert wire.body["metadata"] == {"user_id": "u1"}  # extra_body merged


def test_default_base_url_is_the_vendor_root(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text('[[setting]]\nname = "c"\nprovider = "anthropic"\nmodel = "claude-sonnet-4-5"\n')
    [setting] = load_settings(path)
    assert setting.endpoint_root == "https://api.anthropic.com"
    request = provider_entry("anthropic").request
    assert request is not None
    assert request(setting, render_messages(make_task(0)), 0).url == "https://api.anthropic.com/v1/messages"


# --- settings refused -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('reasoning = "minimal"\nmax_output_tokens = 1000', r"max_output_tokens = 1000 leaves no room.*1025 or more"),
        (
            'reasoning = "low"\nthinking_budget = 4096\nmax_output_tokens = 4096',
            r"thinking_budget = 4096 must be below",
        ),
        ("thinking_budget = 2048", r"reasoning is 'off'"),
        ('reasoning = "low"\nthinking_budget = 512', r"thinking_budget"),
        ("max_completion_tokenz = 5", r"unknown key.*'max_completion_tokenz'"),
    ],
)
def test_check_refuses_settings_the_api_would_refuse(tmp_path: Path, extra: str, message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        load_settings(_settings(tmp_path, "http://127.0.0.1:9", extra))


def test_smallest_max_output_tokens_that_fits_thinking_is_accepted(tmp_path: Path) -> None:
    [setting] = load_settings(
        _settings(tmp_path, "http://127.0.0.1:9", 'reasoning = "medium"\nmax_output_tokens = 1025')
    )
    body = request_body(setting, render_messages(make_task(0)))
    assert (body["max_tokens"], body["thinking"]["budget_tokens"]) == (1025, 1024)


# --- responses ------------------------------------------------------------------------------------------

STOPS = ["end_turn", "stop_sequence", "max_tokens", "refusal", "pause_turn", "model_context_window_exceeded"]
MAPPED = ["stop", "stop", "length", "refusal", "pause_turn", "model_context_window_exceeded"]


def test_stop_reasons_are_mapped(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes, script=lambda body, n: Turn(stop_reason=STOPS[_index(body)]))
    tasks = [make_task(i) for i in range(len(STOPS))]
    assert _run(tmp_path, fake.url, tasks=tasks).ok
    got = {r.task_id: r.finish_reason for r in read_records(tmp_path / "out")}
    assert got == {t.task_id: m for t, m in zip(tasks, MAPPED, strict=True)}


def test_usage_counts_every_prompt_token_and_keeps_cache_counts(fakes, tmp_path: Path) -> None:
    usages = [
        {"input_tokens": 100, "cache_read_input_tokens": 1000, "cache_creation_input_tokens": 50, "output_tokens": 20},
        {"input_tokens": 7, "output_tokens": 3},  # no cache fields at all: unknown, not 0
    ]
    fake = _fake(fakes, script=lambda body, n: Turn(usage=usages[_index(body)]))
    assert _run(tmp_path, fake.url, 'reasoning = "low"', tasks=[make_task(0), make_task(1)]).ok
    got = {r.task_id: r.usage for r in read_records(tmp_path / "out")}
    cached, plain = got["t0/short-trace-final"], got["t1/short-trace-final"]
    assert (cached.prompt_tokens, cached.completion_tokens) == (1150, 20)
    assert (cached.cache_read_tokens, cached.cache_creation_tokens) == (1000, 50)
    assert cached.reasoning_tokens is None  # thinking is not counted apart
    assert (plain.prompt_tokens, plain.completion_tokens) == (7, 3)
    assert plain.cache_read_tokens is None and plain.cache_creation_tokens is None and plain.reasoning_tokens is None


def test_default_fake_usage_reports_zero_cache_tokens(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    assert _run(tmp_path, fake.url).ok
    [record] = read_records(tmp_path / "out")
    assert record.usage.cache_read_tokens == 0 and record.usage.cache_creation_tokens == 0
    assert record.usage.prompt_tokens and record.usage.prompt_tokens > 0 and record.usage.completion_tokens


def test_parse_message_joins_blocks_and_skips_redacted_thinking() -> None:
    attempt = parse_message(
        {
            "type": "message",
            "content": [
                {"type": "thinking", "thinking": "first ", "signature": "s1"},
                {"type": "redacted_thinking", "data": "opaque"},
                {"type": "thinking", "thinking": "second", "signature": "s2"},
                {"type": "text", "text": '{"output"'},
                {"type": "text", "text": ': "1"}'},
            ],
            "stop_reason": "end_turn",
            "usage": {"input_tokens": 5, "output_tokens": 9, "output_tokens_details": {"thinking_tokens": 6}},
        }
    )
    assert (attempt.kind, attempt.text, attempt.reasoning) == ("completed", '{"output": "1"}', "first second")
    assert attempt.usage.reasoning_tokens == 6  # counted apart only where the API says so
    only_redacted = parse_message(
        {"content": [{"type": "redacted_thinking", "data": "x"}], "stop_reason": "max_tokens"}
    )
    assert (only_redacted.text, only_redacted.reasoning, only_redacted.finish_reason) == ("", None, "length")


def test_a_200_that_is_not_a_message_is_retried(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes, script=lambda body, n: json_reply({"id": "msg_x", "type": "message"}) if n == 0 else None)
    assert _run(tmp_path, fake.url).ok
    [record] = read_records(tmp_path / "out")
    assert record.status == "completed" and record.attempts == 2
    assert "not a message" in record.errors[0]
    garbage = classify_response(200, {}, b"<html>")
    assert garbage.kind == "retry" and "malformed" in (garbage.error or "")


# --- errors ---------------------------------------------------------------------------------------------


def test_rate_limit_overload_and_server_errors_are_retried_then_succeed(fakes, tmp_path: Path) -> None:
    replies = [rate_limited(retry_after=0), overloaded(), error_reply("api_error", "Internal server error")]
    fake = _fake(fakes, script=lambda body, n: replies[n] if n < len(replies) else None)
    assert _run(tmp_path, fake.url).ok
    [record] = read_records(tmp_path / "out")
    assert record.status == "completed" and record.attempts == 4 and record.text == answer(0)
    assert [e.split(": ", 1)[1].split(":")[0] for e in record.errors] == [
        "HTTP 429 rate_limit_error",
        "HTTP 529 overloaded_error",
        "HTTP 500 api_error",
    ]
    assert "(request_id req_fake)" in record.errors[1]


def test_retry_after_is_honoured(fakes, tmp_path: Path) -> None:
    times: list[float] = []
    lock = threading.Lock()

    def script(body: dict[str, Any], n: int) -> Any:
        with lock:
            times.append(time.monotonic())
        return rate_limited(retry_after=0.3) if n == 0 else None

    fake = _fake(fakes, script=script)
    assert _run(tmp_path, fake.url, backoff_max_s=5).ok  # backoff_initial_s = 0: only retry-after makes a wait
    assert len(times) == 2 and times[1] - times[0] >= 0.3
    attempt = classify_response(429, {"retry-after": "7"}, json.dumps(error_body("rate_limit_error", "slow")).encode())
    assert (attempt.kind, attempt.retry_after_s) == ("retry", 7.0)


def test_refused_key_on_messages_stops_the_setting_and_records_nothing(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes, script=lambda body, n: error_reply("authentication_error", "invalid x-api-key"))
    summary = _run(tmp_path, fake.url, tasks=[make_task(i) for i in range(3)])
    assert "claude" in summary.aborted and "authentication_error: invalid x-api-key" in summary.aborted["claude"]
    assert read_records(tmp_path / "out") == []
    assert KEY not in summary.aborted["claude"]


def test_wrong_key_is_refused_before_any_message_is_sent(fakes, tmp_path: Path, monkeypatch) -> None:
    fake = _fake(fakes)
    monkeypatch.setenv(KEY_ENV, "sk-ant-wrong")
    with pytest.raises(SettingsError, match=rf"refused the API key \(HTTP 401\).*{KEY_ENV}"):
        _run(tmp_path, fake.url)
    assert _messages(fake) == [] and len(fake.seen("GET", "/v1/models")) == 1


@pytest.mark.parametrize(
    ("status_type", "kind"),
    [
        ("permission_error", "abort"),
        ("not_found_error", "abort"),
        ("request_too_large", "final"),
        ("billing_error", "abort"),  # an account error: the setting stops, the cell stays pending (issue 51)
        ("authentication_error", "abort"),
        ("invalid_request_error", "final"),
    ],
)
def test_status_table(status_type: str, kind: str) -> None:
    content = json.dumps(error_body(status_type, "nope")).encode()
    attempt = classify_response(ERROR_STATUS[status_type], {}, content)
    assert attempt.kind == kind and f"{status_type}: nope" in (attempt.error or "")


def test_bad_request_is_recorded_as_no_response(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes, script=lambda body, n: error_reply("invalid_request_error", "prompt is too long"))
    summary = _run(tmp_path, fake.url)
    assert not summary.aborted
    [record] = read_records(tmp_path / "out")
    assert (record.status, record.attempts, record.text) == ("no-response", 1, None)
    assert "HTTP 400 invalid_request_error: prompt is too long" in record.errors[0]


def test_fake_refuses_temperature_beside_thinking_sent_through_extra_body(fakes, tmp_path: Path) -> None:
    # extra_body wins over the provider's own choice; the fake answers as the API does
    fake = _fake(fakes)
    _run(tmp_path, fake.url, 'reasoning = "low"\nextra_body = { temperature = 0.5 }')
    [record] = read_records(tmp_path / "out")
    assert record.status == "no-response"
    assert "invalid_request_error: `temperature` is not compatible with thinking" in record.errors[0]


def test_fake_refuses_openai_fields_and_a_budget_not_below_max_tokens(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    extra = 'reasoning = "low"\nextra_body = { max_tokens = 4096 }'
    _run(tmp_path, fake.url, extra)
    [record] = read_records(tmp_path / "out")
    assert "max_tokens` must be greater than `thinking.budget_tokens`" in record.errors[0]
    out2 = tmp_path / "second"
    out2.mkdir()
    _run(out2, fake.url, "extra_body = { max_completion_tokens = 5 }")
    [record2] = read_records(out2 / "out")
    assert "max_completion_tokens: Extra inputs are not permitted" in record2.errors[0]


def test_provider_classify_is_the_module_table(tmp_path: Path) -> None:
    [setting] = load_settings(_settings(tmp_path, "http://127.0.0.1:9"))
    provider = AnthropicProvider(setting, "k")
    attempt = provider.classify(529, {}, json.dumps(error_body("overloaded_error", "Overloaded")).encode())
    assert attempt.kind == "retry" and "overloaded_error: Overloaded" in (attempt.error or "")
