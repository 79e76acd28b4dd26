"""Repeated-sample stability (SPEC 11): how a setting answers one cell when asked n > 1 times.

Per cell (task x setting) whose n samples all completed:

- ``agreement`` — the share of samples giving the most frequent answer
  (answers compared as extracted text, outer whitespace stripped; no answer
  is one more value);
- ``majority_correct`` — 1 if that most frequent answer (ties: the one a
  sample gave first) is correct;
- ``pass@k`` for k = 1..n — the unbiased estimator of Chen et al. (2021),
  1 - C(n-c, k) / C(n, k) with c correct samples (``execstate.grade.pass_at_k``);
- ``flip_rate`` — the share of the n(n-1)/2 sample pairs that disagree on
  correctness, 2 c (n-c) / (n (n-1)).

Rows average these over the cells of a setting x arm (and over all arms), each
with a source-cluster bootstrap percentile interval like the paired
comparison's. Cells with a no-response sample are counted, not scored.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pandas as pd

from execstate.analyze._arms import table_arms
from execstate.analyze._config import AnalysisConfig
from execstate.analyze._stats import cluster_bootstrap_ratio, percentile_interval, seeded_rng
from execstate.grade import pass_at_k
from execstate.records import CORRECT_STATUSES, Grade, Task

ALL_ARMS = "all"
_NO_ANSWER = "\x00no answer"


def cell_stability(grades: Sequence[Grade]) -> dict[str, Any]:
    """The statistics of one cell's samples (all completed, in sample order, n >= 2)."""
    n = len(grades)
    keys = [_NO_ANSWER if g.answer is None else g.answer.strip() for g in grades]
    counts = {k: keys.count(k) for k in dict.fromkeys(keys)}
    mode = max(counts, key=lambda k: counts[k])  # first-seen among ties: dicts keep insertion order
    correct = [g.status in CORRECT_STATUSES for g in grades]
    c = sum(correct)
    row: dict[str, Any] = {
        "samples": n,
        "correct": c,
        "agreement": counts[mode] / n,
        "majority_correct": float(correct[keys.index(mode)]),
        "flip_rate": 2.0 * c * (n - c) / (n * (n - 1)),
    }
    row.update({f"pass@{k}": pass_at_k(n, c, k) for k in range(1, n + 1)})
    return row


def stability_cells(tasks: Iterable[Task], grades: Iterable[Grade]) -> tuple[pd.DataFrame, int]:
    """One row per multi-sample cell whose samples all completed, and the count of cells left out."""
    by_id = {t.task_id: t for t in tasks}
    groups: dict[tuple[str, str], list[Grade]] = {}
    for g in grades:
        if g.task_id in by_id:
            groups.setdefault((g.task_id, g.setting), []).append(g)
    rows, incomplete = [], 0
    for (task_id, setting), group in sorted(groups.items()):
        if len(group) < 2:
            continue
        if any(g.status == "no-response" for g in group):
            incomplete += 1
            continue
        task = by_id[task_id]
        stats = cell_stability(sorted(group, key=lambda g: g.sample))
        rows.append(
            {"task_id": task_id, "setting": setting, "arm": task.arm, "source_sha256": task.source_sha256, **stats}
        )
    return pd.DataFrame(rows), incomplete


def _mean_ci(sub: pd.DataFrame, col: str, config: AnalysisConfig, key: tuple[str, ...]) -> tuple[float, float, float]:
    """Mean of ``col`` over cells and its source-cluster bootstrap percentile interval."""
    by_src = sub.groupby("source_sha256", sort=True)[col]
    reps = cluster_bootstrap_ratio(
        by_src.sum().to_numpy(), by_src.size().to_numpy(), config.replicates, seeded_rng(config.seed, *key, col)
    )
    low, high = percentile_interval(reps, config.level)
    return float(sub[col].mean()), low, high


def stability_rows(tasks: Iterable[Task], grades: Iterable[Grade], config: AnalysisConfig) -> dict[str, Any]:
    """``cells`` (per-cell rows), ``rows`` (setting x arm means with intervals) and ``incomplete_cells``."""
    frame, incomplete = stability_cells(tasks, grades)
    out: dict[str, Any] = {"cells": frame.to_dict("records"), "rows": [], "incomplete_cells": incomplete}
    if frame.empty:
        return out
    for setting in sorted(frame["setting"].unique()):
        per = frame[frame["setting"] == setting]
        arms = [a for a in table_arms() if a in set(per["arm"])]
        for arm in [*arms, ALL_ARMS]:
            sub = per if arm == ALL_ARMS else per[per["arm"] == arm]
            n = int(sub["samples"].min())
            row: dict[str, Any] = {"setting": setting, "arm": arm, "cells": len(sub), "samples": n}
            for col in ("agreement", "majority_correct", "flip_rate", *(f"pass@{k}" for k in range(1, n + 1))):
                mean, low, high = _mean_ci(sub.dropna(subset=[col]), col, config, ("stability", setting, arm))
                row.update({col: mean, f"{col}_low": low, f"{col}_high": high})
            out["rows"].append(row)
    return out


def pass_at_k_columns(rows: list[dict[str, Any]]) -> list[str]:
    """The ``pass@k`` columns present in ``rows``, by k."""
    ks = sorted({int(c.split("@")[1]) for r in rows for c in r if c.startswith("pass@") and c.count("_") == 0})
    return [f"pass@{k}" for k in ks]
