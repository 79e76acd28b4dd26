"""Truncation and token use (SPEC 11): responses cut by the output budget, and what answers cost.

A completed response is *truncated* when its ``finish_reason`` is ``length``.
Tables (plain dict rows):

- ``truncation`` — per setting x arm (and all arms): completed responses,
  truncated ones and their rate with a Wilson interval, accuracy over all
  completed responses (C/R) and over the responses that were not truncated;
- ``tokens`` — per setting x arm x correctness: responses, and median and sum
  of completion and reasoning tokens over the responses that report them
  (``with_completion``, ``with_reasoning`` say how many did).

- ``served`` — per setting x served model snapshot (``Response.served_model``,
  what the vendor says answered; ``None`` where it does not say): the
  completed responses it answered and the first and last time it did, with
  ``snapshot_changed`` true on every row of a setting answered by more than
  one snapshot during its run.

Grades are joined to responses by (task, setting, sample); a grade without a
response record is counted in ``unmatched`` and left out.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from execstate.analyze._arms import table_arms
from execstate.analyze._stats import wilson_interval
from execstate.records import CORRECT_STATUSES, Grade, Response, Task

ALL_ARMS = "all"


def response_frame(
    tasks: Iterable[Task], grades: Iterable[Grade], responses: Iterable[Response]
) -> tuple[pd.DataFrame, int]:
    """Completed graded cells joined to their responses, and the count of grades without a response."""
    arm = {t.task_id: t.arm for t in tasks}
    by_cell = {(r.task_id, r.setting, r.sample): r for r in responses}
    rows, unmatched = [], 0
    for g in grades:
        if g.task_id not in arm or g.status == "no-response":
            continue
        r = by_cell.get((g.task_id, g.setting, g.sample))
        if r is None:
            unmatched += 1
            continue
        rows.append(
            {
                "task_id": g.task_id,
                "setting": g.setting,
                "arm": arm[g.task_id],
                "correct": g.status in CORRECT_STATUSES,
                "truncated": r.finish_reason == "length",
                "stopped": r.finish_reason == "stop",
                "completion_tokens": np.nan if r.usage.completion_tokens is None else float(r.usage.completion_tokens),
                "reasoning_tokens": np.nan if r.usage.reasoning_tokens is None else float(r.usage.reasoning_tokens),
            }
        )
    cols = ["task_id", "setting", "arm", "correct", "truncated", "stopped", "completion_tokens", "reasoning_tokens"]
    return pd.DataFrame(rows, columns=cols), unmatched


def _pct(num: int, den: int) -> float | None:
    return 100.0 * num / den if den else None


def _groups(frame: pd.DataFrame) -> list[tuple[str, str, pd.DataFrame]]:
    """(setting, arm, rows) per setting x arm in arm order, then the setting's all-arms group."""
    out: list[tuple[str, str, pd.DataFrame]] = []
    for setting in sorted(frame["setting"].unique()):
        per = frame[frame["setting"] == setting]
        for arm in [a for a in table_arms() if a in set(per["arm"])]:
            out.append((setting, arm, per[per["arm"] == arm]))
        out.append((setting, ALL_ARMS, per))
    return out


def truncation_rows(frame: pd.DataFrame, level: float) -> list[dict[str, Any]]:
    rows = []
    for setting, arm, sub in _groups(frame):
        n, cut = len(sub), int(sub["truncated"].sum())
        kept = sub[~sub["truncated"]]
        low, high = wilson_interval(cut, n, level)
        rows.append(
            {
                "setting": setting,
                "arm": arm,
                "completed": n,
                "truncated": cut,
                "truncated_pct": _pct(cut, n),
                "ci_low_pct": 100 * low,
                "ci_high_pct": 100 * high,
                "acc_completed_pct": _pct(int(sub["correct"].sum()), n),
                "not_truncated": len(kept),
                "acc_not_truncated_pct": _pct(int(kept["correct"].sum()), len(kept)),
            }
        )
    return rows


def budget_rows(frame: pd.DataFrame, level: float) -> list[dict[str, Any]]:
    """Budget-matched accuracy per setting x arm (and all arms): C/R over the completed responses that
    finished on their own (``finish_reason == "stop"``) with a Wilson interval, beside the truncation rate,
    so a setting cut short by its output budget is not read as a weaker one."""
    rows = []
    for setting, arm, sub in _groups(frame):
        n, stopped = len(sub), sub[sub["stopped"]]
        k = int(stopped["correct"].sum())
        low, high = wilson_interval(k, len(stopped), level)
        rows.append(
            {
                "setting": setting,
                "arm": arm,
                "completed": n,
                "truncated_pct": _pct(int(sub["truncated"].sum()), n),
                "acc_completed_pct": _pct(int(sub["correct"].sum()), n),
                "stopped": len(stopped),
                "acc_stopped_pct": _pct(k, len(stopped)),
                "stopped_low_pct": None if not len(stopped) else 100 * low,
                "stopped_high_pct": None if not len(stopped) else 100 * high,
            }
        )
    return rows


def _tokens(values: pd.Series) -> tuple[int, float | None, int | None]:
    """How many responses report the count, its median and its (whole-token) sum."""
    v = values.dropna().to_numpy(float)
    return (v.size, float(np.median(v)), int(v.sum())) if v.size else (0, None, None)


def token_rows(frame: pd.DataFrame) -> list[dict[str, Any]]:
    rows = []
    for setting, arm, sub in _groups(frame):
        for correct in (True, False):
            part = sub[sub["correct"] == correct]
            if part.empty:
                continue
            nc, mc, sc = _tokens(part["completion_tokens"])
            nr, mr, sr = _tokens(part["reasoning_tokens"])
            rows.append(
                {
                    "setting": setting,
                    "arm": arm,
                    "correct": correct,
                    "responses": len(part),
                    "with_completion": nc,
                    "completion_median": mc,
                    "completion_sum": sc,
                    "with_reasoning": nr,
                    "reasoning_median": mr,
                    "reasoning_sum": sr,
                }
            )
    return rows


def served_rows(responses: Iterable[Response]) -> list[dict[str, Any]]:
    """Per setting x served snapshot, in the order the snapshots first answered (see the module docstring).

    Only completed responses count; a cached answer counts under the snapshot that first gave it."""
    seen: dict[str, dict[str | None, dict[str, Any]]] = {}
    for r in responses:
        if r.status != "completed":
            continue
        when = r.finished_at or r.started_at or ""
        row = seen.setdefault(r.setting, {}).setdefault(
            r.served_model,
            {"setting": r.setting, "served_model": r.served_model, "responses": 0, "first_at": when, "last_at": when},
        )
        row["responses"] += 1
        row["first_at"] = min(row["first_at"], when)
        row["last_at"] = max(row["last_at"], when)
    rows: list[dict[str, Any]] = []
    for setting in sorted(seen):
        snapshots = sorted(seen[setting].values(), key=lambda x: (x["first_at"], str(x["served_model"])))
        named = [x for x in snapshots if x["served_model"] is not None]
        rows += [{**x, "snapshot_changed": len(named) > 1} for x in snapshots]
    return rows


def served_by_setting(responses: Iterable[Response]) -> dict[str, dict[str, Any]]:
    """Per setting: ``served_models`` (the snapshots named, ``"; "``-joined in the order they first answered;
    ``None`` when no response names one) and ``snapshot_changed``."""
    out: dict[str, dict[str, Any]] = {}
    for row in served_rows(responses):
        entry = out.setdefault(row["setting"], {"served_models": None, "snapshot_changed": row["snapshot_changed"]})
        if row["served_model"] is not None:
            names = [entry["served_models"]] if entry["served_models"] else []
            entry["served_models"] = "; ".join([*names, row["served_model"]])
    return out


def truncation_tables(
    tasks: Iterable[Task], grades: Iterable[Grade], responses: Iterable[Response], level: float = 0.95
) -> dict[str, Any]:
    """``truncation``, ``tokens`` and ``served`` rows plus ``unmatched`` (see the module docstring)."""
    responses = list(responses)
    frame, unmatched = response_frame(tasks, grades, responses)
    return {
        "truncation": truncation_rows(frame, level),
        "tokens": token_rows(frame),
        "served": served_rows(responses),
        "unmatched": unmatched,
    }
