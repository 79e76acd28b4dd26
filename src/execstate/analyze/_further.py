"""The further arms' own tables: the loop trace's step curve, a case's arms' coherence, line counts by imbalance.

The further arms (the arms of group ``further``, ``execstate.arms``: the loop trace and the line count) never
enter the paper's tables (``records.paper_tasks``); these three tables are theirs, per setting:

- **step curve** — for step i = 1 .. the largest ``meta["trace_cap"]``: the share of graded loop-trace cells
  (tasks with ``meta["trace_steps"]`` >= i) whose step i is right (``Grade.steps[i-1] == "1"``), and the share
  whose first i steps are all right (longest correct prefix >= i; no interval: each bootstrap costs about
  0.1 s at 10,000 replicates and 400 sources); per setting the mean longest correct prefix and the mean
  number of steps. The denominator is every planned cell: a ``no-response`` counts as all steps wrong, as
  C/N counts it in the accuracy tables.
- **coherence** — for each pair of a case's arms (the arms a case spec may list, ``ArmSpec.case_arm``, in arm
  order), over the cells (setting x sample) where both are graded: the 2x2 table of right/wrong, the agreement
  rate, and for a final arm paired with a state arm or the loop trace P(second wrong | final right). A pair with
  a ``no-response`` on either side is counted in ``incomplete_pairs``, never scored, as in the paired comparison.
  Checkpoint-sweep tasks are left out.
- **line counts** — accuracy (correct / planned) per bin of the marked branch's imbalance
  (``meta["line_count"]["imbalance"]``, ``IMBALANCE_BINS``) and over all line-count cells.

Every interval is the source-cluster bootstrap of a mean over cells (``_stability._mean_ci``: whole
``source_sha256`` clusters resampled, ``config.replicates`` replicates, the stream keyed by the row), so the
tables are deterministic for a config. The caller passes published tasks only (fresh ones are left out).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, pairwise
from typing import Any

import pandas as pd

from execstate.analyze._config import AnalysisConfig
from execstate.analyze._section import Section
from execstate.analyze._stability import _mean_ci
from execstate.arms import arm_names, arm_spec
from execstate.records import CORRECT_STATUSES, Grade, Task, is_sweep
from execstate.values import json_value

STEP_CURVE_FIGURE = "step_curve"
COHERENCE_FIGURE = "coherence"
LINE_COUNT_FIGURE = "line_count_by_imbalance"
IMBALANCE_BINS: tuple[float, ...] = (0.0, 0.5, 0.8, 1.0)
"""Edges of the imbalance bins [0, 0.5), [0.5, 0.8), [0.8, 1.0]: a branch taken at most 3 times in 4 (or at least
1 in 4), up to 9 in 10 (1 in 10), and more lopsided than that, up to always or never taken."""
ALL = "all"
"""The ``bin`` of a setting's line-count row over every cell."""
UNKNOWN_BIN = "unknown"
"""The ``bin`` of line-count cells whose task records no imbalance."""
TRACE, COUNT = "trace", "count"
"""The arm families of the step curve (a loop trace's states over steps) and of the line-count table."""
_STATE_SIDE = ("state", TRACE)
"""The families a final arm's coherence row asks P(wrong | final right) of."""


def _graded(tasks: Sequence[Task], grades: Sequence[Grade], arms: Sequence[str]) -> list[tuple[Task, Grade]]:
    """(task, grade) of every graded cell of a task of ``arms`` (sweep tasks left out), in grade order."""
    by_id = {t.task_id: t for t in tasks if t.arm in arms and not is_sweep(t)}
    return [(by_id[g.task_id], g) for g in grades if g.task_id in by_id]


def _steps(task: Task) -> int:
    """The number of steps ``m`` of a loop-trace task (``meta["trace_steps"]``, else its oracle list's length)."""
    m = task.meta.get("trace_steps")
    return int(m) if m is not None else len(json_value(task.oracle))


def _marks(task: Task, grade: Grade) -> tuple[str, bool]:
    """The step marks of a cell (one ``1``/``0`` per step) and whether they were inferred: a ``no-response`` is
    all wrong; a completed grade without ``steps`` (graded before the grader set them) all right when the
    answer is correct, else all wrong."""
    m = _steps(task)
    if grade.status == "no-response":
        return "0" * m, False
    if grade.steps is None:
        return ("1" if grade.status in CORRECT_STATUSES else "0") * m, True
    return grade.steps[:m].ljust(m, "0"), False


def _trace_frame(tasks: Sequence[Task], grades: Sequence[Grade]) -> pd.DataFrame:
    rows = []
    for task, grade in _graded(tasks, grades, arm_names(family=TRACE)):
        marks, inferred = _marks(task, grade)
        rows.append(
            {
                "setting": grade.setting,
                "task_id": task.task_id,
                "source_sha256": task.source_sha256,
                "cap": int(task.meta.get("trace_cap", len(marks))),
                "m": len(marks),
                "marks": marks,
                "prefix": len(marks) - len(marks.lstrip("1")),
                "completed": grade.status != "no-response",
                "inferred": inferred,
            }
        )
    return pd.DataFrame(rows)


def _ci(sub: pd.DataFrame, col: str, config: AnalysisConfig, *key: str) -> tuple[float | None, ...]:
    """Mean of ``col`` over the cells and its source-cluster bootstrap interval; Nones for no cells."""
    return _mean_ci(sub, col, config, ("further", *key)) if len(sub) else (None, None, None)


def _step_row(setting: str, i: int, per: pd.DataFrame, config: AnalysisConfig) -> dict[str, Any]:
    sub = per[per["m"] >= i]
    sub = sub.assign(right=sub["marks"].str[i - 1].eq("1").astype(int), whole=(sub["prefix"] >= i).astype(int))
    rate, low, high = _ci(sub, "right", config, "step", setting, str(i))
    return {
        "setting": setting,
        "step": i,
        "cells": len(sub),
        "sources": int(sub["source_sha256"].nunique()),
        "right": int(sub["right"].sum()),
        "accuracy": rate,
        "low": low,
        "high": high,
        "prefix_right": int(sub["whole"].sum()),
        "prefix_accuracy": float(sub["whole"].mean()) if len(sub) else None,
    }


def _summary_row(setting: str, per: pd.DataFrame, config: AnalysisConfig) -> dict[str, Any]:
    mean, low, high = _ci(per, "prefix", config, "prefix", setting)
    return {
        "setting": setting,
        "tasks": int(per["task_id"].nunique()),
        "cells": len(per),
        "completed": int(per["completed"].sum()),
        "steps_inferred": int(per["inferred"].sum()),
        "sources": int(per["source_sha256"].nunique()),
        "mean_steps": float(per["m"].mean()),
        "mean_prefix": mean,
        "mean_prefix_low": low,
        "mean_prefix_high": high,
        "all_right": float((per["prefix"] == per["m"]).mean()),
    }


def step_curve_rows(
    tasks: Sequence[Task], grades: Sequence[Grade], config: AnalysisConfig
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(``rows``: one per setting x step 1 .. the largest cap, ``summary``: one per setting); empty without a
    graded loop-trace cell. Settings sorted; fields in docs/analyze.md ("Further arms")."""
    frame = _trace_frame(tasks, grades)
    if frame.empty:
        return [], []
    cap = int(max(frame["cap"].max(), frame["m"].max()))
    rows, summary = [], []
    for setting in sorted(frame["setting"].unique().tolist()):
        per = frame[frame["setting"] == setting]
        rows += [_step_row(setting, i, per, config) for i in range(1, cap + 1)]
        summary.append(_summary_row(setting, per, config))
    return rows, summary


def _case_frame(tasks: Sequence[Task], grades: Sequence[Grade]) -> pd.DataFrame:
    """One row per graded cell of a case arm: case_id, arm, setting, sample, source, completed, correct."""
    cells = [
        {
            "case_id": task.case_id,
            "arm": task.arm,
            "setting": grade.setting,
            "sample": grade.sample,
            "source_sha256": task.source_sha256,
            "completed": grade.status != "no-response",
            "correct": grade.status in CORRECT_STATUSES,
        }
        for task, grade in _graded(tasks, grades, arm_names(case_arm=True))
    ]
    return pd.DataFrame(cells, columns=["case_id", "arm", "setting", "sample", "source_sha256", "completed", "correct"])


def _pair_frame(frame: pd.DataFrame, first: str, second: str) -> pd.DataFrame:
    key = ["case_id", "setting", "sample"]
    a = frame.loc[frame["arm"] == first, [*key, "source_sha256", "completed", "correct"]]
    b = frame.loc[frame["arm"] == second, [*key, "completed", "correct"]]
    pairs = a.merge(b, on=key, suffixes=("_a", "_b"), how="inner")
    done = pairs["completed_a"] & pairs["completed_b"]
    ra, rb = pairs["correct_a"].astype(bool), pairs["correct_b"].astype(bool)
    return pairs[key + ["source_sha256"]].assign(
        done=done, ra=ra, rb=rb, agree=(ra == rb).astype(int), second_wrong=(~rb).astype(int)
    )


def _coherence_row(setting: str, first: str, second: str, sub: pd.DataFrame, config: AnalysisConfig) -> dict[str, Any]:
    done = sub[sub["done"]]
    ra, rb = done["ra"], done["rb"]
    agreement, low, high = _ci(done, "agree", config, "coherence", setting, first, second)
    row: dict[str, Any] = {
        "setting": setting,
        "first": first,
        "second": second,
        "pairs": len(done),
        "incomplete_pairs": int(len(sub) - len(done)),
        "cases": int(done["case_id"].nunique()),
        "sources": int(done["source_sha256"].nunique()),
        "both_right": int((ra & rb).sum()),
        "first_right_second_wrong": int((ra & ~rb).sum()),
        "first_wrong_second_right": int((~ra & rb).sum()),
        "both_wrong": int((~ra & ~rb).sum()),
        "agreement": agreement,
        "agreement_low": low,
        "agreement_high": high,
        "final_right": None,
        "final_right_state_wrong": None,
        "final_right_state_wrong_low": None,
        "final_right_state_wrong_high": None,
    }
    if arm_spec(first).family == "final" and arm_spec(second).family in _STATE_SIDE:
        right = done[done["ra"]]
        rate, low, high = _ci(right, "second_wrong", config, "coherence", setting, first, second, "final-right")
        row.update(final_right=len(right), final_right_state_wrong=rate)
        row.update(final_right_state_wrong_low=low, final_right_state_wrong_high=high)
    return row


def coherence_rows(tasks: Sequence[Task], grades: Sequence[Grade], config: AnalysisConfig) -> list[dict[str, Any]]:
    """One row per setting (sorted) x pair of a case's arms (arm order, first before second) graded together
    in at least one cell; fields in docs/analyze.md ("Further arms")."""
    frame = _case_frame(tasks, grades)
    arms = set(frame["arm"])
    rows = []
    for first, second in combinations([a for a in arm_names(case_arm=True) if a in arms], 2):
        pairs = _pair_frame(frame, first, second)
        for setting in sorted(pairs["setting"].unique().tolist()):
            rows.append(_coherence_row(setting, first, second, pairs[pairs["setting"] == setting], config))
    return sorted(rows, key=lambda r: r["setting"])  # stable: pairs stay in arm order within a setting


def _bin_label(value: Any) -> str:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return UNKNOWN_BIN
    edges = IMBALANCE_BINS
    for low, high in pairwise(edges):
        if low <= value < high or (high == edges[-1] and value == high):
            return f"[{low:.1f}, {high:.1f}{']' if high == edges[-1] else ')'}"
    return UNKNOWN_BIN


BIN_LABELS: tuple[str, ...] = tuple(_bin_label(x) for x in IMBALANCE_BINS[:-1])
"""The imbalance bins' labels, in order: ``[0.0, 0.5)``, ``[0.5, 0.8)``, ``[0.8, 1.0]``."""


def _count_frame(tasks: Sequence[Task], grades: Sequence[Grade]) -> pd.DataFrame:
    rows = []
    for task, grade in _graded(tasks, grades, arm_names(family=COUNT)):
        imbalance = (task.meta.get("line_count") or {}).get("imbalance")
        label = _bin_label(imbalance)
        rows.append(
            {
                "setting": grade.setting,
                "arm": task.arm,
                "task_id": task.task_id,
                "source_sha256": task.source_sha256,
                "bin": label,
                "imbalance": None if label == UNKNOWN_BIN else float(imbalance or 0),
                "completed": grade.status != "no-response",
                "correct": int(grade.status in CORRECT_STATUSES),
            }
        )
    return pd.DataFrame(rows)


def _count_row(setting: str, label: str, sub: pd.DataFrame, config: AnalysisConfig) -> dict[str, Any]:
    stream = "+".join(sorted(set(sub["arm"])))  # the bootstrap stream is keyed by the cells' arm
    rate, low, high = _ci(sub, "correct", config, stream, setting, label)
    done, k = int(sub["completed"].sum()), int(sub["correct"].sum())
    return {
        "setting": setting,
        "bin": label,
        "tasks": int(sub["task_id"].nunique()),
        "cells": len(sub),
        "completed": done,
        "correct": k,
        "sources": int(sub["source_sha256"].nunique()),
        "mean_imbalance": None if sub["imbalance"].isna().all() else float(sub["imbalance"].mean()),
        "accuracy": rate,
        "low": low,
        "high": high,
        "accuracy_completed": k / done if done else None,
    }


def line_count_rows(tasks: Sequence[Task], grades: Sequence[Grade], config: AnalysisConfig) -> list[dict[str, Any]]:
    """Per setting (sorted): one row per imbalance bin with cells (``BIN_LABELS`` order, then ``unknown``), then
    the setting's row over every cell (``bin`` = ``all``); empty without a graded line-count cell."""
    frame = _count_frame(tasks, grades)
    if frame.empty:
        return []
    rows = []
    for setting in sorted(frame["setting"].unique().tolist()):
        per = frame[frame["setting"] == setting]
        for label in (*BIN_LABELS, UNKNOWN_BIN):
            sub = per[per["bin"] == label]
            if len(sub):
                rows.append(_count_row(setting, label, sub, config))
        rows.append(_count_row(setting, ALL, per, config))
    return rows


def _figures(further: dict[str, Any], level: float) -> dict[str, Any]:
    """The three figures' data (each only when its table has rows): subsets of the rows, nothing recomputed."""
    figures: dict[str, Any] = {}
    steps = [r for r in further["step_curve"] if r["cells"]]
    if steps:
        keep = ("setting", "step", "cells", "accuracy", "low", "high", "prefix_accuracy")
        figures[STEP_CURVE_FIGURE] = {"figure": STEP_CURVE_FIGURE, "level": level, "points": _only(steps, keep)}
    pairs = [r for r in further["coherence"] if r["pairs"]]
    if pairs:
        keep = ("setting", "first", "second", "pairs", "agreement", "final_right", "final_right_state_wrong")
        figures[COHERENCE_FIGURE] = {"figure": COHERENCE_FIGURE, "level": level, "cells": _only(pairs, keep)}
    bins = [r for r in further["line_count"] if r["bin"] != UNKNOWN_BIN]
    if bins:
        keep = ("setting", "bin", "cells", "mean_imbalance", "accuracy", "low", "high")
        data = {"figure": LINE_COUNT_FIGURE, "level": level, "bins": [*BIN_LABELS, ALL], "rows": _only(bins, keep)}
        figures[LINE_COUNT_FIGURE] = data
    return figures


def _only(rows: list[dict[str, Any]], keys: Sequence[str]) -> list[dict[str, Any]]:
    return [{k: r[k] for k in keys} for r in rows]


def further_arms(tasks: Sequence[Task], grades: Sequence[Grade], config: AnalysisConfig) -> dict[str, Any]:
    """``tasks`` (further-arm tasks by arm), ``step_curve``, ``step_summary``, ``coherence``, ``line_count`` and
    ``figures`` (figure name -> data); ``{}`` when no task is of a further arm, so analyses of builds without
    them are unchanged. ``grades``: the joinable grades of ``tasks`` (first grade per cell)."""
    counts = {arm: sum(t.arm == arm and not is_sweep(t) for t in tasks) for arm in arm_names(group="further")}
    if not any(counts.values()):
        return {}
    rows, summary = step_curve_rows(tasks, grades, config)
    further: dict[str, Any] = {
        "tasks": counts,
        "step_curve": rows,
        "step_summary": summary,
        "coherence": coherence_rows(tasks, grades, config),
        "line_count": line_count_rows(tasks, grades, config),
    }
    return {**further, "figures": _figures(further, config.level)}


SECTION = Section(
    "further",
    "Further arms",
    lambda d: further_arms(d.tasks, d.grades, d.config),
    applies=lambda task: arm_spec(task.arm).group == "further",
    description="the further arms' tables: the loop trace's step curve, coherence of a case's arms, line counts",
)
"""The further arms' section (shown as one part of the page per table with rows)."""
