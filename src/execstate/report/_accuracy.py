"""Accuracy tables for the report: the grade stage's, or a small local fallback until it lands.

The grade stage owns ``accuracy_tables(tasks, grades)`` (an object with list-of-dict
attributes ``corpus``, ``by_arm``, ``by_setting``, ``by_study``). When
``execstate.grade`` does not provide it yet, :func:`_fallback_tables` computes
the same four tables with the same column names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

import pandas as pd

from execstate.analyze import load_cells
from execstate.records import ARMS, Grade, Task

Row = dict[str, Any]


@dataclass(frozen=True)
class FallbackTables:
    corpus: list[Row]
    by_arm: list[Row]
    by_setting: list[Row]
    by_study: list[Row]


def _pct(num: int, den: int) -> float | None:
    return 100.0 * num / den if den else None


def _acc(group: pd.DataFrame) -> Row:
    c, r, n = int(group["correct"].sum()), int(group["completed"].sum()), int(len(group))
    return {"correct": c, "completed": r, "planned": n, "acc_completed_pct": _pct(c, r), "acc_planned_pct": _pct(c, n)}


def _corpus(tasks: list[Task], cells: pd.DataFrame) -> list[Row]:
    rows = []
    frame = pd.DataFrame([{"study": t.study, "language": t.language, "case_id": t.case_id, "arm": t.arm,
                           "sha": t.source_sha256, "cyclomatic": t.metrics.cyclomatic} for t in tasks])
    for (study, language), group in frame.groupby(["study", "language"], sort=False):
        clean = group[group["arm"] == "short-trace-final"].dropna(subset=["cyclomatic"])
        mine = cells[(cells["study"] == study) & (cells["language"] == language)]
        rows.append({"study": study, "language": language, "cases": int(group["case_id"].nunique()),
                     "sources": int(group["sha"].nunique()), "tasks": int(len(group)),
                     "planned": int(len(mine)), "graded": int(mine["completed"].sum()),
                     "cyclomatic_median": float(clean["cyclomatic"].median()) if len(clean) else None,
                     "cyclomatic_min": int(clean["cyclomatic"].min()) if len(clean) else None,
                     "cyclomatic_max": int(clean["cyclomatic"].max()) if len(clean) else None})
    return rows


def _by_setting(cells: pd.DataFrame, grades: list[Grade]) -> list[Row]:
    invalid = {(g.task_id, g.setting, g.sample) for g in grades if g.envelope_valid is False}
    rows = []
    for setting, group in cells.groupby("setting", sort=True):
        keys = zip(group["task_id"], group["setting"], group["sample"])
        row = {"setting": setting, **_acc(group), "no_response": int((~group["completed"]).sum()),
               "invalid_envelope": sum(k in invalid for k in keys)}
        for status in ("correct-valid", "correct-invalid", "wrong-valid", "wrong-invalid"):
            row[status.replace("-", "_")] = int((group["status"] == status).sum())
        row["pipeline_check"] = bool(group["pipeline_check"].all())
        rows.append(row)
    return rows


def _fallback_tables(tasks: Iterable[Task], grades: Iterable[Grade]) -> FallbackTables:
    tasks, grades = list(tasks), list(grades)
    cells = load_cells(tasks, grades).frame
    arm_rank = {a: i for i, a in enumerate((*ARMS, "function-output"))}
    by_arm = [{"arm": a, "setting": s, **_acc(g)} for (a, s), g in cells.groupby(["arm", "setting"], sort=True)]
    by_arm.sort(key=lambda r: (arm_rank.get(r["arm"], 99), r["setting"]))
    return FallbackTables(
        corpus=_corpus(tasks, cells), by_arm=by_arm, by_setting=_by_setting(cells, grades),
        by_study=[{"study": st, "setting": s, **_acc(g)}
                  for (st, s), g in cells.groupby(["study", "setting"], sort=True)])


try:  # the grade stage's tables, when present on this checkout
    from execstate.grade import accuracy_tables as _grade_accuracy_tables
except ImportError:
    _grade_accuracy_tables = None

USING_FALLBACK = _grade_accuracy_tables is None


def accuracy_tables(tasks: Iterable[Task], grades: Iterable[Grade]):
    """The four accuracy tables from ``execstate.grade`` when available, else the local fallback."""
    if _grade_accuracy_tables is not None:
        return _grade_accuracy_tables(tasks, grades)
    return _fallback_tables(tasks, grades)
