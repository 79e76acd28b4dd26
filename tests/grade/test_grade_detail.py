"""The grader adds an arm's extra grade fields through its spec's ``grade_detail`` hook, with no arm test of its
own: a loop trace's steps come from the built-in hook ``trace_steps``, a toy arm registered at run time gets its
own hook's fields, and a hook returning a field a ``Grade`` does not have is an error naming the fix."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from further_records import case_task, loop_trace_task

from execstate.arms import ArmSpec, arm_spec, register_arm, unregister_arm
from execstate.errors import UsageError
from execstate.grade import grade_response
from execstate.grade._grader import trace_steps
from execstate.records import Response, Task

TOY = "toy-detail"


def _response(task: Task, answer: str) -> Response:
    text = '{"output": "' + answer.replace('"', '\\"') + '"}'
    return Response(task_id=task.task_id, setting="s", status="completed", text=text)


def _toy_detail(task: Task, answer: str | None) -> dict[str, object]:
    """A toy hook: one mark per character of the oracle, ``1`` where the answer has the same character."""
    want, got = task.oracle.strip(), answer or ""
    marks = "".join("1" if i < len(got) and got[i] == c else "0" for i, c in enumerate(want))
    return {"steps": marks, "prefix": len(marks) - len(marks.lstrip("1"))}


@pytest.fixture
def toy_arm() -> Iterator[str]:
    register_arm(ArmSpec(TOY, "further", "toy", "text", 500, grade_detail=_toy_detail))
    yield TOY
    unregister_arm(TOY)


def test_the_loop_trace_spec_names_the_grader_hook():
    trace = loop_trace_task("s/t", 3)
    assert arm_spec(trace.arm).grade_detail == "execstate.grade._grader:trace_steps"
    answer = '[{"i":0,"s":0},{"i":1,"s":2},{"i":2,"s":4}]'
    assert trace_steps(trace, answer) == {"steps": "101", "prefix": 1}
    assert trace_steps(trace, None) == {"steps": "000", "prefix": 0}
    grade = grade_response(trace, _response(trace, answer))
    assert (grade.steps, grade.prefix, grade.status) == ("101", 1, "wrong-valid")


def test_an_arm_without_the_hook_gets_no_detail():
    task = case_task("s/c", "long-trace-final", "7\n")
    assert arm_spec(task.arm).grade_detail is None
    grade = grade_response(task, _response(task, "7"))
    assert (grade.status, grade.steps, grade.prefix) == ("correct-valid", None, None)
    assert "steps" not in grade.to_json_line()


def test_a_toy_arm_registered_at_run_time_gets_its_hooks_fields(toy_arm):
    task = case_task("toy/c1", toy_arm, "abcd\n")
    grade = grade_response(task, _response(task, "abxd"))
    assert (grade.status, grade.steps, grade.prefix) == ("wrong-valid", "1101", 2)
    missing = grade_response(task, Response(task_id=task.task_id, setting="s", status="completed", text="no json"))
    assert (missing.status, missing.steps, missing.prefix) == ("wrong-invalid", "0000", 0)


def test_a_hook_returning_a_field_a_grade_lacks_is_an_error(toy_arm):
    register_arm(ArmSpec(TOY, "further", "toy", "text", 500, grade_detail=lambda t, a: {"score": 1}), replace=True)
    task = case_task("toy/c1", toy_arm, "abcd\n")
    with pytest.raises(UsageError, match=r"returned field\(s\) score .*Fix: return only some of prefix, steps"):
        grade_response(task, _response(task, "abcd"))
