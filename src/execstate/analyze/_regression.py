"""Cluster-robust logistic regression of error on execution metrics (paper Appendix D, Table 6).

Observations: completed predictions in the regression language, outside the
excluded study, whose trace length, peak state and state load are all
measured and positive (log2 of 0 is undefined; such rows are counted in
``regression_fits[].excluded_*``, never imputed). All three models are fitted
on the same rows. Design: intercept, study, arm and setting indicators
(references: first study and setting in sorted order, first arm in the
records' arm order), plus mean-centred log2 metrics. Levels of study, arm or
setting whose rows all share one outcome are left out and named in
``separated_levels`` (their indicator has no finite estimate). Constant or
linearly dependent columns are dropped and named in ``dropped_columns``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from execstate.analyze._arms import table_arms
from execstate.analyze._cells import DYNAMIC_METRICS
from execstate.analyze._config import AnalysisConfig
from execstate.analyze._logit import LogitFit, fit_logit

MODELS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("baseline", ()),
    ("trace+peak", ("trace_length", "peak_state")),
    ("trace+peak+load", ("trace_length", "peak_state", "state_load")),
)


def regression_rows(frame: pd.DataFrame, config: AnalysisConfig) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The model's observations and what was left out: counts by reason and separated levels."""
    base = frame[frame["completed"] & (frame["language"] == config.regression_language)]
    if config.exclude_study:
        base = base[base["study"] != config.exclude_study]
    metrics = base[list(DYNAMIC_METRICS)]
    missing = metrics.isna().any(axis=1)
    nonpositive = ~missing & (metrics <= 0).any(axis=1)
    rows, separated = drop_separated_levels(base[~missing & ~nonpositive])
    counts = {
        "excluded_missing_metric": int(missing.sum()),
        "excluded_nonpositive_metric": int(nonpositive.sum()),
        "excluded_separated_rows": int((~missing & ~nonpositive).sum() - len(rows)),
        "separated_levels": separated,
    }
    return rows.reset_index(drop=True), counts


def drop_separated_levels(rows: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """Drop study/arm/setting levels whose rows all share one outcome, until none is left.

    Such a level's indicator has no finite maximum-likelihood estimate (it
    runs to +-infinity) and, in that limit, its rows no longer inform the other
    coefficients, so leaving them out gives the limiting estimates and a fit
    that converges. Each dropped level is named, e.g. ``setting=x (all correct)``.
    """
    dropped: list[str] = []
    changed = True
    while changed and len(rows):
        changed = False
        for column in ("study", "arm", "setting"):
            rate = rows.groupby(column, sort=True)["error"].mean()
            constant = rate[(rate == 0) | (rate == 1)]
            if len(constant) and len(constant) < len(rate):
                dropped += [
                    f"{column}={lvl} ({'all wrong' if r == 1 else 'all correct'})" for lvl, r in constant.items()
                ]
                rows = rows[~rows[column].isin(constant.index)]
                changed = True
    return rows, dropped


def _indicators(values: pd.Series, prefix: str, order: list[str]) -> tuple[list[str], list[np.ndarray]]:
    """Indicator columns for every level but the reference (the first of ``order`` present)."""
    present = set(values.unique().tolist())  # not set(values): iterating an Arrow string column is slow
    levels = [v for v in order if v in present]
    names = [f"{prefix}[{level}]" for level in levels[1:]]
    return names, [(values == level).to_numpy(dtype=float) for level in levels[1:]]


def build_design(rows: pd.DataFrame, predictors: tuple[str, ...]) -> tuple[np.ndarray, list[str], list[str]]:
    """(X, kept column names, dropped column names) for one model."""
    names, cols = ["intercept"], [np.ones(len(rows))]
    for prefix, order in (
        ("study", sorted(rows["study"].unique())),
        ("arm", list(table_arms())),  # the reference level: the first arm in arm order
        ("setting", sorted(rows["setting"].unique())),
    ):
        n, c = _indicators(rows[prefix], prefix, order)
        names += n
        cols += c
    for metric in predictors:
        logged = np.log2(rows[metric].to_numpy(dtype=float))
        names.append(metric)
        cols.append(logged - logged.mean() if logged.size else logged)
    return _drop_dependent(np.column_stack(cols), names)


def _drop_dependent(X: np.ndarray, names: list[str]) -> tuple[np.ndarray, list[str], list[str]]:
    """Keep columns in order while each adds rank; constants (other than the intercept) go first."""
    keep: list[int] = []
    dropped: list[str] = []
    for j in range(X.shape[1]):
        col = X[:, j]
        if j > 0 and (col.size == 0 or np.ptp(col) == 0):
            dropped.append(names[j])
            continue
        if np.linalg.matrix_rank(X[:, keep + [j]]) == len(keep) + 1:
            keep.append(j)
        else:
            dropped.append(names[j])
    return X[:, keep], [names[j] for j in keep], dropped


def _fit_row(model: str, fit: LogitFit, dropped: list[str], counts: dict[str, Any]) -> dict[str, Any]:
    return {
        "model": model,
        "status": fit.status,
        "n": fit.n,
        "clusters": fit.clusters,
        "parameters": len(fit.columns),
        "df": fit.df,
        "converged": fit.converged,
        "iterations": fit.iterations,
        "condition_number": fit.condition_number,
        "max_abs_score": fit.max_abs_score,
        "cov_min_eigenvalue": fit.cov_min_eigenvalue,
        "cov_positive_definite": None if fit.cov_min_eigenvalue is None else fit.cov_min_eigenvalue > 0,
        "columns": fit.columns,
        "dropped_columns": dropped,
        "warnings": fit.warnings,
        **counts,
    }


def _predictor_rows(model: str, predictors: tuple[str, ...], fit: LogitFit, level: float) -> list[dict[str, Any]]:
    rows = []
    for metric in predictors:
        row: dict[str, Any] = {
            "model": model,
            "predictor": metric,
            "n": fit.n,
            "clusters": fit.clusters,
            "coef": None,
            "se": None,
            "odds_ratio": None,
            "ci_low": None,
            "ci_high": None,
            "t": None,
            "df": fit.df,
            "p": None,
            "status": fit.status,
        }
        if fit.ok and metric in fit.columns:
            if not fit.converged:
                row["status"] = "not converged: estimates unreliable"
            s = fit.summary(fit.columns.index(metric), level)
            row.update(
                coef=s["coef"],
                se=s["se"],
                odds_ratio=float(np.exp(s["coef"])),
                ci_low=float(np.exp(s["ci_low"])),
                ci_high=float(np.exp(s["ci_high"])),
                t=s["statistic"],
                p=s["p"],
            )
        elif fit.ok:
            row["status"] = "inestimable: column dropped (constant or collinear)"
        rows.append(row)
    return rows


def cluster_regression(frame: pd.DataFrame, config: AnalysisConfig) -> dict[str, list[dict[str, Any]]]:
    """Table 6 rows (``regression``), per-model diagnostics (``regression_fits``), ``correlations``."""
    rows, counts = regression_rows(frame, config)
    coef_rows, fit_rows = [], []
    for model, predictors in MODELS:
        X, columns, dropped = build_design(rows, predictors)
        fit = fit_logit(rows["error"].to_numpy(dtype=float), X, columns, groups=rows["source_sha256"].to_numpy())
        fit_rows.append(_fit_row(model, fit, dropped, counts))
        coef_rows += _predictor_rows(model, predictors, fit, config.level)
    return {"regression": coef_rows, "regression_fits": fit_rows, "correlations": log_correlations(rows)}


def log_correlations(rows: pd.DataFrame) -> list[dict[str, Any]]:
    """Pearson correlations between the log2 metrics over the model's observations."""
    out = []
    logged = {m: np.log2(rows[m].to_numpy(dtype=float)) for m in DYNAMIC_METRICS}
    for i, a in enumerate(DYNAMIC_METRICS):
        for b in DYNAMIC_METRICS[i + 1 :]:
            ok = len(rows) > 1 and np.ptp(logged[a]) > 0 and np.ptp(logged[b]) > 0
            r = float(np.corrcoef(logged[a], logged[b])[0, 1]) if ok else None
            out.append({"predictor_a": a, "predictor_b": b, "n": len(rows), "correlation": r})
    return out
