"""Grade responses against tasks: one Grade per planned cell (task x setting x sample).

Exception hierarchy::

    GradePlanError (execstate.errors.PlanError)   the responses do not cover the plan exactly once
                                  (``missing``, ``duplicate``, ``unplanned`` cells)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from execstate.arms import arm_spec
from execstate.errors import PlanError, RecordError, UsageError
from execstate.grade._call_rule import CallVerdict
from execstate.grade._envelope import Extraction, extract, extract_rationale
from execstate.grade._match import correct_prefix, step_marks
from execstate.grade._rules import answer_matches, is_executed, rule_verdicts
from execstate.records import Grade, GradeStatus, Response, Task, prompt_variant
from execstate.registry import resolve

_SURROGATE = re.compile("[\ud800-\udfff]")
_GRADER_FIELDS = frozenset(
    (
        "schema_version",
        "task_id",
        "setting",
        "sample",
        "status",
        "envelope_valid",
        "answer",
        "rule",
        "pipeline_check",
        "reason",
    )
)
_DETAIL_FIELDS = frozenset(Grade.model_fields) - _GRADER_FIELDS
"""The ``Grade`` fields a ``grade_detail`` hook may set (``steps``, ``prefix``); the others are the grader's."""


class Cell(NamedTuple):
    """One planned prediction."""

    task_id: str
    setting: str
    sample: int

    def __str__(self) -> str:
        return f"{self.task_id} x {self.setting} x sample {self.sample}"


class GradePlanError(PlanError):
    """Responses that do not cover the planned cells exactly once.

    ``missing``: planned cells with no response line (a run that lost them must
    be resumed, or the cell recorded as ``no-response`` by the runner);
    ``duplicate``: cells with more than one response line; ``unplanned``:
    response lines for unknown tasks, settings or samples.
    """

    def __init__(self, missing: list[Cell], duplicate: list[Cell], unplanned: list[Cell]) -> None:
        self.missing, self.duplicate, self.unplanned = missing, duplicate, unplanned
        parts = []
        for label, cells, fix in (
            ("planned cell(s) have no response line", missing, "resume the run so it records them"),
            ("cell(s) have more than one response line", duplicate, "keep one line per cell"),
            ("response line(s) match no planned cell", unplanned, "check the tasks file, --settings and --samples"),
        ):
            if cells:
                shown = "; ".join(str(c) for c in cells[:10]) + ("; ..." if len(cells) > 10 else "")
                parts.append(f"{len(cells)} {label} ({fix}): {shown}")
        super().__init__("responses do not match the plan: " + " | ".join(parts))


def _status(correct: bool, valid: bool) -> GradeStatus:
    if correct:
        return "correct-valid" if valid else "correct-invalid"
    return "wrong-valid" if valid else "wrong-invalid"


def grade_response(task: Task, response: Response, verdict: CallVerdict | None = None) -> Grade:
    """Grade one response to ``task`` under the task's grading rule (SPEC 9) and response contract.

    A ``rationale-then-output`` task (the invariant pilot) grades only the ``output`` string of its
    ``{"rationale": ..., "output": ...}`` object (``extract_rationale``); every other task, the SPEC 9 envelope.

    An arm whose spec has a ``grade_detail`` hook adds that hook's fields to the grade (``grade_detail``; a
    ``loop-trace`` task's steps and prefix, ``trace_steps``), also when no answer could be extracted. A
    ``no-response`` response grades ``no-response``. A completed response with no extractable answer is
    ``wrong-invalid`` with ``answer=None``. ``answer`` keeps the extracted text, except that lone surrogates
    (from ``\\ud800``-style escapes) become U+FFFD so the record is valid UTF-8; correctness is decided on the
    exact text. Never raises for any response text.

    A ``python-call`` task (input prediction) is decided by running its function in the sandbox on the
    answered call: ``verdict`` is that run's result when the caller batched it (``grade_planned`` does),
    else this call runs it alone. An answer that is not a call of ``f`` with literal arguments is
    ``wrong-invalid`` whatever the envelope; the grade's ``reason`` says why a call answer is wrong.
    """
    if task.task_id != response.task_id:
        raise ValueError(f"response for {response.task_id!r} graded against task {task.task_id!r}")
    common = dict(
        task_id=task.task_id,
        setting=response.setting,
        sample=response.sample,
        rule=task.grading_rule,
        pipeline_check=response.pipeline_check,
    )
    if response.status == "no-response":
        return Grade(status="no-response", envelope_valid=None, answer=None, **common)
    found = _extracted(task, response)
    common.update(grade_detail(task, found.answer))
    if found.answer is None:
        return Grade(status="wrong-invalid", envelope_valid=False, answer=None, **common)
    answer = _SURROGATE.sub("\ufffd", found.answer)
    if is_executed(task.grading_rule):
        if verdict is None:
            [verdict] = rule_verdicts([(task, found.answer)])
        status = _status(verdict.correct, found.envelope_valid and verdict.is_call)
        return Grade(status=status, envelope_valid=found.envelope_valid, answer=answer, reason=verdict.reason, **common)
    correct = answer_matches(task.grading_rule, found.answer, task.oracle)
    return Grade(
        status=_status(correct, found.envelope_valid), envelope_valid=found.envelope_valid, answer=answer, **common
    )


def grade_detail(task: Task, answer: str | None) -> dict[str, object]:
    """The extra grade fields the task's arm asks for: its spec's ``grade_detail`` hook called with the task and
    the extracted answer (None when there is none); no fields for an arm without the hook.

    ``UsageError`` naming the hook when it returns a field the ``Grade`` record does not have (the schema is
    fixed: a hook fills existing optional fields, it does not add new ones)."""
    hook = arm_spec(task.arm).grade_detail
    if hook is None:
        return {}
    detail = dict(resolve(hook)(task, answer))
    unknown = sorted(set(detail) - _DETAIL_FIELDS)
    if unknown:
        raise UsageError(
            f"the grade_detail hook of arm {task.arm!r} returned field(s) {', '.join(unknown)} that a Grade does not "
            f"have. Fix: return only some of {', '.join(sorted(_DETAIL_FIELDS))}"
        )
    return detail


def trace_steps(task: Task, answer: str | None) -> dict[str, object]:
    """The ``grade_detail`` hook of a loop trace: its step marks (``steps``, ``_rules.step_marks``: one ``1`` or
    ``0`` per oracle step, all ``0`` without an answer) and the longest correct prefix (``prefix``)."""
    marks = step_marks(answer, task.oracle)
    return {"steps": marks, "prefix": correct_prefix(marks)}


def _extracted(task: Task, response: Response) -> Extraction:
    """The answer of a completed response under the task's response contract."""
    rationale = prompt_variant(task).contract == "rationale-then-output"
    return extract_rationale(response.text) if rationale else extract(response.text)


def _planned_samples(responses: Sequence[Response], settings: list[str], samples: int | None) -> dict[str, int]:
    """Samples per setting: ``samples`` if given, else 1 + the highest sample seen in that setting."""
    if samples is not None:
        if samples < 1:
            raise UsageError(f"samples must be at least 1, got {samples}. Fix: pass --samples 1 or more")
        return {s: samples for s in settings}
    top = {s: 0 for s in settings}
    for r in responses:
        if r.setting in top:
            top[r.setting] = max(top[r.setting], r.sample)
    return {s: n + 1 for s, n in top.items()}


def plan_cells(tasks: Sequence[Task], settings: Sequence[str], samples: dict[str, int]) -> list[Cell]:
    """The planned cells in grade order: setting, then task (file order), then sample."""
    return [Cell(t.task_id, s, k) for s in settings for t in tasks for k in range(samples[s])]


def grade_all(
    tasks: Iterable[Task],
    responses: Iterable[Response],
    *,
    settings: Sequence[str] | None = None,
    samples: int | None = None,
) -> list[Grade]:
    """Grade every planned cell exactly once, in ``plan_cells`` order.

    The plan is every task x every setting (``settings``, default: the settings
    of the responses in first-seen order) x samples ``0..n-1`` (``samples``,
    default per setting: 1 + its highest sample index); no settings at all is a
    ``ValueError``. Raises
    ``GradePlanError`` naming every missing, duplicated or unplanned cell
    before grading anything; grading itself never stops on a bad answer.
    """
    tasks, responses = list(tasks), list(responses)
    settings = list(settings) if settings is not None else list(dict.fromkeys(r.setting for r in responses))
    if not settings:
        raise PlanError(
            "nothing is planned: no responses and no settings given. Fix: pass the settings explicitly "
            "(--settings) or a responses file that has records"
        )
    plan = plan_cells(tasks, settings, _planned_samples(responses, settings, samples))
    return grade_planned(tasks, responses, plan)


def check_unique_tasks(tasks: Sequence[Task]) -> None:
    """``ValueError`` when a task id occurs more than once."""
    repeated = [tid for tid, n in Counter(t.task_id for t in tasks).items() if n > 1]
    if repeated:
        raise RecordError(
            f"task ids repeated in the tasks file: {', '.join(repeated[:10])}. "
            "Fix: pass a tasks file written by one build"
        )


def check_plan(plan: Sequence[Cell], responses: Sequence[Response]) -> None:
    """``GradePlanError`` unless ``responses`` hold exactly one line per planned cell and nothing else."""
    seen = Counter(Cell(r.task_id, r.setting, r.sample) for r in responses)
    planned = set(plan)
    missing = [c for c in plan if c not in seen]
    duplicate = [c for c, n in seen.items() if n > 1]
    unplanned = [c for c in seen if c not in planned]
    if missing or duplicate or unplanned:
        raise GradePlanError(missing, duplicate, unplanned)


def grade_planned(tasks: Sequence[Task], responses: Sequence[Response], plan: Sequence[Cell]) -> list[Grade]:
    """The shared core: check the responses against ``plan`` (``check_plan``), then grade it in order.

    Every planned cell's task must be in ``tasks`` (ids unique).
    """
    check_unique_tasks(tasks)
    check_plan(plan, responses)
    by_cell = {Cell(r.task_id, r.setting, r.sample): r for r in responses}
    by_task = {t.task_id: t for t in tasks}
    executed = _executed_cells(plan, by_task, by_cell)
    return [grade_response(by_task[c.task_id], by_cell[c], executed.get(c)) for c in plan]


def _executed_cells(
    plan: Sequence[Cell], by_task: dict[str, Task], by_cell: dict[Cell, Response]
) -> dict[Cell, CallVerdict]:
    """The sandbox verdicts of every planned cell whose task's rule is executed and whose response has an
    answer, computed in one batched run (not one sandboxed process per answer)."""
    pending: list[tuple[Cell, Task, str]] = []
    for cell in plan:
        task, response = by_task[cell.task_id], by_cell[cell]
        if is_executed(task.grading_rule) and response.status != "no-response":
            answer = _extracted(task, response).answer
            if answer is not None:
                pending.append((cell, task, answer))
    verdicts = rule_verdicts([(task, answer) for _, task, answer in pending]) if pending else []
    return {cell: verdict for (cell, _, _), verdict in zip(pending, verdicts)}
