"""``provider = "openai-responses"`` end to end: run_tasks against a loopback fake of OpenAI's Responses API."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from run_helpers import make_task, read_records

from execstate.run import SettingsError, load_settings, provider_entry, run_tasks
from execstate.run._prompt import USER_MESSAGE, render_messages
from execstate.run.providers.openai_responses import error_attempt, parse_response
from execstate.testing.fake_openai import (
    Failed,
    FakeOpenAIResponses,
    Garbage,
    Incomplete,
    Refusal,
    bad_request,
    insufficient_quota,
    rate_limited,
    server_error,
    unauthorized,
)

KEY = "sk-resp-test-key"
ENV = "EXECSTATE_TEST_RESPONSES_KEY"
_MARK = re.compile(r"print\('T(\d+)'\)")


def index_of(body: dict[str, Any]) -> int:
    """Which ``make_task`` task a request body is about (its marker is in ``instructions``)."""
    m = _MARK.search(body["instructions"])
    assert m, body["instructions"]
    return int(m.group(1))


def right_answer(body: dict[str, Any]) -> str:
    return json.dumps({"output": str(index_of(body))})


@pytest.fixture
def key_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, KEY)


@pytest.fixture
def fakes() -> Iterator[list[FakeOpenAIResponses]]:
    started: list[FakeOpenAIResponses] = []
    yield started
    for fake in started:
        fake.stop()


def start(fakes: list[FakeOpenAIResponses], **kwargs: Any) -> FakeOpenAIResponses:
    fake = FakeOpenAIResponses(key=KEY, answer=kwargs.pop("answer", right_answer), **kwargs)
    fake.start()
    fakes.append(fake)
    return fake


def settings_file(tmp_path: Path, fake: FakeOpenAIResponses, extra: str = "", concurrency: int = 2) -> Path:
    path = tmp_path / "settings.toml"
    path.write_text(
        f"""
[[setting]]
name = "r"
provider = "openai-responses"
base_url = "{fake.url}/v1"
api_key_env = "{ENV}"
model = "gpt-test"
concurrency = {concurrency}
max_attempts = 4
backoff_initial_s = 0
{extra}
""",
        encoding="utf-8",
    )
    return path


def by_task(out: Path) -> dict[str, Any]:
    return {r.task_id: r for r in read_records(out)}


def test_reasoning_off_sends_the_documented_body_and_records_the_answer(tmp_path, key_env, fakes):
    fake = start(fakes)
    tasks = [make_task(1), make_task(2)]
    out = tmp_path / "out"
    summary = run_tasks(tasks, settings_file(tmp_path, fake, "top_p = 0.5"), out)

    assert summary.ok
    models = fake.seen("GET", "/v1/models")
    assert len(models) == 1 and models[0].headers["authorization"] == f"Bearer {KEY}"
    posts = fake.seen("POST", "/v1/responses")
    assert len(posts) == 2 and all(p.headers["authorization"] == f"Bearer {KEY}" for p in posts)
    for body in fake.responses():
        task = tasks[index_of(body) - 1]
        assert set(body) == {"model", "instructions", "input", "store", "top_p"}
        assert body["model"] == "gpt-test"
        assert body["instructions"] == render_messages(task)[0]["content"]
        assert body["input"] == [{"role": "user", "content": USER_MESSAGE}]
        assert body["store"] is False and body["top_p"] == 0.5
        assert "reasoning" not in body

    records = by_task(out)
    for i in (1, 2):
        rec = records[f"t{i}/short-trace-final"]
        assert rec.status == "completed" and rec.attempts == 1 and rec.errors == []
        assert rec.text == json.dumps({"output": str(i)})
        assert rec.reasoning is None
        assert rec.finish_reason == "stop"
        assert rec.provider == "openai-responses" and rec.model == "gpt-test"
        assert rec.usage.prompt_tokens and rec.usage.prompt_tokens > 0
        assert rec.usage.completion_tokens == 2  # '{"output": "1"}' is two words to the fake, no reasoning
        assert rec.usage.reasoning_tokens == 0
        assert rec.usage.cache_read_tokens == 0  # sent as 0: a real zero, not unknown
        assert rec.usage.cache_creation_tokens is None  # not sent: unknown


def test_reasoning_on_sends_effort_and_summary_and_records_the_summary_apart(tmp_path, key_env, fakes):
    fake = start(fakes, cached_tokens=7, cache_write_tokens=3)
    out = tmp_path / "out"
    extra = 'reasoning = "high"\nmax_output_tokens = 4096\nreasoning_summary = "auto"'
    assert run_tasks([make_task(3)], settings_file(tmp_path, fake, extra), out).ok

    (body,) = fake.responses()
    assert body["reasoning"] == {"effort": "high", "summary": "auto"}
    assert body["max_output_tokens"] == 4096
    assert "max_completion_tokens" not in body and "reasoning_effort" not in body
    (rec,) = read_records(out)
    assert rec.text == '{"output": "3"}'  # the graded text holds no summary
    assert rec.reasoning is not None and "Reasoned at high effort" in rec.reasoning
    assert "Reasoned" not in rec.text
    assert rec.finish_reason == "stop"
    assert rec.usage.reasoning_tokens == 256
    assert rec.usage.completion_tokens == 2 + 256  # output_tokens counts the hidden reasoning
    assert rec.usage.cache_read_tokens == 7
    assert rec.usage.cache_creation_tokens == 3


def test_summary_off_store_on_and_extra_body_last(tmp_path, key_env, fakes):
    fake = start(fakes)
    out = tmp_path / "out"
    extra = (
        'reasoning = "minimal"\nreasoning_summary = ""\nstore = true\n'
        'extra_body = { service_tier = "flex", store = false }'
    )
    assert run_tasks([make_task(4)], settings_file(tmp_path, fake, extra), out).ok

    (body,) = fake.responses()
    assert body["reasoning"] == {"effort": "minimal"}
    assert body["service_tier"] == "flex"
    assert body["store"] is False  # extra_body wins over the store option
    (rec,) = read_records(out)
    assert rec.reasoning is None  # a reasoning item with an empty summary is no reasoning text
    assert rec.usage.reasoning_tokens == 4


def test_store_option_is_sent(tmp_path, key_env, fakes):
    fake = start(fakes)
    assert run_tasks([make_task(1)], settings_file(tmp_path, fake, "store = true"), tmp_path / "out").ok
    assert fake.responses()[0]["store"] is True


def test_the_wire_request_is_the_request_sent(tmp_path, key_env, fakes):
    fake = start(fakes)
    path = settings_file(tmp_path, fake, 'reasoning = "low"\nmax_output_tokens = 64')
    task = make_task(5)
    assert run_tasks([task], path, tmp_path / "out").ok
    request = provider_entry("openai-responses").request
    assert request is not None
    wire = request(load_settings(path)[0], render_messages(task), 0)
    assert wire.url == f"{fake.url}/v1/responses"
    assert wire.body == fake.responses()[0]


def test_finish_reasons(tmp_path, key_env, fakes):
    outcomes = {
        1: Incomplete("max_output_tokens", '{"output": "1'),
        2: Incomplete("content_filter", ""),
        3: Refusal("I can't help with that."),
        4: Incomplete("max_output_tokens", None),  # every token spent on reasoning: no message item
    }
    fake = start(fakes, script=lambda body, seen: outcomes.get(index_of(body)))
    out = tmp_path / "out"
    summary = run_tasks(
        [make_task(i) for i in range(1, 6)],
        settings_file(tmp_path, fake, 'reasoning = "medium"\nreasoning_summary = "auto"'),
        out,
    )

    assert summary.ok
    recs = by_task(out)
    got = {
        i: (recs[f"t{i}/short-trace-final"].text, recs[f"t{i}/short-trace-final"].finish_reason) for i in range(1, 6)
    }
    assert got == {
        1: ('{"output": "1', "length"),
        2: ("", "content_filter"),
        3: ("", "refusal"),
        4: ("", "length"),
        5: ('{"output": "5"}', "stop"),
    }
    assert all(r.status == "completed" and r.attempts == 1 for r in recs.values())
    assert recs["t4/short-trace-final"].usage.reasoning_tokens == 64
    assert recs["t4/short-trace-final"].reasoning is not None  # the summary survives a cut answer


def test_failed_responses_retry_when_transient_else_final(tmp_path, key_env, fakes):
    def script(body: dict[str, Any], seen: int) -> Any:
        i = index_of(body)
        if i == 1 and seen == 0:
            return Failed("server_error", "The model had a hiccup.")
        if i == 2:
            return Failed("invalid_prompt", "Your prompt was flagged.")
        return None

    fake = start(fakes, script=script)
    out = tmp_path / "out"
    run_tasks([make_task(1), make_task(2)], settings_file(tmp_path, fake), out)

    recs = by_task(out)
    one, two = recs["t1/short-trace-final"], recs["t2/short-trace-final"]
    assert one.status == "completed" and one.attempts == 2 and one.text == '{"output": "1"}'
    assert "server_error" in one.errors[0] and "The model had a hiccup." in one.errors[0]
    assert two.status == "no-response" and two.attempts == 1
    assert "code=invalid_prompt" in two.errors[0] and "Your prompt was flagged." in two.errors[0]


def test_http_errors_retry_or_end_the_cell(tmp_path, key_env, fakes):
    def script(body: dict[str, Any], seen: int) -> Any:
        i = index_of(body)
        if i == 1 and seen == 0:
            return rate_limited(retry_after_ms=1)
        if i == 2 and seen == 0:
            return rate_limited(retry_after="0")
        if i == 3 and seen < 2:
            return server_error()
        if i == 4:
            return bad_request("Invalid value for 'input'.", "input", "invalid_value")
        if i == 5 and seen == 0:
            return Garbage()
        return None

    fake = start(fakes, script=script)
    out = tmp_path / "out"
    run_tasks([make_task(i) for i in range(1, 6)], settings_file(tmp_path, fake), out)

    recs = {int(k[1]): r for k, r in by_task(out).items()}
    assert [(i, recs[i].status, recs[i].attempts) for i in range(1, 6)] == [
        (1, "completed", 2),
        (2, "completed", 2),
        (3, "completed", 3),
        (4, "no-response", 1),
        (5, "completed", 2),
    ]
    assert "HTTP 429" in recs[1].errors[0] and "code=rate_limit_exceeded" in recs[1].errors[0]
    assert "type=requests" in recs[1].errors[0]
    assert all("HTTP 500" in e and "type=server_error" in e for e in recs[3].errors)
    assert "HTTP 400" in recs[4].errors[0] and "type=invalid_request_error" in recs[4].errors[0]
    assert "param=input" in recs[4].errors[0]
    assert "malformed response body" in recs[5].errors[0]
    assert KEY not in json.dumps([r.errors for r in recs.values()])


def test_the_fake_refuses_chat_fields_as_openai_does(tmp_path, key_env, fakes):
    fake = start(fakes)
    out = tmp_path / "out"
    run_tasks([make_task(1)], settings_file(tmp_path, fake, "extra_body = { max_tokens = 100 }"), out)
    (rec,) = read_records(out)
    assert rec.status == "no-response" and rec.attempts == 1
    assert "HTTP 400" in rec.errors[0] and "code=unknown_parameter" in rec.errors[0] and "max_tokens" in rec.errors[0]


@pytest.mark.parametrize(
    ("action", "needle"), [(unauthorized(), "code=invalid_api_key"), (insufficient_quota(), "insufficient_quota")]
)
def test_a_refused_key_or_spent_quota_stops_the_setting_recording_nothing(tmp_path, key_env, fakes, action, needle):
    fake = start(fakes, script=lambda body, seen: action)
    out = tmp_path / "out"
    summary = run_tasks([make_task(1), make_task(2)], settings_file(tmp_path, fake, concurrency=1), out)
    assert needle in summary.aborted["r"]
    assert read_records(out) == []
    assert len(fake.responses()) == 1  # nothing retried after the abort


def test_a_wrong_key_is_refused_before_any_request(tmp_path, monkeypatch, fakes):
    fake = start(fakes)
    monkeypatch.setenv(ENV, "sk-wrong")
    with pytest.raises(SettingsError, match="refused the API key"):
        run_tasks([make_task(1)], settings_file(tmp_path, fake), tmp_path / "out")
    assert fake.responses() == []
    assert fake.seen("GET", "/v1/models")


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        ('reasoning_field = "reasoning_effort_x"', "does not use reasoning_field"),
        ('max_tokens_field = "max_tokens"', "does not use max_tokens_field"),
        ("max_output_tokens = 8", "max_output_tokens must be >= 16"),
        ('reasoning_summary = "verbose"', "reasoning_summary"),
    ],
)
def test_settings_the_api_would_refuse_are_refused_at_load(tmp_path, fakes, extra, needle):
    fake = start(fakes)
    with pytest.raises(SettingsError, match=needle):
        load_settings(settings_file(tmp_path, fake, extra))


def test_retry_after_headers_are_read():
    ms = error_attempt(429, {"retry-after-ms": "1500"}, b'{"error": {"message": "slow", "type": "requests"}}')
    assert (ms.kind, ms.retry_after_s) == ("retry", 1.5)
    s = error_attempt(503, {"retry-after": "2"}, b"upstream down")
    assert (s.kind, s.retry_after_s) == ("retry", 2.0)
    assert s.error == "HTTP 503: upstream down"  # a body that is no OpenAI error is quoted as it came


def test_usage_the_vendor_does_not_send_stays_unknown():
    base = {"status": "completed", "output": []}
    assert parse_response(base).usage.model_dump() == dict.fromkeys(
        ("prompt_tokens", "completion_tokens", "reasoning_tokens", "cache_read_tokens", "cache_creation_tokens")
    )
    partial = parse_response({**base, "usage": {"input_tokens": 5, "output_tokens": 9}}).usage
    assert (partial.prompt_tokens, partial.completion_tokens) == (5, 9)
    assert partial.reasoning_tokens is None and partial.cache_read_tokens is None


def test_a_body_that_is_no_finished_response_is_retried():
    assert parse_response({"status": "in_progress", "output": []}).kind == "retry"
    assert parse_response({"object": "list"}).kind == "retry"
    err = parse_response({"error": {"type": "server_error", "message": "boom"}})
    assert err.kind == "retry" and "boom" in (err.error or "")
