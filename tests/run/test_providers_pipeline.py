"""Every provider through its own door, end to end: one settings file with a setting per provider (reasoning on
and off) runs through the pipeline against loopback servers of each vendor's protocol and gives a report and a
leaderboard; and a provider registered from outside the package runs a pipeline too."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict
from run_helpers import cli_command

from execstate.pipeline import PipelineResult, run_pipeline
from execstate.records import Grade, Response, Task, read_jsonl
from execstate.run import Attempt, ProviderEntry, Setting, register_provider, render_messages, unregister_provider
from execstate.testing.fake_anthropic import FakeAnthropic
from execstate.testing.fake_gemini import FakeGemini
from execstate.testing.fake_openai import FakeOpenAIResponses
from execstate.testing.loopback import Reply, Request, ScriptedServer, completion

ROOT = Path(__file__).resolve().parents[2]
CASES = (ROOT / "examples" / "collatz", ROOT / "examples" / "nested_inner")
KEYS = {"EXECSTATE_T_OPENAI": "sk-o", "EXECSTATE_T_ANTHROPIC": "sk-a", "EXECSTATE_T_GEMINI": "g-k"}


class Oracles:
    """Answers a request with the oracle of the task whose system prompt it carries (tasks read lazily: the
    pipeline writes them before it runs)."""

    def __init__(self, tasks_file: Path) -> None:
        self.tasks_file = tasks_file
        self._by_prompt: dict[str, str] | None = None

    def __call__(self, body: Any) -> str:
        if self._by_prompt is None:
            tasks = list(read_jsonl(self.tasks_file, Task))
            self._by_prompt = {render_messages(t)[0]["content"]: t.oracle for t in tasks}
        text = "\n".join(_strings(body))
        for prompt, oracle in self._by_prompt.items():
            if prompt in text:
                return json.dumps({"output": oracle.removesuffix("\n")})
        return '{"output": "no task found"}'


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


SETTINGS = """
[[setting]]
name = "{provider}-{reasoning}"
provider = "{provider}"
base_url = "{url}"
model = "{model}"
api_key_env = "{key}"
reasoning = "{reasoning}"
max_output_tokens = 20000
price_input_per_mtok = 1.0
price_output_per_mtok = 4.0
backoff_initial_s = 0
"""


def test_one_setting_per_provider_runs_the_pipeline_to_a_report_and_a_leaderboard(tmp_path):
    out = tmp_path / "out"
    answer = Oracles(out / "build" / "tasks.jsonl")

    def chat(req: Request) -> Reply:
        usage = {"prompt_tokens": 50, "completion_tokens": 9, "completion_tokens_details": {"reasoning_tokens": 4}}
        return Reply(body=completion(answer(req.body), usage=usage))

    servers: list[Any] = [
        ScriptedServer(chat),
        FakeAnthropic(key=KEYS["EXECSTATE_T_ANTHROPIC"], answer=answer, models=("claude-test",)),
        FakeGemini(key=KEYS["EXECSTATE_T_GEMINI"], answer=answer),
        FakeOpenAIResponses(key=KEYS["EXECSTATE_T_OPENAI"], answer=answer),
    ]
    for s in servers:
        s.start()
    try:
        chat_server, anthropic, gemini, responses = servers
        doors = [
            ("openai", chat_server.url, "gpt-test", "EXECSTATE_T_OPENAI"),
            ("anthropic", anthropic.url, "claude-test", "EXECSTATE_T_ANTHROPIC"),
            ("gemini", gemini.url, "gemini-2.5-flash", "EXECSTATE_T_GEMINI"),
            ("openai-responses", responses.url + "/v1", "gpt-5-test", "EXECSTATE_T_OPENAI"),
        ]
        text = "".join(
            SETTINGS.format(provider=p, url=u, model=m, key=k, reasoning=r)
            for p, u, m, k in doors
            for r in ("off", "low")
        )
        settings = tmp_path / "settings.toml"
        settings.write_text(text)
        env = {**os.environ, **KEYS}
        pipeline = cli_command(
            "pipeline", "--study", "none", *map(str, CASES), "--settings", str(settings), "--out", str(out)
        )
        done = subprocess.run(pipeline, env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
    finally:
        for s in servers:
            s.stop()
    result = PipelineResult(
        tasks=out / "build" / "tasks.jsonl", responses=out / "run" / "responses.jsonl", grades=out / "grades.jsonl",
        tables=out / "tables", report=out / "report" / "report.html", pipeline_check=False,
    )  # fmt: skip

    responses_ = list(read_jsonl(result.responses, Response))
    names = {f"{p}-{r}" for p, *_ in doors for r in ("off", "low")}
    assert {r.setting for r in responses_} == names
    assert all(r.status == "completed" for r in responses_), [r.errors for r in responses_ if r.errors][:3]
    grades = list(read_jsonl(result.grades, Grade))
    assert len(grades) == 8 * 4 * len(CASES) and {g.status for g in grades} == {"correct-valid"}
    by = {(r.setting, r.task_id): r for r in responses_}
    task = next(iter(read_jsonl(result.tasks, Task))).task_id
    # each door's own records: reasoning tokens where the vendor counts them apart, thinking text recorded
    assert by[("openai-low", task)].usage.reasoning_tokens == 4
    assert by[("gemini-low", task)].usage.reasoning_tokens is not None
    assert by[("gemini-low", task)].reasoning and by[("anthropic-low", task)].reasoning
    assert by[("anthropic-low", task)].usage.reasoning_tokens is None  # Anthropic does not count it apart
    assert by[("openai-responses-low", task)].usage.reasoning_tokens is not None
    assert by[("anthropic-off", task)].reasoning is None and by[("gemini-off", task)].usage.reasoning_tokens is None
    assert "<html" in result.report.read_text(encoding="utf-8").lower()

    # a leaderboard over the run, through the commands a user types
    for args in (
        ("grade", "--run", str(out / "run")),
        ("leaderboard", str(out / "run"), "--out", str(tmp_path / "board")),
    ):
        done = subprocess.run(cli_command(*args), capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-3000:]
    rows = json.loads((tmp_path / "board" / "leaderboard.json").read_text())
    assert {r["setting"] for r in rows["overall"]} == names
    assert (tmp_path / "board" / "leaderboard.html").exists()


class EchoOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    echo_wrong: bool = False


class EchoProvider:
    name = "echo"
    pipeline_check = False

    def __init__(self, wrong: bool) -> None:
        self.model: str | None = "echo-1"
        self.wrong = wrong

    async def attempt_task(self, task: Task, sample: int) -> Attempt:
        answer = "wrong" if self.wrong else task.oracle.removesuffix("\n")
        return Attempt("completed", text=json.dumps({"output": answer}), finish_reason="stop")

    async def aclose(self) -> None:
        return None


async def _open_echo(setting: Setting) -> tuple[EchoProvider, list[str]]:
    return EchoProvider(setting.options(EchoOptions).echo_wrong), []


@pytest.fixture
def echo() -> Iterator[None]:
    entry = ProviderEntry(name="echo", open=_open_echo, options=EchoOptions, needs_task=True)  # type: ignore[arg-type]
    register_provider(entry)
    yield
    unregister_provider("echo")


def test_a_provider_registered_from_outside_runs_a_pipeline(tmp_path, echo):
    settings = tmp_path / "settings.toml"
    settings.write_text(
        '[[setting]]\nname = "right"\nprovider = "echo"\n\n'
        '[[setting]]\nname = "wrong"\nprovider = "echo"\necho_wrong = true\n'
    )
    result = run_pipeline(tmp_path / "out", studies=(), paths=CASES[:1], settings_file=settings, log=lambda *_: None)
    grades = list(read_jsonl(result.grades, Grade))
    assert {g.status for g in grades if g.setting == "right"} == {"correct-valid"}
    assert not any(g.status.startswith("correct") for g in grades if g.setting == "wrong")
    responses_ = list(read_jsonl(result.responses, Response))
    assert {(r.provider, r.model) for r in responses_} == {("echo", "echo-1")}
    manifest = json.loads((tmp_path / "out" / "run" / "run_manifest.json").read_text())
    assert manifest["settings"]["wrong"]["echo_wrong"] is True and "echo_wrong" not in manifest["settings"]["right"]
    with pytest.raises(Exception, match="unknown key 'echo_loud'"):
        Setting(name="x", provider="echo", echo_loud=1)


TODAY = """
[[setting]]
name = "{name}"
provider = "{provider}"
base_url = "{url}"
model = "{model}"
api_key_env = "{key}"
concurrency = 2
backoff_initial_s = 0
{extra}
"""
REFUSED = {
    "gpt-5.1-minimal": ("openai-responses", "gpt-5.1", 'reasoning = "minimal"'),
    "gemini-3-pro-minimal": ("gemini", "gemini-3-pro-preview", 'reasoning = "minimal"'),
}
ANSWERED = {
    "opus-4.7-high": ("anthropic", "claude-opus-4-7", 'reasoning = "high"'),
    "sonnet-4.5-medium": ("anthropic", "claude-sonnet-4-5", 'reasoning = "medium"\ntemperature = 0.2'),
    "opus-4.1-high": ("anthropic", "claude-opus-4-1", 'reasoning = "high"'),
    "gpt-5.1-off": ("openai-responses", "gpt-5.1", 'reasoning = "off"\ntemperature = 0.2'),
    "gpt-5.1-unverified": ("openai-responses", "gpt-5.1", 'reasoning = "low"'),
}
UNVERIFIED_KEY = {"EXECSTATE_T_OPENAI_UNVERIFIED": "sk-o-unverified"}


def test_todays_models_and_an_unverified_key_run_the_pipeline_or_are_refused_before_a_request(tmp_path):
    """Issue 51's settings file: every setting is answered in full, or refused before any request with the
    values its model accepts named; nothing reaches a vendor until the file is one they all accept."""
    out = tmp_path / "out"
    answer = Oracles(out / "build" / "tasks.jsonl")
    anthropic = FakeAnthropic(key=KEYS["EXECSTATE_T_ANTHROPIC"], answer=answer)
    responses = FakeOpenAIResponses(
        key=KEYS["EXECSTATE_T_OPENAI"],
        answer=answer,
        accounts={UNVERIFIED_KEY["EXECSTATE_T_OPENAI_UNVERIFIED"]: "unverified"},
    )
    gemini = FakeGemini(key=KEYS["EXECSTATE_T_GEMINI"], answer=answer)
    servers: list[Any] = [anthropic, responses, gemini]
    for s in servers:
        s.start()
    url = {"anthropic": anthropic.url, "openai-responses": responses.url + "/v1", "gemini": gemini.url}
    key = {
        "anthropic": "EXECSTATE_T_ANTHROPIC",
        "openai-responses": "EXECSTATE_T_OPENAI",
        "gemini": "EXECSTATE_T_GEMINI",
    }

    def settings_file(rows: dict[str, tuple[str, str, str]]) -> Path:
        text = "".join(
            TODAY.format(
                name=name,
                provider=p,
                url=url[p],
                model=m,
                key="EXECSTATE_T_OPENAI_UNVERIFIED" if name.endswith("unverified") else key[p],
                extra=extra,
            )
            for name, (p, m, extra) in rows.items()
        )
        path = tmp_path / f"settings-{len(rows)}.toml"
        path.write_text(text)
        return path

    env = {**os.environ, **KEYS, **UNVERIFIED_KEY}
    try:

        def pipeline(path: Path) -> list[str]:
            return cli_command(
                "pipeline", "--study", "none", *map(str, CASES), "--settings", str(path), "--out", str(out)
            )

        refused = subprocess.run(
            pipeline(settings_file({**ANSWERED, **REFUSED})), env=env, capture_output=True, text=True, timeout=600
        )
        assert refused.returncode == 2, refused.stderr[-3000:]
        lines = {n: line for line in refused.stderr.splitlines() for n in REFUSED if f"'{n}'" in line}
        assert set(lines) == set(REFUSED), refused.stderr[-3000:]  # both named, one line each
        assert "'none', 'low', 'medium', 'high'" in lines["gpt-5.1-minimal"]
        assert "low, high" in lines["gemini-3-pro-minimal"]
        assert not any(name in refused.stderr for name in ANSWERED)
        assert anthropic.requests == [] and responses.requests == [] and gemini.requests == []

        done = subprocess.run(pipeline(settings_file(ANSWERED)), env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
    finally:
        for s in servers:
            s.stop()

    records = list(read_jsonl(out / "run" / "responses.jsonl", Response))
    tasks = list(read_jsonl(out / "build" / "tasks.jsonl", Task))
    assert len(records) == len(ANSWERED) * len(tasks)
    assert all(r.status == "completed" and r.attempts == 1 for r in records), [r.errors for r in records][:3]
    grades = list(read_jsonl(out / "grades.jsonl", Grade))
    assert {g.status for g in grades} == {"correct-valid"}
    served = {r.setting: r.served_model for r in records}
    assert all(served[n] and served[n] != model for n, (_, model, _) in ANSWERED.items()), served  # dated snapshots
    models = json.loads((out / "run" / "models.json").read_text())
    assert set(models) == set(ANSWERED)
    sent = {json.dumps(b) for b in responses.responses()}
    assert not any('"summary"' in b for b in sent)  # summaries are opt-in: the unverified key is never refused
    assert not any('"temperature"' in b for b in sent)  # gpt-5.1 refuses a temperature: left out, and noted
    assert any("temperature not sent" in n for n in models["gpt-5.1-off"]["notes"])
    for args in (
        ("grade", "--run", str(out / "run")),
        ("leaderboard", str(out / "run"), "--out", str(tmp_path / "board")),
    ):
        step = subprocess.run(cli_command(*args), capture_output=True, text=True, timeout=300)
        assert step.returncode == 0, step.stderr[-3000:]
    overall = json.loads((tmp_path / "board" / "leaderboard.json").read_text())["overall"]
    assert {r["setting"]: r["served_models"] for r in overall} == served
