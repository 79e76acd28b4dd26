"""provider = "gemini" and today's models and accounts: the capability table, models.get before the first cell,
account-level errors that stop the setting without recording a cell, the served model, and streaming; all
through run_tasks against the loopback fake on 127.0.0.1."""

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
from execstate.run import run_tasks
from execstate.run._prompt import render_messages
from execstate.run._settings import Setting
from execstate.run.providers._models import GEMINI_MODELS
from execstate.run.providers.gemini import (
    THINKING_BUDGETS,
    classify_response,
    output_tokens,
    resolved_capabilities,
    thinking_config,
)
from execstate.testing.fake_gemini import (
    DEFAULT_THOUGHT,
    FakeGemini,
    FakeModel,
    daily_quota,
    location_unsupported,
    minute_quota,
    permission_denied,
    stream_cut,
)

KEY = "AIza-good-0123456789"
KEY_ENV = "EXECSTATE_TEST_GEMINI_MODELS_KEY"
GENERATE = "/v1beta/models/"
_MARK = re.compile(r"print\('T(\d+)'\)")


def _echo(body: dict[str, Any]) -> str:
    m = _MARK.search(body["systemInstruction"]["parts"][0]["text"])
    assert m, body
    return answer(int(m.group(1)))


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


def _settings(tmp_path: Path, url: str, model: str, extra: str = "", concurrency: int = 2) -> Path:
    path = tmp_path / "settings.toml"
    path.write_text(
        f"""
[[setting]]
name = "gem"
provider = "gemini"
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


def _run(
    tmp_path: Path,
    url: str,
    model: str = "gemini-2.5-flash",
    extra: str = "",
    tasks: list[Task] | None = None,
    concurrency: int = 2,
):
    settings = _settings(tmp_path, url, model, extra, concurrency)
    return run_tasks(tasks or [make_task(0)], settings, tmp_path / "out", progress=False)


def _generated(fake: FakeGemini) -> list[Any]:
    return [r for r in fake.seen("POST", GENERATE) if ":" in r.path.rsplit("/", 1)[-1]]


def _setting(model: str, **over: Any) -> Setting:
    return Setting.model_validate({"name": "g", "provider": "gemini", "model": model, **over})


# --- the capability table: what each family is sent -------------------------------------------------------


def test_every_gemini_row_names_a_google_page() -> None:
    for family, caps in GEMINI_MODELS.items():
        assert caps.family == family
        assert caps.source.startswith("https://ai.google.dev/gemini-api/docs/"), family


@pytest.mark.parametrize(
    ("model", "reasoning", "sent"),
    [
        ("gemini-2.5-flash", "off", {"thinkingBudget": 0}),
        ("gemini-2.5-flash-lite", "off", {"thinkingBudget": 0}),
        ("gemini-2.5-flash-lite", "minimal", {"thinkingBudget": 512, "includeThoughts": True}),
        ("gemini-2.5-pro", "high", {"thinkingBudget": THINKING_BUDGETS["high"], "includeThoughts": True}),
        ("gemini-3-pro-preview", "low", {"thinkingLevel": "low", "includeThoughts": True}),
        ("gemini-3-pro-preview", "high", {"thinkingLevel": "high", "includeThoughts": True}),
        ("gemini-3-flash-preview", "minimal", {"thinkingLevel": "minimal", "includeThoughts": True}),
        ("gemini-3.1-pro-preview", "medium", {"thinkingLevel": "medium", "includeThoughts": True}),
        ("gemini-2.0-flash", "off", None),
    ],
)
def test_each_family_gets_a_request_its_model_accepts(
    fakes, tmp_path: Path, model: str, reasoning: str, sent: dict[str, Any] | None
) -> None:
    fake = _fake(fakes)
    assert thinking_config(_setting(model, reasoning=reasoning)) == sent
    summary = _run(tmp_path, fake.url, model=model, extra=f'reasoning = "{reasoning}"')
    assert summary.ok, summary  # the fake refuses, as Google does, a level or budget the model lacks
    [seen] = _generated(fake)
    assert seen.json().get("generationConfig", {}).get("thinkingConfig") == sent


@pytest.mark.parametrize(
    ("model", "extra", "message"),
    [
        (
            "gemini-3-pro-preview",
            'reasoning = "minimal"',
            r"does not take thinking level 'minimal'; use one of low, high",
        ),
        ("gemini-3-pro-preview", 'reasoning = "medium"', r"use one of low, high"),
        ("gemini-3.1-pro-preview", 'reasoning = "minimal"', r"use one of low, medium, high"),
        ("gemini-3-pro-preview", "", r"cannot turn thinking off.*use reasoning = 'low'"),
        ("gemini-3.1-pro-preview", "", r"cannot turn thinking off.*use reasoning = 'low'"),
        ("gemini-3-flash-preview", "", r"cannot turn thinking off.*use reasoning = 'minimal'"),
        ("gemini-2.5-pro", "", r"cannot turn thinking off \(its thinkingBudget range is 128-32768\)"),
        ("gemini-3-flash-preview", 'reasoning = "xhigh"', r"'xhigh'; use one of minimal, low, medium, high"),
        ("gemini-2.5-flash", 'reasoning = "max"', r"no reasoning 'max'.*thinking_budget = up to 24576"),
        ("gemini-2.5-flash", 'reasoning = "low"\nthinking_budget = 30000', r"0-24576 \(or -1\), not 30000"),
        ("gemini-2.5-flash-lite", 'reasoning = "low"\nthinking_budget = 100', r"512-24576 \(or -1\), not 100"),
        ("gemini-3-pro-preview", 'reasoning = "low"\neffort = "medium"', r"'medium' \(effort\); use one of low, high"),
        ("gemini-2.5-flash", 'reasoning = "low"\neffort = "high"', r"takes a thinking budget, not a level"),
    ],
)
def test_what_the_model_lacks_is_refused_at_load_naming_what_it_takes(
    fakes, tmp_path: Path, model: str, extra: str, message: str
) -> None:
    fake = _fake(fakes)
    with pytest.raises(SettingsError, match=message):
        _run(tmp_path, fake.url, model=model, extra=extra)
    assert fake.requests == []  # refused before any request, models.get included


def test_effort_sends_the_level_as_is_and_an_unknown_model_takes_the_default_row(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes, models={"gemini-9": FakeModel(levels=("low", "deep"))})
    assert _run(tmp_path, fake.url, model="gemini-9-ultra", extra='reasoning = "high"\neffort = "deep"').ok
    [seen] = _generated(fake)
    assert seen.json()["generationConfig"]["thinkingConfig"] == {"thinkingLevel": "deep", "includeThoughts": True}
    models = json.loads((tmp_path / "out" / "models.json").read_text())
    assert models["gem"]["family"] == "default"
    assert models["gem"]["source"].startswith("default; ") and models["gem"]["source"].endswith("/gemini-9-ultra")


def test_max_output_tokens_is_lowered_to_the_models_cap(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    assert output_tokens(_setting("gemini-2.5-flash", max_output_tokens=100_000)) == 65_536
    assert output_tokens(_setting("gemini-2.5-flash", max_output_tokens=100_000, max_output_limit=50_000)) == 50_000
    assert _run(tmp_path, fake.url, extra="max_output_tokens = 100000\nstream = false").ok
    [seen] = _generated(fake)
    assert seen.json()["generationConfig"]["maxOutputTokens"] == 65_536  # the fake refuses 65,537 and above
    models = json.loads((tmp_path / "out" / "models.json").read_text())
    assert "maxOutputTokens 100000 lowered to the model's cap 65536" in models["gem"]["notes"]
    assert models["gem"]["max_output_tokens"] == 65_536


def test_sampling_drop_leaves_temperature_and_top_p_out(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    assert _run(tmp_path, fake.url, extra='temperature = 0.2\ntop_p = 0.9\nsampling = "drop"').ok
    [seen] = _generated(fake)
    assert set(seen.json()["generationConfig"]) == {"thinkingConfig"}


def test_the_resolved_capabilities_are_in_the_manifest_and_models_json(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    assert _run(tmp_path, fake.url, model="gemini-3-pro-preview", extra='reasoning = "low"').ok
    models = json.loads((tmp_path / "out" / "models.json").read_text())
    gem = models["gem"]
    assert (gem["family"], gem["thinking"], gem["efforts"], gem["off"]) == (
        "gemini-3-pro",
        ["level"],
        ["low", "high"],
        None,
    )
    assert "the model cannot turn thinking off: reasoning 'off' is refused" in gem["notes"]
    assert any(n.startswith("models.get: ") and '"outputTokenLimit"' not in n and "65536" in n for n in gem["notes"])
    manifest = json.loads((tmp_path / "out" / "run_manifest.json").read_text())
    assert manifest["models"]["gem"] == gem
    assert resolved_capabilities(_setting("gemini-2.5-flash")).notes == ("reasoning 'off' sent as thinkingBudget 0",)


# --- models.get refuses before the first cell ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("fake_model", "model", "extra", "message"),
    [
        (
            FakeModel(levels=("low", "high"), output_limit=8_192),
            "gemini-3-pro-x",
            'reasoning = "low"\nmax_output_tokens = 10000',
            r"writes at most 8192 tokens.*max_output_tokens <= 8192",
        ),
        (
            FakeModel(thinking=False),
            "gemini-3-flash-nothink",
            'reasoning = "low"',
            r"does not think \(models.get: thinking = false\)",
        ),
    ],
)
def test_models_get_refuses_the_setting_before_its_first_cell(
    fakes, tmp_path: Path, fake_model: FakeModel, model: str, extra: str, message: str
) -> None:
    fake = _fake(fakes, models={model: fake_model})
    with pytest.raises(SettingsError, match=message):
        _run(tmp_path, fake.url, model=model, extra=extra)
    assert [r.path for r in fake.requests] == [f"/v1beta/models/{model}"]
    assert read_records(tmp_path / "out") == []


def test_a_model_without_generate_content_is_refused(fakes, tmp_path: Path) -> None:
    embed = FakeGemini(key=KEY, answer=_echo)
    embed._model_get = _embed_only(embed)  # type: ignore[method-assign]  # routes are bound at start
    embed.start()
    fakes.append(embed)
    with pytest.raises(SettingsError, match=r"does not support generateContent \(models.get: embedContent\)"):
        _run(tmp_path, embed.url)
    assert _generated(embed) == []


def _embed_only(fake: FakeGemini) -> Any:
    original = fake._model_get

    async def handler(request):
        resp = await original(request)
        data = json.loads(resp.text or "{}")
        data["supportedGenerationMethods"] = ["embedContent"]
        resp.text = json.dumps(data)
        return resp

    return handler


# --- account-level errors stop the setting; nothing is recorded; a good key answers all ---------------------

ACCOUNT = {
    "AIza-location": location_unsupported(),
    "AIza-daily": daily_quota(),
    "AIza-revoked": permission_denied(),
}


@pytest.mark.parametrize(
    ("key", "status"),
    [
        ("AIza-location", "FAILED_PRECONDITION"),
        ("AIza-daily", "RESOURCE_EXHAUSTED"),
        ("AIza-revoked", "PERMISSION_DENIED"),
        ("AIza-unknown", "API_KEY_INVALID"),
    ],
)
def test_an_account_error_stops_the_setting_and_records_no_cell(
    fakes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, key: str, status: str
) -> None:
    fake = _fake(fakes, accounts=ACCOUNT)
    tasks = [make_task(i) for i in range(12)]
    concurrency = 3
    monkeypatch.setenv(KEY_ENV, key)
    summary = _run(tmp_path, fake.url, tasks=tasks, concurrency=concurrency)
    assert status in summary.aborted["gem"] and key not in summary.aborted["gem"]
    assert read_records(tmp_path / "out") == []  # every cell stays pending
    assert 1 <= len(_generated(fake)) <= concurrency + 2  # never retried, the rest never sent
    monkeypatch.setenv(KEY_ENV, KEY)  # the account is fixed: the same command answers every cell
    assert _run(tmp_path, fake.url, tasks=tasks, concurrency=concurrency).ok
    records = read_records(tmp_path / "out")
    assert sorted(r.text for r in records) == sorted(answer(i) for i in range(12))
    assert all(r.status == "completed" and r.attempts == 1 for r in records)


def test_a_per_minute_429_is_retried_not_an_account_error(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes, script=lambda n, body: minute_quota() if n == 0 else None)
    assert _run(tmp_path, fake.url).ok
    [record] = read_records(tmp_path / "out")
    assert record.attempts == 2 and "RESOURCE_EXHAUSTED" in record.errors[0]


def test_the_classification_of_account_errors() -> None:
    def kind(reply: Any) -> str:
        return classify_response(reply.status, {}, json.dumps(reply.body).encode()).kind

    assert kind(location_unsupported()) == "abort"
    assert kind(daily_quota()) == "abort"
    assert kind(permission_denied()) == "abort"
    assert kind(minute_quota()) == "retry"
    assert daily_quota().body["error"]["details"][1]["retryDelay"] == "3s"  # a retry delay does not make it retried


# --- the served model and the request id -------------------------------------------------------------------


def test_model_version_and_response_id_are_recorded(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    assert _run(tmp_path, fake.url, model="gemini-3-flash-preview", extra='reasoning = "low"').ok
    [record] = read_records(tmp_path / "out")
    line = json.loads((tmp_path / "out" / "responses.jsonl").read_text().splitlines()[0])
    assert (line["served_model"], line["request_id"]) == ("gemini-3-flash-preview", "fake-0")
    assert record.model == "gemini-3-flash-preview" and record.service_tier is None  # Gemini names no tier


# --- streaming -----------------------------------------------------------------------------------------------


def test_a_streamed_answer_is_recorded_like_a_whole_one(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes)
    tasks = [make_task(i) for i in range(3)]
    (tmp_path / "whole").mkdir()
    (tmp_path / "stream").mkdir()
    assert _run(tmp_path / "whole", fake.url, extra='reasoning = "low"', tasks=tasks).ok
    assert _run(tmp_path / "stream", fake.url, extra='reasoning = "low"\nstream = true', tasks=tasks).ok
    streamed = [r for r in fake.requests if "streamGenerateContent" in r.path]
    assert len(streamed) == 3 and all(r.query == {"alt": "sse"} for r in streamed)
    assert all("stream" not in r.json() for r in streamed)  # the method, not a body field, streams
    drop = {"latency_s", "started_at", "finished_at", "request_id"}
    whole = {r.task_id: r.model_dump(exclude=drop) for r in read_records(tmp_path / "whole" / "out")}
    stream = {r.task_id: r.model_dump(exclude=drop) for r in read_records(tmp_path / "stream" / "out")}
    assert stream == whole
    record = next(iter(read_records(tmp_path / "stream" / "out")))
    assert record.reasoning == DEFAULT_THOUGHT and record.served_model == "gemini-2.5-flash"


def test_a_broken_stream_is_retried_and_its_partial_text_never_recorded(fakes, tmp_path: Path) -> None:
    fake = _fake(fakes, script=lambda n, body: stream_cut() if n == 0 else None)
    assert _run(tmp_path, fake.url, extra='reasoning = "low"\nstream = true').ok
    [record] = read_records(tmp_path / "out")
    assert record.status == "completed" and record.text == answer(0) and record.attempts == 2
    assert "stream ended without a finishReason" in record.errors[0]
    assert len([r for r in fake.requests if "streamGenerateContent" in r.path]) == 2


def test_the_offline_request_is_the_one_sent(fakes, tmp_path: Path) -> None:
    # run --plan and the response cache build the request without network: capped, mapped, the same bytes
    from execstate.run import load_settings, provider_entry

    fake = _fake(fakes)
    extra = 'reasoning = "high"\nmax_output_tokens = 90000\nstream = false\ntemperature = 0.5'
    assert _run(tmp_path, fake.url, model="gemini-3-pro-preview", extra=extra).ok
    [seen] = _generated(fake)
    [setting] = load_settings(tmp_path / "settings.toml")
    wire = provider_entry("gemini").request(setting, render_messages(make_task(0)), 0)
    assert wire.body == seen.json()
    assert wire.url == fake.url + "/v1beta/models/gemini-3-pro-preview:generateContent"
    assert wire.body["generationConfig"]["maxOutputTokens"] == 65_536
