"""The synthetic provider reads the arm spec: its logit shift is the spec's ``synthetic_bonus``, an arm with a
``simulate`` hook is answered by the hook (a loop trace by ``simulate_trace``), and a plug-in arm without one,
registered at run time, gets the default model: the oracle when right, a near miss otherwise, deterministically.
A toy arm with both hooks runs through ``run_tasks`` (synthetic) and ``grade_all``."""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Iterator
from pathlib import Path

import pytest
from further_records import case_task, loop_trace_task

from execstate.arms import ArmSpec, arm_spec, register_arm, unregister_arm
from execstate.errors import UsageError
from execstate.grade import grade_all
from execstate.records import Response, Task, read_jsonl
from execstate.run import RESPONSES_NAME, Setting, SyntheticProvider, run_tasks
from execstate.run.providers.synthetic import CellDraws, simulate_trace, simulated_answer, wrong_answer

TOY = "toy-synthetic"


@pytest.fixture
def toy_arm() -> Iterator[str]:
    register_arm(ArmSpec(TOY, "further", "toy", "text", 500, synthetic_bonus=0.0))
    yield TOY
    unregister_arm(TOY)


def _answer(provider: SyntheticProvider, task: Task, sample: int) -> str | None:
    """The answer in the provider's envelope; None when the response was cut (no answer to read)."""
    text = asyncio.run(provider.attempt_task(task, sample)).text or ""
    return json.loads(text[text.index("{") :])["output"] if text.endswith("}") else None


def test_the_logit_shift_is_the_specs_bonus(toy_arm):
    provider = SyntheticProvider("s", skill=0.0)
    task = case_task("toy/c1", toy_arm, "12 apples\n")
    base = provider.p_correct(task)
    register_arm(ArmSpec(TOY, "further", "toy", "text", 500, synthetic_bonus=2.0), replace=True)
    shifted = provider.p_correct(task)
    assert base < 0.5 < shifted
    assert shifted == pytest.approx(1 / (1 + (1 / base - 1) * math.exp(-2.0)))
    assert provider.p_correct(case_task("s/c", "short-trace-final", "1\n")) > provider.p_correct(
        case_task("s/c", "long-trace-final", "1\n")
    )  # short's bonus is 1.0, long's 0.0


def test_a_plug_in_arm_without_a_simulate_hook_gets_the_oracle_or_a_near_miss(toy_arm):
    provider = SyntheticProvider("s", skill=0.0)  # about half the answers wrong
    tasks = [case_task(f"toy/c{j}", toy_arm, f"{j} apples and {j + 3} pears\n") for j in range(40)]
    first = [_answer(provider, t, 0) for t in tasks]
    assert first == [_answer(SyntheticProvider("s", skill=0.0), t, 0) for t in tasks]  # deterministic
    answered = [(t, a) for t, a in zip(tasks, first) if a is not None]
    right = [a for t, a in answered if a == t.oracle]
    wrong = [(t, a) for t, a in answered if a != t.oracle]
    assert len(right) > 5 and len(wrong) > 5
    for task, answer in wrong:  # the near miss: one of the two numbers moved by one
        assert answer in {wrong_answer(task.oracle, 0.0), wrong_answer(task.oracle, 0.99)}, answer


def test_a_simulate_hook_answers_its_arm(toy_arm):
    seen: list[tuple[str, float, bool]] = []

    def shout(task: Task, draws: CellDraws, right: bool) -> str:
        seen.append((task.task_id, draws.uniform("mine"), right))
        return task.oracle.upper() if right else "nope"

    register_arm(ArmSpec(TOY, "further", "toy", "text", 500, simulate=shout), replace=True)
    provider = SyntheticProvider("s", skill=0.0)
    task = case_task("toy/c1", toy_arm, "abc\n")
    answers = {_answer(provider, task, k) for k in range(30)} - {None}
    assert answers == {"ABC\n", "nope"}
    assert len({u for _, u, _ in seen}) == 30  # one draw per sample, each its own number
    draws = CellDraws(provider, task, 0)
    assert draws.chance() == provider.p_correct(task) and draws.uniform("x") == CellDraws(provider, task, 0).uniform(
        "x"
    )


def test_a_simulate_hook_must_return_text(toy_arm):
    register_arm(ArmSpec(TOY, "further", "toy", "text", 500, simulate=lambda t, d, r: 7), replace=True)
    task = case_task("toy/c1", toy_arm, "abc\n")
    with pytest.raises(UsageError, match=r"returned a int, not the answer text\. Fix: return the answer as a string"):
        simulated_answer(task, CellDraws(SyntheticProvider("s"), task, 0), True)


def test_the_loop_trace_spec_names_simulate_trace():
    task = loop_trace_task("s/t", 6)
    assert arm_spec(task.arm).simulate == "execstate.run.providers.synthetic:simulate_trace"
    provider = SyntheticProvider("s", skill=20.0, step_decay=0.0)  # every step right
    assert simulate_trace(task, CellDraws(provider, task, 0), False) == task.oracle.strip()
    doomed = SyntheticProvider("s", skill=-30.0)  # every step wrong, each changed
    wrong = json.loads(simulate_trace(task, CellDraws(doomed, task, 0), True))
    assert all(got != want for got, want in zip(wrong, json.loads(task.oracle)))


def test_a_toy_arm_with_both_hooks_runs_and_grades(toy_arm, tmp_path: Path):
    def simulate(task: Task, draws: CellDraws, right: bool) -> str:
        return task.oracle.strip() if right else task.oracle.strip() + " and pears"

    def detail(task: Task, answer: str | None) -> dict[str, object]:
        return {"steps": "1" if answer == task.oracle.strip() else "0"}

    register_arm(ArmSpec(TOY, "further", "toy", "text", 500, simulate=simulate, grade_detail=detail), replace=True)
    tasks = [case_task(f"toy/c{j}", toy_arm, f"{j} apples\n") for j in range(30)]
    setting = Setting(name="toy-synthetic", provider="synthetic", synthetic_skill=0.5)
    run_tasks(tasks, [setting], tmp_path, progress=False)
    grades = grade_all(tasks, read_jsonl(tmp_path / RESPONSES_NAME, Response), settings=[setting.name])
    answered = [g for g in grades if g.answer is not None]
    assert len(answered) > 20 and {g.steps for g in answered} == {"0", "1"}  # right and wrong ones
    assert all((g.steps == "1") == g.status.startswith("correct") for g in answered)
