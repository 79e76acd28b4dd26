"""Checkpoint sweeps (SPEC 11): inside-state accuracy against the checkpoint's position k/K.

A swept case has extra inside tasks (``meta["sweep"]``, ids ``<case>/inside-loop-state@k<k>``); its
main inside task is one more position. These rows never enter the four-arm tables. Positions are
grouped in fixed bins of k/K (``BINS``), with completed-response accuracy and a Wilson interval;
the figure also draws each case's own accuracy at each of its positions.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from execstate.analyze._stats import wilson_interval
from execstate.arms import arm_spec
from execstate.records import CORRECT_STATUSES, Grade, Task, is_sweep

BINS: tuple[float, ...] = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
"""Edges of the k/K bins: (0, 0.2], (0.2, 0.4], ..., (0.8, 1]."""


def _inside_state(arm: str) -> bool:
    """True for a state arm asked at the inside checkpoint (the arm a sweep repeats at other iterations)."""
    spec = arm_spec(arm)
    return spec.family == "state" and spec.checkpoint == "inside"


def sweep_positions(tasks: Iterable[Task]) -> dict[str, dict[str, Any]]:
    """task id -> {case_id, k, K, position} for every inside task of a swept case (main task included)."""
    tasks = list(tasks)
    swept = {t.case_id for t in tasks if is_sweep(t)}
    return {
        t.task_id: {
            "case_id": t.case_id,
            "k": int(t.meta["k"]),
            "K": int(t.meta["K"]),
            "position": int(t.meta["k"]) / int(t.meta["K"]),
        }
        for t in tasks
        if t.case_id in swept and _inside_state(t.arm)
    }


def sweep_rows(tasks: Iterable[Task], grades: Iterable[Grade], level: float = 0.95) -> dict[str, Any]:
    """``points`` (per task x setting: position, completed, correct), ``bins`` (per setting x k/K bin) and
    ``figure`` (the data of the accuracy-by-position figure); all empty without a swept case."""
    pos = sweep_positions(tasks)
    acc: dict[tuple[str, str], list[int]] = {}
    for g in grades:
        if g.task_id in pos and g.status != "no-response":
            acc.setdefault((g.setting, g.task_id), []).append(int(g.status in CORRECT_STATUSES))
    points = [
        {"setting": s, "task_id": tid, **pos[tid], "completed": len(v), "correct": sum(v)}
        for (s, tid), v in sorted(acc.items(), key=lambda kv: (kv[0][0], pos[kv[0][1]]["case_id"], pos[kv[0][1]]["k"]))
    ]
    bins = _bins(points, level)
    figure = {"figure": "accuracy_by_position", "level": level, "bins": bins, "points": points}
    return {"points": points, "bins": bins, "figure": figure if points else None}


def _bins(points: list[dict[str, Any]], level: float) -> list[dict[str, Any]]:
    rows = []
    for setting in sorted({p["setting"] for p in points}):
        mine = [p for p in points if p["setting"] == setting]
        where = np.clip(np.searchsorted(BINS, [p["position"] for p in mine], side="left") - 1, 0, len(BINS) - 2)
        for b in range(len(BINS) - 1):
            sel = [p for p, w in zip(mine, where) if w == b]
            if not sel:
                continue
            k, n = sum(p["correct"] for p in sel), sum(p["completed"] for p in sel)
            low, high = wilson_interval(k, n, level)
            rows.append(
                {
                    "setting": setting,
                    "bin": f"({BINS[b]:.1f}, {BINS[b + 1]:.1f}]",
                    "position": float(np.mean([p["position"] for p in sel])),
                    "tasks": len({p["task_id"] for p in sel}),
                    "completed": n,
                    "correct": k,
                    "rate": k / n if n else None,
                    "low": low,
                    "high": high,
                }
            )
    return rows
