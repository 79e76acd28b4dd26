"""Comparing settings: accuracy with source-cluster bootstrap intervals, and every pair of settings tested.

Both work on the joined cells of ``load_cells`` (one row per graded cell) and
draw each row's bootstrap stream from ``seeded_rng(config.seed, ...)`` keyed by
the row alone (never by the other settings present), so a setting's numbers do
not change when other settings are added to the comparison.

- ``accuracy_intervals``: per setting (optionally per value of a column such
  as ``arm`` or ``study``) C/R = correct / completed and C/N = correct /
  planned in percent, each with a percentile interval of the cluster-bootstrap
  ratio (``cluster_bootstrap_ratio``): whole source clusters are resampled.
  C/R resamples the clusters with at least one completed cell (a cluster
  without one adds nothing to either total).
- ``pairwise_differences``: for each pair of settings, the paired difference
  in C/N over the cells (task x sample) both graded, in percentage points,
  with the paired comparison's source-cluster bootstrap interval
  (``paired_replicates``), a two-sided bootstrap p-value
  (``bootstrap_p_value``) and Holm's adjustment over all pairs (statsmodels'
  ``multipletests(method="holm")``); ``distinct`` = Holm p < 1 - level.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd
from statsmodels.stats.multitest import multipletests

from execstate.analyze._config import AnalysisConfig
from execstate.analyze._paired import paired_replicates
from execstate.analyze._stats import bootstrap_p_value, cluster_bootstrap_ratio, percentile_interval, seeded_rng


def _pct(num: int, den: int) -> float | None:
    return 100.0 * num / den if den else None


def _ratio_interval(
    num: pd.Series, den: pd.Series, config: AnalysisConfig, *key: str
) -> tuple[float | None, float | None]:
    """Percentile interval (percent) of sum(num)/sum(den) over source clusters with den > 0."""
    keep = den > 0
    if not keep.any():
        return None, None
    reps = cluster_bootstrap_ratio(
        num[keep].to_numpy(), den[keep].to_numpy(), config.replicates, seeded_rng(config.seed, *key)
    )
    low, high = percentile_interval(reps, config.level)
    return 100.0 * low, 100.0 * high


def _accuracy_row(sub: pd.DataFrame, config: AnalysisConfig, key: tuple[str, ...]) -> dict[str, Any]:
    by_src = sub.groupby("source_sha256", sort=True)
    correct, completed = by_src["correct"].sum(), by_src["completed"].sum()
    cr_low, cr_high = _ratio_interval(correct, completed, config, "accuracy-cr", *key)
    cn_low, cn_high = _ratio_interval(correct, by_src.size(), config, "accuracy-cn", *key)
    k, done = int(sub["correct"].sum()), int(sub["completed"].sum())
    return {
        "planned": len(sub),
        "completed": done,
        "correct": k,
        "sources": int(sub["source_sha256"].nunique()),
        "acc_completed_pct": _pct(k, done),
        "cr_low_pct": cr_low,
        "cr_high_pct": cr_high,
        "acc_planned_pct": _pct(k, len(sub)),
        "cn_low_pct": cn_low,
        "cn_high_pct": cn_high,
    }


def accuracy_intervals(frame: pd.DataFrame, config: AnalysisConfig, by: str | None = None) -> list[dict[str, Any]]:
    """Rows ``setting[, by], planned, completed, correct, sources``, C/R and C/N with their intervals (percent).

    Settings sorted; with ``by``, one row per setting x value of that column (values sorted); a group
    without a completed cell has ``None`` for C/R and its interval.
    """
    rows = []
    for setting in sorted(frame["setting"].unique()):
        per = frame[frame["setting"] == setting]
        if by is None:
            rows.append({"setting": setting, **_accuracy_row(per, config, (setting,))})
            continue
        for value in sorted(per[by].unique()):
            sub = per[per[by] == value]
            rows.append({"setting": setting, by: value, **_accuracy_row(sub, config, (setting, by, str(value)))})
    return rows


def _pair_row(a: str, b: str, frame: pd.DataFrame, config: AnalysisConfig) -> dict[str, Any]:
    cols = ["task_id", "sample", "source_sha256", "correct"]
    both = frame.loc[frame["setting"] == a, cols].merge(
        frame.loc[frame["setting"] == b, cols[:2] + ["correct"]], on=["task_id", "sample"], suffixes=("_a", "_b")
    )
    row: dict[str, Any] = {"setting_a": a, "setting_b": b, "cells": len(both)}
    row["sources"] = int(both["source_sha256"].nunique())
    row["a_correct"], row["b_correct"] = int(both["correct_a"].sum()), int(both["correct_b"].sum())
    row.update(difference_pp=None, ci_low_pp=None, ci_high_pp=None, p=None)
    if len(both):
        first, second = both["correct_a"].to_numpy(bool), both["correct_b"].to_numpy(bool)
        estimate, reps = paired_replicates(first, second, both["source_sha256"].to_numpy(), config, "pairwise", a, b)
        low, high = percentile_interval(reps, config.level)
        row.update(difference_pp=estimate, ci_low_pp=100.0 * low, ci_high_pp=100.0 * high)
        row["p"] = bootstrap_p_value(reps)
    return row


def pairwise_differences(
    frame: pd.DataFrame, config: AnalysisConfig, order: list[str] | None = None
) -> list[dict[str, Any]]:
    """One row per pair of settings (``order``, default sorted; ``a`` before ``b``): paired C/N difference a - b
    in percentage points over the cells both graded, its interval, ``p``, ``p_holm`` and ``distinct``."""
    settings = order if order is not None else sorted(frame["setting"].unique())
    rows = [_pair_row(a, b, frame, config) for a, b in combinations(settings, 2)]
    tested = [i for i, r in enumerate(rows) if r["p"] is not None]
    adjusted = multipletests([rows[i]["p"] for i in tested], method="holm")[1] if tested else np.empty(0)
    for row in rows:
        row["p_holm"], row["distinct"] = None, False
    for i, p in zip(tested, adjusted):
        rows[i]["p_holm"] = float(p)
        rows[i]["distinct"] = bool(p < 1.0 - config.level)
    return rows
