"""Paired short- vs long-input final-output comparison with a source-cluster bootstrap.

A pair is one Python case x setting x sample whose two final arms are both
completed; a pair with a no-response on either arm is counted as incomplete,
never scored. The decrement is 100 * (short correct - long correct) / pairs,
in percentage points; its interval resamples whole source clusters (all the
cluster's pairs, over every setting in the row, travel together).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from execstate.analyze._arms import final_arm
from execstate.analyze._config import AnalysisConfig, Cohort
from execstate.analyze._stats import cluster_bootstrap_ratio, percentile_interval, seeded_rng

POOLED = "pooled"
_KEY = ["case_id", "setting", "sample"]


def final_pairs(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per Python case x setting x sample with both final arms graded.

    Columns: case_id, setting, sample, study, source_sha256, short_correct,
    long_correct (bools) and complete (both arms completed).
    """
    short_arm, long_arm = final_arm("short"), final_arm("long")
    py = frame[(frame["language"] == "python") & frame["arm"].isin([short_arm, long_arm])]
    cols = [*_KEY, "study", "source_sha256", "completed", "correct"]
    short = py.loc[py["arm"] == short_arm, cols]
    long = py.loc[py["arm"] == long_arm, [*_KEY, "completed", "correct"]]
    pairs = short.merge(long, on=_KEY, suffixes=("_short", "_long"), how="inner")
    return pd.DataFrame(
        {
            **{k: pairs[k] for k in [*_KEY, "study", "source_sha256"]},
            "short_correct": pairs["correct_short"].astype(bool),
            "long_correct": pairs["correct_long"].astype(bool),
            "complete": (pairs["completed_short"] & pairs["completed_long"]).astype(bool),
        }
    ).reset_index(drop=True)


def _row(cohort: str, setting: str, subset: pd.DataFrame, config: AnalysisConfig) -> dict[str, Any]:
    """Counts, decrement and bootstrap interval for one cohort x setting (or pooled)."""
    done = subset[subset["complete"]]
    s, lg = done["short_correct"].to_numpy(), done["long_correct"].to_numpy()
    row: dict[str, Any] = {
        "cohort": cohort,
        "setting": setting,
        "settings": int(done["setting"].nunique()),
        "pairs": len(done),
        "incomplete_pairs": int(len(subset) - len(done)),
        "sources": int(done["source_sha256"].nunique()),
        "short_correct": int(s.sum()),
        "long_correct": int(lg.sum()),
        "correct_to_wrong": int((s & ~lg).sum()),
        "wrong_to_correct": int((~s & lg).sum()),
        "decrement_pp": None,
        "ci_low": None,
        "ci_high": None,
        "replicates": config.replicates,
        "level": config.level,
    }
    if len(done) == 0:
        return row
    row["decrement_pp"], row["ci_low"], row["ci_high"] = paired_difference(
        s, lg, done["source_sha256"].to_numpy(), config, "paired", cohort, setting
    )
    return row


def paired_difference(
    first: np.ndarray, second: np.ndarray, sources: np.ndarray, config: AnalysisConfig, *key: str
) -> tuple[float, float, float]:
    """``100 * (sum(first) - sum(second)) / n`` in percentage points over n >= 1 pairs of correctness
    booleans, and its source-cluster bootstrap percentile interval (``config.replicates`` replicates at
    ``config.level``; whole clusters of ``sources`` resampled; the stream is ``seeded_rng(config.seed, *key)``)."""
    estimate, reps = paired_replicates(first, second, sources, config, *key)
    low, high = (100.0 * v for v in percentile_interval(reps, config.level))
    return estimate, low, high


def paired_replicates(
    first: np.ndarray, second: np.ndarray, sources: np.ndarray, config: AnalysisConfig, *key: str
) -> tuple[float, np.ndarray]:
    """The estimate of ``paired_difference`` (percentage points) and its bootstrap replicates (as fractions:
    mean paired difference per pair, not yet times 100, so the interval is computed exactly as before)."""
    diff = first.astype(int) - second.astype(int)
    by_src = pd.DataFrame({"src": sources, "d": diff}).groupby("src", sort=True)["d"]
    reps = cluster_bootstrap_ratio(
        by_src.sum().to_numpy(), by_src.size().to_numpy(), config.replicates, seeded_rng(config.seed, *key)
    )
    return 100.0 * float(diff.sum()) / len(diff), reps


def paired_studies(frame: pd.DataFrame) -> list[str]:
    """The studies that have Python final pairs (each gets its own cohort by default), sorted."""
    return _studies(final_pairs(frame))


def _studies(pairs: pd.DataFrame) -> list[str]:
    return sorted(pairs["study"].unique().tolist())


def _cohort_pairs(pairs: pd.DataFrame, cohort: Cohort) -> pd.DataFrame:
    keep = ~pairs["study"].isin(cohort.exclude_studies)
    if cohort.studies is not None:
        keep &= pairs["study"].isin(cohort.studies)
    if cohort.settings is not None:
        keep &= pairs["setting"].isin(cohort.settings)
    return pairs[keep]


def paired_comparison(frame: pd.DataFrame, config: AnalysisConfig) -> list[dict[str, Any]]:
    """Rows for every declared cohort: the pooled row first, then one per setting (sorted)."""
    pairs = final_pairs(frame)
    rows = []
    for cohort in config.declared_cohorts(sorted(frame["setting"].unique()), _studies(pairs)):
        subset = _cohort_pairs(pairs, cohort)
        rows.append(_row(cohort.name, POOLED, subset, config))
        for setting in sorted(subset["setting"].unique()):
            rows.append(_row(cohort.name, setting, subset[subset["setting"] == setting], config))
    return rows


BRANCH_COHORTS = (("branch-preserving", True), ("not-branch-preserving", False))


def branch_preserving_rows(frame: pd.DataFrame, config: AnalysisConfig) -> list[dict[str, Any]]:
    """The paired decrement again for pairs whose case is branch-preserving (SPEC 5 and 11), and for
    those flagged not branch-preserving; cases without the flag are in neither. Empty without flags."""
    flags = frame.drop_duplicates("case_id").set_index("case_id")["branch_preserving"]
    pairs = final_pairs(frame)
    pairs = pairs.assign(branch_preserving=pairs["case_id"].map(flags))
    rows = []
    for name, flag in BRANCH_COHORTS:
        subset = pairs[pairs["branch_preserving"].eq(flag)]
        if subset.empty:
            continue
        rows.append(_row(name, POOLED, subset, config))
        for setting in sorted(subset["setting"].unique()):
            rows.append(_row(name, setting, subset[subset["setting"] == setting], config))
    return rows
