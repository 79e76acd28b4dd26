"""OpenAI models and accounts: the capability table's mapping of ``reasoning`` and sampling (refused at load where
the model would refuse), account errors that stop a setting with no cell recorded, the served model, request id
and service tier on every record, and streamed answers (chat and Responses), against the loopback fakes."""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from run_helpers import cli_command, make_task, read_records

from execstate.records import write_jsonl
from execstate.run import SettingsError, load_settings, provider_entry, render_messages, run_tasks
from execstate.run.providers._http import SseEvent
from execstate.run.providers.openai import classify_response, parse_chunks, resolved_caps
from execstate.run.providers.openai_responses import parse_events
from execstate.testing.fake_openai import (
    BrokenStream,
    FakeOpenAIResponses,
    bad_request,
    insufficient_quota,
    region_refused,
    unauthorized,
    unverified_organization,
)
from execstate.testing.loopback import Reply, ScriptedServer

KEY = "sk-openai-good"
QUOTA = "sk-openai-no-quota"
UNVERIFIED = "sk-openai-unverified"
ENV = "EXECSTATE_TEST_OPENAI_MODELS_KEY"
_MARK = re.compile(r"print\('T(\d+)'\)")


def index_of(body: dict[str, Any]) -> int:
    text = body["instructions"] if "instructions" in body else body["messages"][0]["content"]
    m = _MARK.search(text)
    assert m, text
    return int(m.group(1))


def right_answer(body: dict[str, Any]) -> str:
    return json.dumps({"output": str(index_of(body))})


@pytest.fixture
def key_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.setenv(ENV, KEY)
    return monkeypatch


@pytest.fixture
def fake() -> Iterator[FakeOpenAIResponses]:
    server = FakeOpenAIResponses(
        key=KEY, answer=right_answer, accounts={QUOTA: "insufficient_quota", UNVERIFIED: "unverified"}
    )
    server.start()
    yield server
    server.stop()


def settings(tmp_path: Path, fake: FakeOpenAIResponses, model: str, extra: str = "", **over: Any) -> Path:
    fields = {
        "name": "s",
        "provider": "openai-responses",
        "base_url": f"{fake.url}/v1",
        "api_key_env": ENV,
        "model": model,
        "concurrency": 2,
        "max_attempts": 4,
        "backoff_initial_s": 0,
        **over,
    }
    lines = "\n".join(f"{k} = {json.dumps(v)}" for k, v in fields.items())
    path = tmp_path / "settings.toml"
    path.write_text(f"[[setting]]\n{lines}\n{extra}\n", encoding="utf-8")
    return path


def models_json(out: Path) -> dict[str, Any]:
    return json.loads((out / "models.json").read_text(encoding="utf-8"))


# -- reasoning and sampling per model ---------------------------------------------------------------------


def test_gpt51_off_with_temperature_sends_effort_none_and_leaves_the_temperature_out(tmp_path, key_env, fake):
    out = tmp_path / "out"
    path = settings(tmp_path, fake, "gpt-5.1", reasoning="off", temperature=0.2)
    summary = run_tasks([make_task(1)], path, out)
    assert summary.ok and [r.status for r in read_records(out)] == ["completed"]
    (body,) = fake.responses()  # the model refuses a temperature other than 1: left out, never sent
    assert body["reasoning"] == {"effort": "none"} and "temperature" not in body
    caps = models_json(out)["s"]
    assert any(n.startswith("temperature not sent (the model refuses them") for n in caps["notes"])
    assert any("temperature not sent" in n and n.startswith("setting 's'") for n in summary.notes)


def test_gpt51_off_with_sampling_drop_sends_effort_none_and_no_temperature(tmp_path, key_env, fake):
    out = tmp_path / "out"
    path = settings(tmp_path, fake, "gpt-5.1", reasoning="off", temperature=0.2, sampling="drop")
    assert run_tasks([make_task(1), make_task(2)], path, out).ok

    bodies = fake.responses()
    assert len(bodies) == 2
    for body in bodies:
        assert body["reasoning"] == {"effort": "none"}  # off is sent as the model's explicit none
        assert "temperature" not in body and "top_p" not in body
    assert [r.status for r in read_records(out)] == ["completed", "completed"]
    caps = models_json(out)["s"]
    assert caps["family"] == "gpt-5.1" and caps["efforts"] == ["none", "low", "medium", "high"]
    assert caps["source"].startswith("https://platform.openai.com/docs/")
    assert "reasoning 'off' sent as effort 'none'" in caps["notes"]
    assert any("temperature not sent" in n for n in caps["notes"])
    manifest = json.loads((out / "run_manifest.json").read_text(encoding="utf-8"))
    assert manifest["models"]["s"] == caps


def test_gpt51_minimal_is_refused_at_load_naming_the_values_it_takes(tmp_path, fake):
    with pytest.raises(SettingsError) as err:
        load_settings(settings(tmp_path, fake, "gpt-5.1", reasoning="minimal"))
    message = str(err.value)
    assert "'none', 'low', 'medium', 'high'" in message and "'minimal'" in message
    assert "set reasoning to off (sent as 'none'), low, medium, high" in message


def test_gpt5_off_sends_minimal_and_says_so_in_models_json(tmp_path, key_env, fake):
    out = tmp_path / "out"
    assert run_tasks([make_task(1)], settings(tmp_path, fake, "gpt-5", reasoning="off"), out).ok
    (body,) = fake.responses()
    assert body["reasoning"] == {"effort": "minimal"}
    assert "cannot turn reasoning off; sent minimal" in models_json(out)["s"]["notes"]
    (rec,) = read_records(out)
    assert rec.status == "completed" and rec.served_model == "gpt-5-2025-08-07"


def test_gpt52_takes_temperature_only_with_effort_none(tmp_path, key_env, fake):
    out = tmp_path / "out"
    assert run_tasks([make_task(1)], settings(tmp_path, fake, "gpt-5.2", reasoning="off", temperature=0.2), out).ok
    (body,) = fake.responses()
    assert body["reasoning"] == {"effort": "none"} and body["temperature"] == 0.2
    low = tmp_path / "low"
    low.mkdir()
    assert run_tasks([make_task(1)], settings(low, fake, "gpt-5.2", reasoning="low", temperature=0.2), low / "o").ok
    assert "temperature" not in fake.responses()[-1]  # beside reasoning the model refuses it: left out


def test_sampling_send_sends_what_the_model_refuses_and_the_cell_says_why(tmp_path, key_env, fake):
    out = tmp_path / "out"
    path = settings(tmp_path, fake, "gpt-5.1", reasoning="low", temperature=0.2, sampling="send")
    run_tasks([make_task(1)], path, out)
    (rec,) = read_records(out)
    assert fake.responses()[0]["temperature"] == 0.2
    assert rec.status == "no-response" and "code=unsupported_value" in rec.errors[0] and "temperature" in rec.errors[0]


@pytest.mark.parametrize(
    ("model", "over", "needle"),
    [
        ("o3", {"reasoning": "off"}, "cannot turn reasoning off"),
        ("o4-mini", {"reasoning": "minimal"}, "'low', 'medium', 'high'"),
        ("gpt-4.1", {"reasoning": "high"}, "does not reason"),
        ("gpt-5.1", {"reasoning": "max"}, "not 'max'"),
    ],
)
def test_what_the_model_would_refuse_is_refused_at_load(tmp_path, fake, model, over, needle):
    with pytest.raises(SettingsError, match=re.escape(needle)):
        load_settings(settings(tmp_path, fake, model, **over))
    with pytest.raises(SettingsError, match=re.escape(needle)):  # the chat provider maps the same way
        load_settings(settings(tmp_path, fake, model, provider="openai", **over))


def test_effort_is_sent_as_set_and_non_reasoning_models_take_sampling(tmp_path, key_env, fake):
    out = tmp_path / "out"
    path = settings(tmp_path, fake, "gpt-5.1", effort="high")
    assert run_tasks([make_task(1)], path, out).ok
    assert fake.responses()[0]["reasoning"] == {"effort": "high"}
    out2 = tmp_path / "out2"
    assert run_tasks([make_task(1)], settings(tmp_path, fake, "gpt-4.1", temperature=0.2, top_p=0.5), out2).ok
    body = fake.responses()[1]
    assert "reasoning" not in body and body["temperature"] == 0.2 and body["top_p"] == 0.5


def test_chat_on_openai_maps_reasoning_per_model_and_caps_the_output(tmp_path, key_env, fake):
    out = tmp_path / "out"
    path = settings(tmp_path, fake, "gpt-5.1", provider="openai", reasoning="off", max_output_tokens=200_000)
    assert run_tasks([make_task(1)], path, out).ok
    (body,) = fake.chats()
    assert body["reasoning_effort"] == "none"
    assert body["max_completion_tokens"] == 128_000
    notes = models_json(out)["s"]["notes"]
    assert "max_output_tokens 200000 capped at the model's 128000" in notes


def test_a_model_no_row_names_keeps_todays_behaviour(tmp_path, serve):
    server = serve(lambda req: Reply())
    out = tmp_path / "out"
    path = tmp_path / "s.toml"
    path.write_text(
        f'[[setting]]\nname = "local"\nbase_url = "{server.url}"\nmodel = "qwen3-8b"\nreasoning = "minimal"\n'
        "temperature = 0.7\n",
        encoding="utf-8",
    )
    assert run_tasks([make_task(1)], path, out).ok
    (req,) = server.requests
    assert req.body["reasoning_effort"] == "minimal" and req.body["temperature"] == 0.7
    caps = models_json(out)["local"]
    assert caps["family"] == "default" and caps["source"] == "default" and caps["notes"] == []


def test_the_offline_request_is_the_mapped_request_sent(tmp_path, key_env, fake):
    path = settings(tmp_path, fake, "gpt-5", reasoning="off", reasoning_summary="auto", max_output_tokens=64)
    task = make_task(3)
    assert run_tasks([task], path, tmp_path / "out").ok
    request = provider_entry("openai-responses").request
    assert request is not None
    wire = request(load_settings(path)[0], render_messages(task), 0)
    assert wire.body == fake.responses()[0]
    assert wire.body["reasoning"] == {"effort": "minimal", "summary": "auto"}


# -- account errors ----------------------------------------------------------------------------------------


def test_an_unverified_organization_runs_every_cell_without_a_summary(tmp_path, key_env, fake):
    key_env.setenv(ENV, UNVERIFIED)
    out = tmp_path / "out"
    tasks = [make_task(i) for i in range(1, 5)]
    summary = run_tasks(tasks, settings(tmp_path, fake, "gpt-5", reasoning="high"), out)
    assert summary.ok
    assert all("summary" not in b["reasoning"] for b in fake.responses())
    assert sorted(r.task_id for r in read_records(out) if r.status == "completed") == sorted(t.task_id for t in tasks)


def test_an_unverified_organization_asking_for_a_summary_stops_the_setting(tmp_path, key_env, fake):
    key_env.setenv(ENV, UNVERIFIED)
    out = tmp_path / "out"
    tasks = [make_task(i) for i in range(1, 9)]
    path = settings(tmp_path, fake, "gpt-5", reasoning="high", reasoning_summary="auto")
    summary = run_tasks(tasks, path, out)
    assert "organization must be verified" in summary.aborted["s"]
    assert read_records(out) == []
    assert 1 <= len(fake.responses()) <= 2 + 2  # concurrency + 2


@pytest.mark.parametrize("provider", ["openai", "openai-responses"])
def test_a_spent_quota_stops_the_setting_and_a_good_key_answers_every_cell(tmp_path, key_env, fake, provider):
    key_env.setenv(ENV, QUOTA)
    out = tmp_path / "out"
    tasks = [make_task(i) for i in range(1, 9)]
    path = settings(tmp_path, fake, "gpt-5", provider=provider, reasoning="low")
    summary = run_tasks(tasks, path, out)
    assert "insufficient_quota" in summary.aborted["s"]
    assert read_records(out) == []
    creates = fake.chats() if provider == "openai" else fake.responses()
    assert 1 <= len(creates) <= 2 + 2  # concurrency + 2: nothing retried after the abort

    key_env.setenv(ENV, KEY)
    again = run_tasks(tasks, path, out)
    assert again.ok and not again.aborted
    recs = read_records(out)
    assert sorted(r.task_id for r in recs) == sorted(t.task_id for t in tasks)
    assert all(r.status == "completed" and r.attempts == 1 for r in recs)


@pytest.mark.parametrize(
    ("action", "needle"),
    [
        (region_refused(), "unsupported_country_region_territory"),
        (unauthorized(), "invalid_api_key"),
        (bad_request("Billing hard limit has been reached", None, "billing_hard_limit_reached"), "billing"),
    ],
)
def test_account_errors_mid_run_stop_the_setting_with_no_cell(tmp_path, key_env, fake, action, needle):
    fake.script = lambda body, seen: action
    out = tmp_path / "out"
    summary = run_tasks([make_task(i) for i in range(1, 6)], settings(tmp_path, fake, "gpt-4.1", concurrency=1), out)
    assert needle in summary.aborted["s"]
    assert read_records(out) == []
    assert len(fake.responses()) == 1


def test_account_errors_are_classified_as_abort_and_others_are_not():
    def kind(status: int, error: dict[str, Any]) -> str:
        return classify_response(status, {}, json.dumps({"error": error}).encode()).kind

    quota, verify = insufficient_quota(), unverified_organization("stream")
    assert kind(429, {"message": quota.message, "type": quota.type, "code": quota.code}) == "abort"
    assert (
        kind(400, {"message": verify.message, "type": verify.type, "param": "stream", "code": verify.code}) == "abort"
    )
    region = region_refused()
    assert kind(403, {"message": region.message, "type": region.type, "code": region.code}) == "abort"
    assert kind(429, {"message": "slow down", "type": "requests", "code": "rate_limit_exceeded"}) == "retry"
    bad = {"message": "Unsupported value: 'minimal'", "type": "invalid_request_error", "code": "unsupported_value"}
    assert kind(400, bad) == "final"


# -- who answered ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("provider", ["openai", "openai-responses"])
def test_served_model_request_id_and_service_tier_are_recorded(tmp_path, key_env, fake, provider):
    out = tmp_path / "out"
    path = settings(tmp_path, fake, "gpt-5.1", provider=provider, extra='extra_body = { service_tier = "flex" }')
    assert run_tasks([make_task(1)], path, out).ok
    line = json.loads((out / "responses.jsonl").read_text().splitlines()[0])
    assert line["model"] == "gpt-5.1" and line["served_model"] == "gpt-5.1-2025-11-13"
    assert line["service_tier"] == "flex"
    assert isinstance(line["request_id"], str) and line["request_id"].startswith("req_")


def test_fields_the_vendor_does_not_send_are_null(serve, tmp_path):
    body = {"choices": [{"index": 0, "message": {"content": "x"}, "finish_reason": "stop"}]}
    server = serve(lambda req: Reply(body=body))
    out = tmp_path / "out"
    path = tmp_path / "s.toml"
    path.write_text(f'[[setting]]\nname = "x"\nbase_url = "{server.url}"\nmodel = "m"\n', encoding="utf-8")
    assert run_tasks([make_task(1)], path, out).ok
    (rec,) = read_records(out)
    assert (rec.served_model, rec.request_id, rec.service_tier) == (None, None, None)


# -- streaming ---------------------------------------------------------------------------------------------


def _comparable(out: Path) -> list[tuple[Any, ...]]:
    return sorted(
        (r.task_id, r.status, r.text, r.reasoning, r.finish_reason, r.usage, r.served_model, r.service_tier)
        for r in read_records(out)
    )


@pytest.mark.parametrize("provider", ["openai", "openai-responses"])
def test_a_streamed_answer_is_recorded_like_a_whole_one(tmp_path, key_env, fake, provider):
    tasks = [make_task(i) for i in range(1, 4)]
    extra = {"reasoning_summary": "auto"} if provider == "openai-responses" else {}
    whole, streamed = tmp_path / "whole", tmp_path / "streamed"
    assert run_tasks(tasks, settings(tmp_path, fake, "gpt-5", provider=provider, reasoning="high", **extra), whole).ok
    path = settings(tmp_path, fake, "gpt-5", provider=provider, reasoning="high", stream=True, **extra)
    assert run_tasks(tasks, path, streamed).ok

    creates = fake.chats() if provider == "openai" else fake.responses()
    sent = [b for b in creates if b.get("stream")]
    assert len(sent) == 3
    if provider == "openai":
        assert all(b["stream_options"] == {"include_usage": True} for b in sent)
    got = _comparable(streamed)
    assert got == _comparable(whole)
    assert all(g[1] == "completed" and g[2] == json.dumps({"output": g[0][1]}) for g in got)
    assert all(g[5].completion_tokens and g[5].reasoning_tokens == 256 for g in got)
    if provider == "openai-responses":
        assert all(g[3] and "Reasoned at high effort" in g[3] for g in got)
    assert all(r.request_id and r.request_id.startswith("req_stream_") for r in read_records(streamed))


@pytest.mark.parametrize("provider", ["openai", "openai-responses"])
@pytest.mark.parametrize("close", [True, False])
def test_a_broken_stream_is_retried_and_its_partial_text_never_recorded(tmp_path, key_env, fake, provider, close):
    fake.script = lambda body, seen: BrokenStream(events=3, close=close) if seen == 0 else None
    out = tmp_path / "out"
    path = settings(tmp_path, fake, "gpt-4.1", provider=provider, stream=True)
    assert run_tasks([make_task(7)], path, out).ok
    (rec,) = read_records(out)
    assert rec.status == "completed" and rec.attempts == 2
    assert rec.text == '{"output": "7"}'
    assert rec.errors and ("connection error" in rec.errors[0] or "stream ended without" in rec.errors[0])


def test_stream_parsers_without_the_end_are_retried_and_errors_classified():
    done = SseEvent("message", "[DONE]")
    chunk = SseEvent("message", json.dumps({"model": "m", "choices": [{"index": 0, "delta": {"content": "ab"}}]}))
    assert parse_chunks([chunk]).kind == "retry"
    assert parse_chunks([chunk, done]).text == "ab"
    assert parse_chunks([done]).kind == "retry"
    quota = SseEvent("message", json.dumps({"error": {"code": "insufficient_quota", "message": "quota"}}))
    assert parse_chunks([quota, done]).kind == "abort"

    delta = SseEvent("response.output_text.delta", json.dumps({"type": "response.output_text.delta", "delta": "x"}))
    assert parse_events([delta]).kind == "retry"
    error = SseEvent("error", json.dumps({"type": "error", "code": "server_error", "message": "boom"}))
    assert parse_events([delta, error]).kind == "retry"
    failed = {"type": "response.failed", "response": {"status": "failed", "error": {"code": "invalid_prompt"}}}
    assert parse_events([SseEvent("response.failed", json.dumps(failed))]).kind == "final"


# -- the chat loopback checks its path and key -------------------------------------------------------------


def test_the_chat_loopback_refuses_a_wrong_path_and_key(tmp_path, monkeypatch):
    with ScriptedServer(key="sk-loop") as server:
        monkeypatch.setenv(ENV, "sk-wrong")
        path = tmp_path / "s.toml"
        path.write_text(
            f'[[setting]]\nname = "x"\nbase_url = "{server.url}"\nmodel = "m"\napi_key_env = "{ENV}"\n',
            encoding="utf-8",
        )
        with pytest.raises(SettingsError, match="refused the API key"):
            run_tasks([make_task(1)], path, tmp_path / "a")
        monkeypatch.setenv(ENV, "sk-loop")
        assert run_tasks([make_task(1)], path, tmp_path / "b").ok
        assert server.requests[-1].headers["authorization"] == "Bearer sk-loop"

        path.write_text(
            f'[[setting]]\nname = "x"\nbase_url = "{server.url}/v2"\nmodel = "m"\napi_key_env = "{ENV}"\n',
            encoding="utf-8",
        )
        summary = run_tasks([make_task(1)], path, tmp_path / "c")
        assert (
            "HTTP 404" in summary.aborted["x"] and "Invalid URL (POST /v1/v2/chat/completions)" in summary.aborted["x"]
        )
        assert read_records(tmp_path / "c") == []


def test_resolved_caps_of_an_unknown_model_are_the_default_row():
    from execstate.run import Setting

    caps = resolved_caps(Setting(name="x", model="gpt-9-preview"))
    assert (caps.family, caps.source, caps.efforts) == ("default", "default", ())


@pytest.mark.parametrize(
    ("problem", "needles"),
    [
        ("region", ("refused the request", "HTTP 403", "unsupported_country_region_territory", "region")),
        ("revoked", ("refused the API key", "HTTP 401", "invalid_api_key", ENV)),
    ],
)
def test_a_refused_region_or_revoked_key_is_refused_at_open_with_openais_reason(
    tmp_path, key_env, fake, problem, needles
):
    fake.accounts["sk-openai-" + problem] = problem
    key_env.setenv(ENV, "sk-openai-" + problem)
    with pytest.raises(SettingsError) as err:
        run_tasks([make_task(1)], settings(tmp_path, fake, "gpt-5.1"), tmp_path / "out")
    assert all(n in str(err.value) for n in needles), str(err.value)
    assert fake.responses() == [] and read_records(tmp_path / "out") == []


def test_the_command_refuses_a_model_value_and_resumes_a_stopped_setting(tmp_path, fake):
    tasks = tmp_path / "tasks.jsonl"
    write_jsonl(tasks, [make_task(i) for i in range(1, 5)])
    refused = settings(tmp_path, fake, "gpt-5.1", reasoning="minimal")
    env = {**os.environ, ENV: QUOTA}
    out = tmp_path / "out"

    def run(path: Path, key: str) -> subprocess.CompletedProcess[str]:
        cmd = cli_command("run", "--tasks", str(tasks), "--settings", str(path), "--out", str(out))
        return subprocess.run(cmd, capture_output=True, text=True, timeout=120, env={**env, ENV: key})

    done = run(refused, QUOTA)
    assert done.returncode == 2 and "'none', 'low', 'medium', 'high'" in done.stderr and fake.requests == []

    path = settings(tmp_path, fake, "gpt-5.1", reasoning="off")
    stopped = run(path, QUOTA)
    assert "s: STOPPED:" in stopped.stdout and "insufficient_quota" in stopped.stdout
    assert "0 recorded now, 4 missing" in stopped.stdout and read_records(out) == []
    fixed = run(path, KEY)
    assert fixed.returncode == 0, fixed.stderr
    assert "4 recorded now, 0 missing" in fixed.stdout
    assert {r.served_model for r in read_records(out)} == {"gpt-5.1-2025-11-13"}
