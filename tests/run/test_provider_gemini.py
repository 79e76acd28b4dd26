"""provider = "gemini" end to end: run_tasks against a loopback fake of generateContent that checks every
request as Google documents it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from run_helpers import answer, make_task, read_records

from execstate.errors import SettingsError
from execstate.records import Task
from execstate.run import load_settings, provider_entry, render_messages, run_tasks
from execstate.run._prompt import USER_MESSAGE
from execstate.run.providers.gemini import THINKING_BUDGETS, classify_response, parse_generate, request_body
from execstate.testing.fake_gemini import (
    DEFAULT_THOUGHT,
    FakeGemini,
    Reply,
    bad_request,
    count_tokens,
    finish,
    garbage,
    permission_denied,
    prompt_blocked,
    rate_limited,
    server_error,
)

KEY = "AIza-test-0123456789"
KEY_ENV = "EXECSTATE_TEST_GEMINI_KEY"
GENERATE = "/v1beta/models/"
_MARK = re.compile(r"print\('T(\d+)'\)")


def _index(body: dict[str, Any]) -> int:
    """Which ``make_task`` task a generateContent request is about."""
    m = _MARK.search(body["systemInstruction"]["parts"][0]["text"])
    assert m, body
    return int(m.group(1))


def _echo(body: dict[str, Any]) -> str:
    return answer(_index(body))


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)


@pytest.fixture
def fakes() -> Iterator[list[FakeGemini]]:
    started: list[FakeGemini] = []
    yield started
    for fake in started:
        fake.stop()


def _fake(fakes: list[FakeGemini], **kwargs: Any) -> FakeGemini:
    kwargs.setdefault("answer", _echo)
    fake = FakeGemini(key=KEY, **kwargs)
    fake.start()
    fakes.append(fake)
    return fake


def _settings(tmp_path: Path, url: str, model: str, extra: str = "", max_attempts: int = 4) -> Path:
    path = tmp_path / "settings.toml"
    path.write_text(
        f"""
[[setting]]
name = "gem"
provider = "gemini"
base_url = "{url}"
api_key_env = "{KEY_ENV}"
model = "{model}"
concurrency = 2
max_attempts = {max_attempts}
backoff_initial_s = 0
backoff_max_s = 0
{extra}
"""
    )
    return path


def _run(tmp_path: Path, url: str, model: str = "gemini-2.5-flash", extra: str = "", tasks: list[Task] | None = None):
    settings = _settings(tmp_path, url, model, extra)
    return run_tasks(tasks or [make_task(0)], settings, tmp_path / "out", progress=False)


def _generated(fake: FakeGemini) -> list[Any]:
    return fake.seen("POST", GENERATE)


# --- request shapes -------------------------------------------------------------------------------------


def test_reasoning_off_sends_budget_zero_and_the_sampling_fields(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    summary = _run(tmp_path, fake.url, extra="max_output_tokens = 256\ntemperature = 0.0\ntop_p = 0.9")
    assert summary.ok
    [models] = fake.seen("GET", "/v1beta/models")  # the reachability check, with the key
    [seen] = _generated(fake)
    assert models.headers["x-goog-api-key"] == KEY
    assert seen.headers["x-goog-api-key"] == KEY
    assert KEY not in seen.path and not seen.query  # the key never goes in the URL
    assert seen.path == "/v1beta/models/gemini-2.5-flash:generateContent"
    system = render_messages(make_task(0))[0]["content"]
    assert seen.json() == {
        "systemInstruction": {"parts": [{"text": system}]},
        "contents": [{"role": "user", "parts": [{"text": USER_MESSAGE}]}],
        "generationConfig": {
            "maxOutputTokens": 256,
            "temperature": 0.0,
            "topP": 0.9,
            "thinkingConfig": {"thinkingBudget": 0},
        },
    }
    [record] = read_records(tmp_path / "out")
    assert record.status == "completed" and record.text == answer(0)
    assert record.reasoning is None and record.finish_reason == "stop"
    assert record.provider == "gemini" and record.model == "gemini-2.5-flash"
    # no thinking: Google omits thoughtsTokenCount, so the reasoning count stays unknown, not 0
    assert record.usage.reasoning_tokens is None
    assert record.usage.completion_tokens == count_tokens(answer(0))
    assert record.usage.prompt_tokens == count_tokens(system + " " + USER_MESSAGE)
    assert record.usage.cache_read_tokens is None


def test_the_wire_request_is_what_is_sent(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    assert _run(tmp_path, fake.url, extra='reasoning = "low"').ok
    [seen] = _generated(fake)
    [setting] = load_settings(tmp_path / "settings.toml")
    wire = provider_entry("gemini").request(setting, render_messages(make_task(0)), 0)  # type: ignore[misc]
    assert wire.url == fake.url + seen.path
    assert wire.body == seen.json() == request_body(setting, render_messages(make_task(0)))


@pytest.mark.parametrize("reasoning", ["minimal", "low", "medium", "high"])
def test_budget_models_map_reasoning_to_a_thinking_budget_and_keep_thoughts_apart(
    fakes, tmp_path: Path, reasoning: str
) -> None:
    fake = _fake(fakes)
    assert _run(tmp_path, fake.url, extra=f'reasoning = "{reasoning}"').ok
    [seen] = _generated(fake)
    assert seen.json()["generationConfig"] == {
        "thinkingConfig": {"thinkingBudget": THINKING_BUDGETS[reasoning], "includeThoughts": True}
    }
    [record] = read_records(tmp_path / "out")
    assert record.text == answer(0)  # the thought part is not in the graded text
    assert record.reasoning == DEFAULT_THOUGHT
    assert record.usage.reasoning_tokens == count_tokens(DEFAULT_THOUGHT)
    # completion counts the hidden reasoning, as every other provider's does
    assert record.usage.completion_tokens == count_tokens(answer(0)) + count_tokens(DEFAULT_THOUGHT)


def test_the_budget_table_is_within_every_documented_25_range() -> None:
    assert THINKING_BUDGETS["off"] == 0
    on = [THINKING_BUDGETS[r] for r in ("minimal", "low", "medium", "high")]
    assert on == sorted(on) and len(set(on)) == 4
    assert all(512 <= b <= 24576 for b in on)  # Flash-Lite 512-24576, Flash 0-24576, Pro 128-32768


@pytest.mark.parametrize("reasoning", ["minimal", "low", "medium", "high"])
def test_gemini_3_maps_reasoning_to_the_thinking_level_of_the_same_name(fakes, tmp_path: Path, reasoning: str) -> None:
    fake = _fake(fakes)
    assert _run(tmp_path, fake.url, model="gemini-3-flash-preview", extra=f'reasoning = "{reasoning}"').ok
    [seen] = _generated(fake)
    assert seen.path == "/v1beta/models/gemini-3-flash-preview:generateContent"
    assert seen.json()["generationConfig"] == {"thinkingConfig": {"thinkingLevel": reasoning, "includeThoughts": True}}
    [record] = read_records(tmp_path / "out")
    assert (record.text, record.reasoning) == (answer(0), DEFAULT_THOUGHT)


def test_thinking_control_forces_the_style_and_thinking_budget_overrides_the_table(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    extra = 'reasoning = "high"\nthinking_control = "budget"\nthinking_budget = 1000'
    assert _run(tmp_path, fake.url, model="gemini-3-flash-preview", extra=extra).ok
    [seen] = _generated(fake)
    assert seen.json()["generationConfig"]["thinkingConfig"] == {"thinkingBudget": 1000, "includeThoughts": True}


def test_thinking_budget_minus_one_is_dynamic(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    assert _run(tmp_path, fake.url, extra='reasoning = "medium"\nthinking_budget = -1').ok
    [seen] = _generated(fake)
    assert seen.json()["generationConfig"]["thinkingConfig"] == {"thinkingBudget": -1, "includeThoughts": True}


def test_models_without_thinking_get_no_thinking_config(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    assert _run(tmp_path, fake.url, model="gemini-2.0-flash", extra="max_output_tokens = 64").ok
    [seen] = _generated(fake)
    assert seen.json()["generationConfig"] == {"maxOutputTokens": 64}


def test_api_version_and_a_models_prefix(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    assert _run(tmp_path, fake.url, model="models/gemini-2.5-flash", extra='api_version = "v1"').ok
    # models.get of the model (it replaced the listing as the preflight), then the generation
    assert [r.path for r in fake.requests] == [
        "/v1/models/gemini-2.5-flash",
        "/v1/models/gemini-2.5-flash:generateContent",
    ]


def test_extra_body_merges_into_generation_config(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    extra = (
        'reasoning = "low"\nmax_output_tokens = 100\n'
        "extra_body = { generationConfig = { candidateCount = 1, thinkingConfig = { includeThoughts = false } }, "
        'safetySettings = [{ category = "HARM_CATEGORY_HARASSMENT", threshold = "BLOCK_NONE" }] }'
    )
    assert _run(tmp_path, fake.url, extra=extra).ok
    [seen] = _generated(fake)
    body = seen.json()
    assert body["generationConfig"] == {
        "maxOutputTokens": 100,
        "candidateCount": 1,
        "thinkingConfig": {"thinkingBudget": THINKING_BUDGETS["low"], "includeThoughts": False},
    }
    assert body["safetySettings"] == [{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_NONE"}]
    [record] = read_records(tmp_path / "out")
    assert record.reasoning is None  # no thought summaries asked for, none returned
    assert record.usage.reasoning_tokens == count_tokens(DEFAULT_THOUGHT)  # yet the model thought


# --- what the fake refuses (the checks hold the provider to the documented shape) -----------------------


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("extra_body = { generation_config = { temperature = 1 } }", 'Unknown name "generation_config"'),
        ("extra_body = { generationConfig = { max_output_tokens = 5 } }", 'Unknown name "max_output_tokens"'),
        (
            'reasoning = "low"\nextra_body = { generationConfig = { thinkingConfig = { thinkingLevel = "low" } } }',
            "only one of thinking budget and thinking level",
        ),
    ],
)
def test_the_fake_refuses_what_google_refuses(fakes, tmp_path: Path, extra: str, message: str) -> None:
    fake = _fake(fakes)
    summary = _run(tmp_path, fake.url, extra=extra)
    assert summary.recorded["gem"]["no-response"] == 1
    [record] = read_records(tmp_path / "out")
    assert record.attempts == 1  # 400 INVALID_ARGUMENT is final
    assert "HTTP 400 INVALID_ARGUMENT" in record.errors[0] and message in record.errors[0]


# --- refusals when the settings load ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("model", "extra", "message"),
    [
        ("gemini-2.5-pro", "", r"cannot turn thinking off.*reasoning = 'minimal'"),
        ("gemini-3-flash-preview", "", r"Gemini 3 cannot turn thinking off.*reasoning = 'minimal'"),
        (
            "gemini-3-pro-preview",
            'reasoning = "minimal"',
            r"does not take thinking level 'minimal'; use one of low, high",
        ),
        ("gemini-2.0-flash", 'reasoning = "low"', r"does not think"),
        ("gemini-3-flash-preview", 'reasoning = "low"\nthinking_budget = 100', r"thinking_budget applies to"),
        ("gemini-2.5-flash", "thinking_budget = 100", r"thinking_budget applies when reasoning is on"),
        ("gemini-2.5-flash", 'reasoning = "low"\nthinking_budget = 0', r"use reasoning = 'off'"),
        ("gemini-2.5-flash", 'thinking_control = "sometimes"', r"thinking_control"),
        ("gemini-2.5-flash", 'thinking_level = "low"', r"unknown key"),
    ],
)
def test_settings_gemini_would_refuse_are_refused_before_any_request(
    fakes, tmp_path: Path, model: str, extra: str, message: str
) -> None:
    fake = _fake(fakes)
    with pytest.raises(SettingsError, match=message):
        _run(tmp_path, fake.url, model=model, extra=extra)
    assert fake.requests == []


def test_gemini_25_pro_thinks_at_minimal(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    assert _run(tmp_path, fake.url, model="gemini-2.5-pro", extra='reasoning = "minimal"').ok
    [seen] = _generated(fake)
    assert seen.json()["generationConfig"]["thinkingConfig"]["thinkingBudget"] == THINKING_BUDGETS["minimal"]


# --- finish reasons ---------------------------------------------------------------------------------------


def test_finish_reasons_are_kept_visible(fakes, tmp_path: Path) -> None:
    scripted = {
        1: finish("MAX_TOKENS", text=""),  # every token spent thinking: no answer part at all
        2: finish("MAX_TOKENS", text='{"output": "2'),
        3: finish("SAFETY"),
        4: finish("RECITATION", text=answer(4)),
        5: prompt_blocked("PROHIBITED_CONTENT"),
    }
    fake = _fake(fakes, script=lambda n, body: scripted.get(_index(body)))
    summary = _run(tmp_path, fake.url, extra='reasoning = "low"', tasks=[make_task(i) for i in range(6)])
    assert summary.ok
    records = {r.task_id: r for r in read_records(tmp_path / "out")}
    got = {int(t[1]): (r.status, r.finish_reason, r.text) for t, r in records.items()}
    assert got == {
        0: ("completed", "stop", answer(0)),
        1: ("completed", "length", ""),
        2: ("completed", "length", '{"output": "2'),
        3: ("completed", "safety", ""),
        4: ("completed", "recitation", answer(4)),
        5: ("completed", "blocked:prohibited_content", ""),
    }
    assert all(r.attempts == 1 for r in records.values())  # a finish reason is an answer: never re-sent
    assert records["t1/short-trace-final"].reasoning == DEFAULT_THOUGHT
    assert records["t1/short-trace-final"].usage.completion_tokens == count_tokens(DEFAULT_THOUGHT)
    blocked = records["t5/short-trace-final"]
    assert blocked.reasoning is None and blocked.usage.prompt_tokens is not None
    assert blocked.usage.completion_tokens is None and blocked.usage.reasoning_tokens is None


# --- errors -----------------------------------------------------------------------------------------------


def test_429_500_503_and_garbage_are_retried(fakes, tmp_path: Path) -> None:
    sequence = [rate_limited("0s"), server_error(500), server_error(503), garbage()]
    fake = _fake(fakes, script=lambda n, body: sequence[n] if n < len(sequence) else None)
    settings = _settings(tmp_path, fake.url, "gemini-2.5-flash", max_attempts=5)
    assert run_tasks([make_task(0)], settings, tmp_path / "out", progress=False).ok
    [record] = read_records(tmp_path / "out")
    assert record.status == "completed" and record.text == answer(0) and record.attempts == 5
    assert "HTTP 429 RESOURCE_EXHAUSTED: You exceeded your current quota." in record.errors[0]
    assert "HTTP 500 INTERNAL" in record.errors[1]
    assert "HTTP 503 UNAVAILABLE" in record.errors[2]
    assert "malformed response body" in record.errors[3]
    assert len(_generated(fake)) == 5


def test_a_spent_budget_of_504s_is_no_response(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes, script=lambda n, body: server_error(504))
    summary = _run(tmp_path, fake.url)
    assert summary.recorded["gem"]["no-response"] == 1
    [record] = read_records(tmp_path / "out")
    assert record.attempts == 4 and all("HTTP 504 DEADLINE_EXCEEDED" in e for e in record.errors)


def test_400_is_final_and_carries_status_and_message(fakes, tmp_path: Path) -> None:
    # (400 FAILED_PRECONDITION, the user-location refusal, is an account error: test_gemini_models.py)
    fake = _fake(fakes, script=lambda n, body: bad_request("Request contains an invalid argument."))
    summary = _run(tmp_path, fake.url, tasks=[make_task(0), make_task(1)])
    assert summary.recorded["gem"]["no-response"] == 2 and not summary.aborted
    for record in read_records(tmp_path / "out"):
        assert record.attempts == 1
        assert record.errors == ["attempt 1: HTTP 400 INVALID_ARGUMENT: Request contains an invalid argument."]


def test_403_aborts_the_setting(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes, script=lambda n, body: permission_denied())
    summary = _run(tmp_path, fake.url)
    assert "PERMISSION_DENIED" in summary.aborted["gem"]
    assert read_records(tmp_path / "out") == []


def test_a_wrong_key_aborts_the_setting(fakes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Gemini answers a wrong key with 400 INVALID_ARGUMENT / API_KEY_INVALID, not 401
    monkeypatch.setenv(KEY_ENV, "AIza-wrong")
    fake = _fake(fakes)
    summary = _run(tmp_path, fake.url, tasks=[make_task(0), make_task(1)])
    assert "API_KEY_INVALID" in summary.aborted["gem"]
    assert "AIza-wrong" not in summary.aborted["gem"]
    assert read_records(tmp_path / "out") == []


def test_no_key_is_refused_by_the_reachability_check(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    path = _settings(tmp_path, fake.url, "gemini-2.5-flash").read_text().replace(f'api_key_env = "{KEY_ENV}"\n', "")
    (tmp_path / "nokey.toml").write_text(path)
    with pytest.raises(SettingsError, match=r"refused the API key \(HTTP 403\)"):
        run_tasks([make_task(0)], tmp_path / "nokey.toml", tmp_path / "out", progress=False)
    assert _generated(fake) == []


def test_the_vendor_root_needs_a_key_variable(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text('[[setting]]\nname = "g"\nprovider = "gemini"\nmodel = "gemini-2.5-flash"\n')
    with pytest.raises(SettingsError, match="api_key_env"):
        run_tasks([make_task(0)], path, tmp_path / "out", progress=False)


# --- the classification and parse, directly ---------------------------------------------------------------


def test_retry_delay_comes_from_retry_info_or_retry_after() -> None:
    reply = rate_limited("7s")
    attempt = classify_response(429, {}, json.dumps(reply.body).encode())
    assert (attempt.kind, attempt.retry_after_s) == ("retry", 7.0)
    fractional = classify_response(429, {}, json.dumps(rate_limited("1.500s").body).encode())
    assert fractional.retry_after_s == 1.5
    header = classify_response(429, {"retry-after": "3"}, json.dumps(reply.body).encode())
    assert header.retry_after_s == 3.0
    none = classify_response(429, {}, json.dumps(rate_limited(None).body).encode())
    assert (none.kind, none.retry_after_s) == ("retry", None)


def test_non_google_error_bodies_fall_back_to_the_status() -> None:
    assert classify_response(502, {}, b"<html>bad gateway</html>").kind == "retry"
    assert classify_response(404, {}, b"not found").kind == "abort"
    assert classify_response(400, {}, b"{}").kind == "final"


def test_parse_generate_reads_parts_and_usage() -> None:
    data = {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [
                        {"text": "first thought. ", "thought": True},
                        {"text": '{"output": '},
                        {"text": "second", "thought": True},
                        {"text": '"7"}', "thoughtSignature": "abc"},
                    ],
                },
                "finishReason": "STOP",
                "index": 0,
            }
        ],
        "usageMetadata": {
            "promptTokenCount": 40,
            "candidatesTokenCount": 6,
            "thoughtsTokenCount": 90,
            "cachedContentTokenCount": 32,
            "totalTokenCount": 136,
        },
    }
    attempt = parse_generate(data)
    assert attempt.kind == "completed"
    assert attempt.text == '{"output": "7"}'
    assert attempt.reasoning == "first thought. second"
    assert attempt.usage.model_dump() == {
        "prompt_tokens": 40,
        "completion_tokens": 96,
        "reasoning_tokens": 90,
        "cache_read_tokens": 32,
        "cache_creation_tokens": None,
    }


def test_parse_generate_without_candidates_or_block_is_retried() -> None:
    assert parse_generate({"usageMetadata": {"promptTokenCount": 3}}).kind == "retry"
    assert parse_generate({"candidates": []}).kind == "retry"
    assert parse_generate({"candidates": ["x"]}).kind == "retry"
    assert parse_generate({"candidates": [{"finishReason": "OTHER"}]}).finish_reason == "other"
    assert parse_generate({"candidates": [{}]}).usage.completion_tokens is None


def test_a_scripted_reply_with_a_body_is_sent_as_is(fakes, tmp_path: Path) -> None:
    body = {"candidates": [{"content": {"parts": [{"text": "hi"}]}, "finishReason": "MALFORMED_FUNCTION_CALL"}]}
    fake = _fake(fakes, script=lambda n, b: Reply(body=body))
    assert _run(tmp_path, fake.url).ok
    [record] = read_records(tmp_path / "out")
    assert (record.text, record.finish_reason) == ("hi", "malformed_function_call")
    assert record.usage.prompt_tokens is None  # no usageMetadata: unknown, not 0
