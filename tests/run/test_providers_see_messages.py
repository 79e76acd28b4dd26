"""Providers see messages, never the oracle (issue 52, item 3): every arm sent through a spy provider, live
through a network provider against a loopback server and through a batch form, carries no oracle in anything a
provider receives; a network entry cannot declare ``needs_task``; and the request a cell sends hashes to the
cache key it had when providers rendered the prompt themselves, so a cache written before still answers."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from run_helpers import make_task

from execstate.builder import build
from execstate.errors import SettingsError
from execstate.records import CASE_ARMS, Task
from execstate.run import (
    Attempt,
    CellRequest,
    ProviderEntry,
    Setting,
    WireRequest,
    provider_entry,
    provider_names,
    register_provider,
    render_messages,
    run_tasks,
    unregister_provider,
)
from execstate.run._cache import request_key, wire_request
from execstate.run.providers import Messages
from execstate.testing.fake_batch import FakeOpenAIBatch
from execstate.testing.loopback import ScriptedServer

ROOT = Path(__file__).resolve().parents[2]
SEVENS = """n = int(input())
values = list(map(int, input().split()))
best = 0
odd = 0
for v in values:
    if v % 7 == 0:
        best = max(best, v)
    if v % 2 == 1:
        odd += 1
print(best, odd)
"""
"""A program with a rarely taken branch, so the build asks a ``line-count`` of it (its inputs are ones and sevens,
so the count is not a string of the input)."""
BATCH_KEY_ENV = "EXECSTATE_TEST_MESSAGES_KEY"


def _sevens(root: Path) -> Path:
    case = root / "sevens"
    case.mkdir()
    (case / "main.py").write_text(SEVENS)
    values = lambda n: " ".join("7" if j % 9 == 0 else "1" for j in range(n))
    (case / "short.txt").write_text(f"1000\n{values(1000)}\n")  # the sevens line runs 112 times: not in the input
    (case / "long.txt").write_text(f"3000\n{values(3000)}\n")
    (case / "case.toml").write_text(
        'id = "examples/sevens"\nstudy = "examples"\nlanguage = "python"\nprogram = "main.py"\n'
        'short_input = "short.txt"\nlong_input = "long.txt"\n\n'
        '[checkpoint]\nloop_text = "for v in values:"\nvariables = ["v", "best", "odd"]\n'
    )
    return case


def _function_tasks() -> list[Task]:
    """Hand-made ``function-output``/``function-input`` tasks (the cruxeval study's arms: the prompt is the same
    render of source and input, so no dataset is needed to send them)."""
    source = "def f(xs):\n    return sorted(set(xs))[::-1]\n"
    common = dict(case_id="fn/0", study="examples", language="python", source=source, source_sha256="0" * 64)
    return [
        Task(task_id="fn/0/function-output", arm="function-output", input="f([3, 1, 3, 2])",
             oracle="[3, 2, 1]", answer_kind="text", grading_rule="python-literal", **common),  # type: ignore[arg-type]
        Task(task_id="fn/0/function-input", arm="function-input", input="f(??) == [9, 4]",
             oracle="f([4, 9, 9])", answer_kind="text", grading_rule="python-call", **common),  # type: ignore[arg-type]
    ]  # fmt: skip


@pytest.fixture(scope="module")
def tasks(tmp_path_factory: pytest.TempPathFactory) -> list[Task]:
    """Every arm: two Python examples and a program with a branch, built with every case arm, and the function arms."""
    root = tmp_path_factory.mktemp("cases")
    cases = [shutil.copytree(ROOT / "examples" / name, root / name) for name in ("collatz", "nested_inner")]
    cases.append(_sevens(root))
    for case in cases:
        toml = case / "case.toml"
        toml.write_text(f"arms = {json.dumps(list(CASE_ARMS))}\n" + toml.read_text())
    built = build(cases).tasks
    assert {t.arm for t in built} == set(CASE_ARMS)  # short/long final, inside/post state, loop trace, line count
    return [*built, *_function_tasks()]


def _hidden(tasks: list[Task]) -> list[Task]:
    """The tasks whose oracle is not already in the prompt: one in the source or input (a line count of ``1``)
    would be found in every request, a leak of nothing."""
    hidden = [t for t in tasks if t.oracle.strip() not in t.source + t.input]
    assert {t.arm for t in hidden} == {t.arm for t in tasks}, "every arm keeps a task with a hidden oracle"
    return hidden


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, CellRequest):
        yield value.task_id
        yield from _strings(value.messages)


def _assert_no_oracle(tasks: list[Task], received: list[Any]) -> None:
    """No oracle of ``tasks`` in any string of ``received``, while every source is there (the spy saw prompts)."""
    text = "\n".join(s for r in received for s in _strings(r))
    for task in tasks:
        assert task.source in text, f"{task.task_id}: its prompt never reached the spy"
        assert task.oracle.strip() not in text, f"{task.task_id}: its oracle reached a provider"


# -- a plain spy provider, registered for the test --------------------------------------------------------------


class SpyProvider:
    """Records every ``CellRequest`` it is sent and answers a fixed text."""

    name = "spy"
    model: str | None = "spy-1"
    pipeline_check = False

    def __init__(self, seen: list[Any]) -> None:
        self.seen = seen

    async def attempt(self, request: CellRequest) -> Attempt:
        self.seen.append(request)
        return Attempt("completed", text='{"output": "?"}', finish_reason="stop")

    async def aclose(self) -> None:
        return None


@pytest.fixture
def spy() -> Iterator[list[Any]]:
    """Provider ``spy``: what its ``attempt`` and its ``request`` function (the cache's) receive goes in the list."""
    seen: list[Any] = []

    async def open_spy(setting: Setting) -> tuple[SpyProvider, list[str]]:
        return SpyProvider(seen), []

    def request(setting: Setting, messages: Messages, sample: int) -> WireRequest:
        seen.append(list(messages))
        return WireRequest("http://spy.invalid/", {"messages": [dict(m) for m in messages]})

    register_provider(ProviderEntry(name="spy", open=open_spy, request=request))  # type: ignore[arg-type]
    yield seen
    unregister_provider("spy")


def test_a_provider_that_sends_requests_never_receives_an_oracle(tmp_path: Path, tasks: list[Task], spy) -> None:
    hidden = _hidden(tasks)
    summary = run_tasks(hidden, [Setting(name="s", provider="spy")], tmp_path / "out", cache=tmp_path / "cache")
    assert summary.ok
    requests = [r for r in spy if isinstance(r, CellRequest)]
    assert sorted(r.task_id for r in requests) == sorted(t.task_id for t in hidden)
    assert all(list(r.messages) == render_messages(t) for r, t in zip(requests, _in_order(hidden, requests)))
    assert len(spy) > len(requests)  # the request function (cache lookup and store) was asked too
    _assert_no_oracle(hidden, spy)


def _in_order(tasks: list[Task], requests: list[CellRequest]) -> list[Task]:
    by_id = {t.task_id: t for t in tasks}
    return [by_id[r.task_id] for r in requests]


def test_the_bodies_a_network_provider_sends_carry_no_oracle(tmp_path: Path, tasks: list[Task]) -> None:
    hidden = _hidden(tasks)
    with ScriptedServer() as server:
        setting = Setting(name="live", base_url=server.url, model="m", max_attempts=1)
        assert run_tasks(hidden, [setting], tmp_path / "out", progress=False).ok
        bodies = [r.body for r in server.requests]
    assert len(bodies) == len(hidden)
    _assert_no_oracle(hidden, bodies)


def test_the_bodies_a_batch_form_sends_carry_no_oracle(
    tmp_path: Path, tasks: list[Task], monkeypatch: pytest.MonkeyPatch
) -> None:
    hidden = _hidden(tasks)
    bodies: list[Any] = []

    def answer(body: dict[str, Any]) -> str:
        bodies.append(body)
        return '{"output": "?"}'

    monkeypatch.setenv(BATCH_KEY_ENV, "sk-test-messages")
    with FakeOpenAIBatch(key="sk-test-messages", answer=answer, hold=False) as fake:
        setting = Setting(name="b", base_url=fake.url + "/v1", model="m", api_key_env=BATCH_KEY_ENV, batch_poll_s=0.005)
        assert run_tasks(hidden, [setting], tmp_path / "out", batch=True, progress=False).ok
        assert len(fake.creates()) == 1
    assert len(bodies) == len(hidden)
    _assert_no_oracle(hidden, bodies)


# -- needs_task: only a provider that sends nothing --------------------------------------------------------------


async def _never(setting: Setting) -> Any:
    raise AssertionError("not opened")


def _request(setting: Setting, messages: Messages, sample: int) -> WireRequest:
    return WireRequest("http://x.invalid/", {})


@pytest.mark.parametrize(
    "sends",
    [{"request": _request}, {"batch": "execstate.run.providers.openai_batch:OPENAI_BATCH"}],
    ids=["request", "batch"],
)
def test_a_network_entry_that_declares_needs_task_is_refused(sends: dict[str, Any]) -> None:
    entry = ProviderEntry(name="leaky", open=_never, needs_task=True, **sends)
    with pytest.raises(SettingsError, match="needs_task beside a request function or a batch form"):
        register_provider(entry)
    assert "leaky" not in provider_names()


def test_the_oracle_and_synthetic_providers_are_the_ones_given_the_task() -> None:
    assert {n for n in provider_names() if provider_entry(n).needs_task} == {"oracle", "synthetic"}
    assert all(provider_entry(n).request is None for n in ("oracle", "synthetic", "replay"))


# -- the request bytes, hence the cache keys, are those of before -----------------------------------------------

SETTINGS = [
    Setting(name="o", base_url="http://h/v1", model="gpt-5", reasoning="high", max_output_tokens=4096),
    Setting(name="o2", base_url="http://h/v1", model="m", temperature=0.2, extra_body={"seed": 1}),
    Setting(name="r", provider="openai-responses", base_url="http://h/v1", model="gpt-5", reasoning="low"),
    Setting(name="a", provider="anthropic", model="claude-sonnet-4-5", reasoning="high", max_output_tokens=16000),
    Setting(name="g", provider="gemini", model="gemini-2.5-flash", reasoning="medium"),
]
KEYS = {
    "o|t0/short-trace-final": "f638334d7058c62f7317bf2ff27df812c8e85d741c1601356b4c381a922d9fb1",
    "o|t7/post-loop-state": "7fa3dc1fe1a407896a7e2bb1c3525c79efe1055b22698924a60142ad120d3d41",
    "o|t3/short-trace-final": "849805e728bf800d411705588504f76713856b797deeef8666240601e1404e23",
    "o2|t0/short-trace-final": "8e8d67cf4e13bdff783bd0b01fde4bfb5f724f52172e91b1d373392ceb1f3b91",
    "o2|t7/post-loop-state": "c4142d71228f8664ee772da750e419f2da2c0f3a0af3698cd2ff3d721e96de4c",
    "o2|t3/short-trace-final": "fc287725e9654b630bf5402e313404f551c5ff2f8b6cb839aeca092843986112",
    "r|t0/short-trace-final": "66dbb5fe52b11092563b22d1e526ec1d6725f348e257660dc3b6c3fe9b1c81ea",
    "r|t7/post-loop-state": "ab077c5458f0320cb7072fb018fa58dd83be23f6d039fc742cc7121613e8fb79",
    "r|t3/short-trace-final": "1f13525b5bb54d54bd6216260a7bb4dc7f55127ebee4bf327f1acf95cb273efc",
    "a|t0/short-trace-final": "2e9c2ba9128a7f58b43eaf575369db0d4436ac0ce760c94c3dfae7fc52f4ea39",
    "a|t7/post-loop-state": "b0528ac2f36cfa5d6f6ee31dfdfd999c9db9bc28c089d00fcd29b7d177cb3137",
    "a|t3/short-trace-final": "254754faf81a0667df79fce0c65d1a7738c55aeea44398e981e8ce8eaf55b807",
    "g|t0/short-trace-final": "ed964f3ba4eb24fa9986fe97def1d7e5b042df0e08a48bda0c42b6f10b853a1d",
    "g|t7/post-loop-state": "df67f8b60bce3dcfac4ea390ba6ed66fc69d612b307ecfa3b9a4ce45293a194d",
    "g|t3/short-trace-final": "d0aa550232b3562ba8e94597024ca622d23d26723e6f577ec28ce3d0e7b08dee",
}
"""``request_key`` of sample 0, computed by execstate before issue 52 (commit 110b240), when each provider
rendered the prompt from the task itself: a response cache written then still answers."""


def test_a_cache_written_before_still_answers() -> None:
    braces = make_task(3).model_copy(update={"source": 'print("{\\"output\\": é}")\n', "input": "{input}\n"})
    cells = [make_task(0), make_task(7, "post-loop-state"), braces]
    got = {}
    for setting in SETTINGS:
        for task in cells:
            request = wire_request(setting, task, 0)
            assert request is not None
            got[f"{setting.name}|{task.task_id}"] = request_key(setting, request, 0)
    assert got == KEYS
