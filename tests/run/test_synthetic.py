"""The synthetic pipeline-check provider: deterministic, labelled, wrong answers really wrong."""

from __future__ import annotations

import asyncio

from hypothesis import given
from hypothesis import strategies as st

from execstate.grade import grade_response
from execstate.records import Metrics, Response, Task
from execstate.run import SyntheticProvider
from execstate.run.providers.synthetic import wrong_answer


def _task(trace: int, oracle: str = '{"a":12,"b":[3,4]}\n', arm: str = "long-trace-final") -> Task:
    return Task(
        task_id=f"t/{trace}/{arm}",
        case_id=f"t/{trace}",
        study="s",
        language="python",
        arm=arm,
        source="print(1)\n",
        input="",
        oracle=oracle,
        answer_kind="json",
        grading_rule="json-or-tokens",
        source_sha256="0" * 64,
        metrics=Metrics(trace_length=trace),
    )


@given(st.text(min_size=0, max_size=40), st.floats(min_value=0, max_value=0.999))
def test_wrong_answer_never_equals_the_oracle(oracle, u):
    assert wrong_answer(oracle, u) != oracle


def test_error_rate_rises_with_trace_length_and_answers_are_deterministic():
    provider = SyntheticProvider("setting-a")
    assert provider.p_correct(_task(100)) > provider.p_correct(_task(100_000)) > provider.p_correct(_task(10**8))
    first = [asyncio.run(provider.attempt_task(_task(t), 0)).text for t in range(10, 5000, 37)]
    again = [asyncio.run(SyntheticProvider("setting-a").attempt_task(_task(t), 0)).text for t in range(10, 5000, 37)]
    assert first == again


def test_its_answers_grade_as_expected_and_are_flagged():
    provider = SyntheticProvider("setting-b", skill=0.0, slope=0.0)  # p = 1/2 for a long-trace-final task
    statuses = []
    for n in range(200):
        task = _task(n)
        attempt = asyncio.run(provider.attempt_task(task, 0))
        response = Response(
            task_id=task.task_id,
            setting="setting-b",
            status="completed",
            text=attempt.text,
            pipeline_check=provider.pipeline_check,
        )
        grade = grade_response(task, response)
        assert grade.pipeline_check
        # only a response cut by the output budget has no answer
        assert (grade.answer is None) == (attempt.finish_reason == "length"), attempt
        assert grade.status.startswith("correct") == (grade.answer == task.oracle), (grade, task.oracle)
        statuses.append(grade.status)
    correct = sum(s.startswith("correct") for s in statuses)
    assert 70 < correct < 130  # about half, and every wrong one is graded wrong
    assert any(s.endswith("invalid") for s in statuses) and "no-response" not in statuses
