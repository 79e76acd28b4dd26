"""Crafted tasks and grades of the further arms (loop-trace, line-count) as the builder and grader write them
(docs/records.md), for the tests of the analyses, the report and the synthetic provider that read them."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from execstate.records import Grade, Metrics, Task

SOURCE = "n = int(input())\nfor i in range(n):\n    print(i)\n"


def _sha(case_id: str) -> str:
    return hashlib.sha256(case_id.encode("utf-8")).hexdigest()


def case_task(case_id: str, arm: str, oracle: str = "1\n", **meta: Any) -> Task:
    """A task of ``case_id``'s ``arm``; its source cluster is the case (one source per case)."""
    state = arm.endswith("state")
    return Task(
        task_id=f"{case_id}/{arm}",
        case_id=case_id,
        study=case_id.split("/")[0],
        language="python",
        arm=arm,
        source=SOURCE,
        input="3\n",
        oracle=oracle,
        answer_kind="json" if state else "text",
        grading_rule="json-or-tokens" if state else "int-alpha-tokens",
        source_sha256=_sha(case_id),
        metrics=Metrics(trace_length=40, peak_state=2, state_load=20, cyclomatic=2),
        meta={"k": 2, "K": 3, "variables": ["i"], **meta},
    )


def loop_trace_task(case_id: str, m: int, cap: int = 8, trace_length: int = 40) -> Task:
    """A loop-trace task of ``m`` steps: the state ``{"i": j, "s": j*j}`` at the top of iteration j."""
    oracle = json.dumps([{"i": j, "s": j * j} for j in range(m)], separators=(",", ":")) + "\n"
    task = case_task(case_id, "loop-trace", oracle, trace_steps=m, trace_cap=cap)
    return task.model_copy(
        update={"answer_kind": "json", "grading_rule": "json-or-tokens", "metrics": Metrics(trace_length=trace_length)}
    )


def line_count_task(case_id: str, count: int, imbalance: float | None) -> Task:
    """A line-count task whose marked line runs ``count`` times; ``imbalance`` None: not recorded."""
    info = {"line": 3, "text": "print(i)", "branch_line": 2, "arm": "then", "taken": count, "evaluated": count}
    if imbalance is not None:
        info["imbalance"] = imbalance
    task = case_task(case_id, "line-count", f"{count}\n", line_count={**info, "loop_iterations": count})
    return task.model_copy(update={"grading_rule": "integer"})


def grade(task: Task, setting: str, right: bool | None, sample: int = 0, steps: str | None = None) -> Grade:
    """The grade of one cell: ``right`` None is a no-response; ``steps`` (a loop trace's marks) sets ``prefix``."""
    if right is None:
        return Grade(task_id=task.task_id, setting=setting, sample=sample, status="no-response", rule=task.grading_rule)
    prefix = None if steps is None else len(steps) - len(steps.lstrip("1"))
    return Grade(
        task_id=task.task_id,
        setting=setting,
        sample=sample,
        status="correct-valid" if right else "wrong-valid",
        envelope_valid=True,
        answer=task.oracle.strip() if right else "wrong",
        rule=task.grading_rule,
        steps=steps,
        prefix=prefix,
    )


def trace_grade(task: Task, setting: str, steps: str | None, sample: int = 0) -> Grade:
    """A loop-trace grade with step marks ``steps`` (None: a no-response); right when every step is."""
    if steps is None:
        return grade(task, setting, None, sample)
    return grade(task, setting, set(steps) == {"1"}, sample, steps)
