"""The tasks of a case's plan: each ``PlanRow`` measured, its measurement checked, and made a ``Task`` record."""

from __future__ import annotations

import hashlib
from typing import Any

from execstate.arms import arm_spec
from execstate.builder._checks import check_measurement, measured_output_note, measurement_failed
from execstate.builder._context import CaseContext
from execstate.builder._plan import PlanRow
from execstate.builder._states import measure_together
from execstate.metrics import Measurement
from execstate.records import Metrics, Task


def make_tasks(case: CaseContext, plan: list[PlanRow], meta: dict[str, Any]) -> list[Task]:
    """One task per row, in plan order; its meta is the case's ``meta``, the toolchain's and the row's own."""
    sha = hashlib.sha256(case.source.encode("utf-8")).hexdigest()
    cyc = case.lang.cyclomatic(case.source)
    together = measure_together(case, plan)
    tasks = []
    for i, row in enumerate(plan):
        m = _measured(case, row, together.get(i))
        tasks.append(_task(case, row, m, sha, cyc, meta))
    return tasks


def _measured(case: CaseContext, row: PlanRow, together: Measurement | None) -> Measurement:
    """The row's measurement (``together``: taken in the one run of ``measure_together``; else its own run),
    checked to count the run the task shows."""
    m = together or case.memo.measure_once(case.lang, case.source, row.stdin, row.endpoint, state=True)
    if m.status != "ok":
        raise measurement_failed(m, f"measuring metrics of {row.arm}{row.suffix}")
    # the input arm's oracle is an input (its run prints meta.output); a line count's a count
    expected = row.extra.get("expected_output", row.extra.get("output", row.oracle))
    inst = row.endpoint.inst
    if not (together is not None and inst is not None and not m.stdout):  # a snapshot prints nothing of its own:
        # the run it was taken in is the long final row's, whose stdout is checked
        run = "instrumented run" if inst else "clean run"
        check_measurement(m, expected.encode("utf-8"), row.arm, run, measured_output_note(case))
    return m


def _task(case: CaseContext, row: PlanRow, m: Measurement, sha: str, cyc: int | None, meta: dict[str, Any]) -> Task:
    """The row's task; its rule the row's own (``extra["grading_rule"]``), else its arm's ``default_rule``, else
    the case's."""
    spec = case.spec
    return Task(
        task_id=f"{spec.id}/{row.arm}{row.suffix}",
        case_id=spec.id,
        study=spec.study,
        language=spec.language,
        arm=row.arm,
        source=row.source,
        input=row.extra.get("shown_input", row.stdin.decode("utf-8", "replace")),
        oracle=row.oracle,
        answer_kind=row.answer_kind,
        grading_rule=row.extra.get("grading_rule") or arm_spec(row.arm).default_rule or spec.grading_rule,
        source_sha256=sha,
        metrics=Metrics(trace_length=m.trace_length, peak_state=m.peak_state, state_load=m.state_load, cyclomatic=cyc),
        meta={**meta, **case.lang.task_meta(m), "spec": spec.spec_path.name, **row.shown_meta()},
    )


__all__ = ["make_tasks"]
