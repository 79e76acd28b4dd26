"""Join tasks and grades into one table of graded cells (one row per grade).

Columns: task_id, case_id, study, language, arm, setting, sample, status,
source_sha256, the four metrics as floats (NaN = not measured), ``branch_preserving`` (the
constructor's flag from ``meta["provenance"]``: True, False, or None when not recorded), ``long_origin``
(where the constructor's long input came from: ``test``, ``generator``, ``synthesized``, or None), and the
derived booleans ``completed`` (status is not ``no-response``), ``correct``
(a correct status) and ``error`` (completed and not correct).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from execstate.records import CORRECT_STATUSES, Grade, Task

METRICS: tuple[str, ...] = ("trace_length", "peak_state", "state_load", "cyclomatic")
DYNAMIC_METRICS: tuple[str, ...] = ("trace_length", "peak_state", "state_load")

_TASK_COLUMNS = ("task_id", "case_id", "study", "language", "arm", "source_sha256")
_COLUMNS = (
    *_TASK_COLUMNS,
    "setting",
    "sample",
    "status",
    "pipeline_check",
    *METRICS,
    "branch_preserving",
    "long_origin",
)


@dataclass(frozen=True)
class Cells:
    """Graded cells plus what could not be joined (never silently dropped)."""

    frame: pd.DataFrame
    unknown_task_ids: list[str] = field(default_factory=list)
    """Task ids of grades whose task is not in the tasks file (those grades are left out)."""
    duplicate_cells: list[str] = field(default_factory=list)
    """``task_id|setting|sample`` keys graded more than once (the first grade is kept)."""


def _task_row(task: Task) -> dict:
    row = {name: getattr(task, name) for name in _TASK_COLUMNS}
    for metric in METRICS:
        value = getattr(task.metrics, metric)
        row[metric] = np.nan if value is None else float(value)
    flag = task.meta.get("provenance", {}).get("branch_preserving")
    row["branch_preserving"] = flag if isinstance(flag, bool) else None
    origin = task.meta.get("provenance", {}).get("long_origin")
    row["long_origin"] = origin if isinstance(origin, str) else None
    return row


def load_cells(tasks: Iterable[Task], grades: Iterable[Grade]) -> Cells:
    """Join grades to their tasks; grades of unknown tasks and repeated cells are reported."""
    by_id = {task.task_id: _task_row(task) for task in tasks}
    rows: list[dict] = []
    unknown: list[str] = []
    seen: set[tuple[str, str, int]] = set()
    duplicates: list[str] = []
    for grade in grades:
        base = by_id.get(grade.task_id)
        if base is None:
            unknown.append(grade.task_id)
            continue
        key = (grade.task_id, grade.setting, grade.sample)
        if key in seen:
            duplicates.append("|".join(map(str, key)))
            continue
        seen.add(key)
        rows.append(
            {
                **base,
                "setting": grade.setting,
                "sample": grade.sample,
                "status": grade.status,
                "pipeline_check": grade.pipeline_check,
            }
        )
    frame = pd.DataFrame(rows, columns=list(_COLUMNS))
    frame["completed"] = frame["status"] != "no-response"
    frame["correct"] = frame["status"].isin(CORRECT_STATUSES)
    frame["error"] = frame["completed"] & ~frame["correct"]
    frame = frame.sort_values(["setting", "task_id", "sample"], kind="stable").reset_index(drop=True)
    return Cells(frame=frame, unknown_task_ids=sorted(set(unknown)), duplicate_cells=duplicates)
