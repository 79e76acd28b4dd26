"""The numbers every report figure shows (fits, bands, binned rates), as plain JSON-able records.

The report stage only draws these; it computes nothing. Records are keyed by
figure name, in report order: ``accuracy_by_arm``, then per study
``error_vs_load_<study>`` and ``accuracy_vs_peak_<study>``. Bins are quantile
bins of log2(metric) (at most ``MAX_BINS``, merged where quantiles tie) with
Wilson intervals. Error-vs-load bands come from a logistic fit of error on
log2 load with the source-cluster covariance and a t reference on G-1 degrees
of freedom. Values are kept at full precision here: ``write_analysis_json``
rounds only the written copy, so the drawn figures do not depend on it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from execstate.analyze._arms import table_arms
from execstate.analyze._logit import fit_logit, univariate_design
from execstate.analyze._stats import wilson_interval

MAX_BINS = 8
BAND_POINTS = 100
_NO_FIT = {"band": None, "odds_ratio": None, "ci_low": None, "ci_high": None}


def quantile_bins(x: np.ndarray, max_bins: int = MAX_BINS) -> np.ndarray:
    """Bin index per value: quantile bins of ``x`` with tied edges merged."""
    edges = np.unique(np.quantile(x, np.linspace(0, 1, max_bins + 1)))
    if edges.size <= 2:
        return np.zeros(x.size, dtype=int)
    return np.clip(np.searchsorted(edges[1:-1], x, side="right"), 0, edges.size - 2)


def binned_rates(x: np.ndarray, hits: np.ndarray, level: float = 0.95) -> list[dict[str, float]]:
    """Per quantile bin of log2(x): geometric-mean x, n, rate and its Wilson interval."""
    logx = np.log2(x)
    out = []
    bins = quantile_bins(logx)
    for b in np.unique(bins):
        sel = bins == b
        k, n = int(hits[sel].sum()), int(sel.sum())
        low, high = wilson_interval(k, n, level)
        out.append({"x": float(2 ** logx[sel].mean()), "n": n, "rate": k / n, "low": low, "high": high})
    return out


def _metric_rows(frame: pd.DataFrame, study: str, metric: str) -> pd.DataFrame:
    """Completed rows of ``study`` whose metric can be put on a log2 axis."""
    done = frame[frame["completed"] & (frame["study"] == study)]
    return done[np.isfinite(done[metric]) & (done[metric] > 0)]


def accuracy_by_arm_data(frame: pd.DataFrame, level: float) -> dict[str, Any]:
    """Completed-response accuracy per arm x setting (arm x setting pairs without rows are left out)."""
    done = frame[frame["completed"]]
    settings = sorted(frame["setting"].unique().tolist())
    arms = [a for a in table_arms() if a in set(done["arm"])]
    bars = []
    for arm in arms:
        for setting in settings:
            sub = done[(done["arm"] == arm) & (done["setting"] == setting)]
            if sub.empty:
                continue
            k, n = int(sub["correct"].sum()), len(sub)
            low, high = wilson_interval(k, n, level)
            bars.append({"arm": arm, "setting": setting, "k": k, "n": n, "rate": k / n, "low": low, "high": high})
    return {"figure": "accuracy_by_arm", "level": level, "settings": settings, "arms": arms, "bars": bars}


def _band(x: np.ndarray, err: np.ndarray, groups: np.ndarray, level: float) -> dict[str, Any]:
    """Cluster-t logistic fit of error on log2 x: status, and when estimable band and odds ratio."""
    lx = np.log2(x)
    fit = fit_logit(err.astype(float), univariate_design(lx), ["intercept", "log2"], groups=groups)
    if not fit.ok:
        return {"fit_status": fit.status, **_NO_FIT}
    if np.ptp(lx) == 0:  # a band over a single x value has no width to draw
        return {"fit_status": "inestimable: load constant in this panel", **_NO_FIT}
    g = np.linspace(lx.min(), lx.max(), BAND_POINTS)
    design = univariate_design(g)
    eta = design @ fit.params
    se = np.sqrt(np.einsum("ij,jk,ik->i", design, fit.cov, design))
    crit = fit.critical(level)
    expit = lambda v: 1.0 / (1.0 + np.exp(-v))
    band = {
        "x": (2**g).tolist(),
        "fit": expit(eta).tolist(),
        "low": expit(eta - crit * se).tolist(),
        "high": expit(eta + crit * se).tolist(),
    }
    s = fit.summary(1, level)
    with np.errstate(over="ignore"):  # a nearly separated fit's bound may overflow: written as null
        ors = {
            k: float(np.exp(s[c])) for k, c in (("odds_ratio", "coef"), ("ci_low", "ci_low"), ("ci_high", "ci_high"))
        }
    return {"fit_status": "ok", "band": band, **ors}


def error_vs_load_data(frame: pd.DataFrame, study: str, level: float) -> dict[str, Any]:
    """Per setting of the frame: binned error rates vs state load and the logistic band."""
    rows = _metric_rows(frame, study, "state_load")
    panels = []
    for setting in sorted(frame["setting"].unique().tolist()):
        sub = rows[rows["setting"] == setting]
        panel: dict[str, Any] = {"setting": setting, "n": len(sub)}
        if sub.empty:
            panels.append({**panel, "bins": [], "fit_status": "inestimable: no completed predictions", **_NO_FIT})
            continue
        x, err = sub["state_load"].to_numpy(float), sub["error"].to_numpy(bool)
        fit = _band(x, err, sub["source_sha256"].to_numpy(), level)
        panels.append({**panel, "bins": binned_rates(x, err, level), **fit})
    return {"figure": "error_vs_load", "study": study, "level": level, "panels": panels}


def _series_head(series: list[dict[str, Any]], study: str, setting: str, metric: str) -> dict[str, Any] | None:
    """theta, p and status of the pooled series row of this panel, if there is one."""
    for r in series:
        if (r["study"], r["setting"], r["arm"], r["metric"]) == (study, setting, "pooled", metric):
            return {"estimable": r["estimable"], "theta": r["theta"], "p": r["p"], "status": r["status"]}
    return None


def accuracy_vs_peak_data(
    frame: pd.DataFrame, study: str, series: list[dict[str, Any]], level: float
) -> dict[str, Any]:
    """Per setting of the frame: binned accuracy vs peak state (arms pooled) and the series header."""
    rows = _metric_rows(frame, study, "peak_state")
    panels = []
    for setting in sorted(frame["setting"].unique().tolist()):
        sub = rows[rows["setting"] == setting]
        panel: dict[str, Any] = {
            "setting": setting,
            "n": len(sub),
            "bins": [],
            "accuracy": None,
            "series": _series_head(series, study, setting, "peak_state"),
        }
        if not sub.empty:
            ok = sub["correct"].to_numpy(bool)
            panel["bins"] = binned_rates(sub["peak_state"].to_numpy(float), ok, level)
            panel["accuracy"] = float(ok.mean())
        panels.append(panel)
    return {"figure": "accuracy_vs_peak", "study": study, "level": level, "panels": panels}


def _unmeasured(frame: pd.DataFrame, study: str) -> bool:
    """Whether ``study`` has tasks in the frame and none of them has a state load or peak state."""
    rows = frame[frame["study"] == study]
    return not rows.empty and not rows[["state_load", "peak_state"]].notna().to_numpy().any()


def figure_data(
    frame: pd.DataFrame, series: list[dict[str, Any]], studies: list[str], level: float = 0.95
) -> dict[str, dict[str, Any]]:
    """Every report figure's data keyed by figure name, in report order.

    A study whose tasks carry no state measurement at all (CRUXEval: its tasks are loaded as data, not
    measured by the builder) gets no figures but one ``omitted_<study>`` record saying why.
    """
    out = {"accuracy_by_arm": accuracy_by_arm_data(frame, level)}
    for study in studies:
        if _unmeasured(frame, study):
            out[f"omitted_{study}"] = {
                "figure": "omitted",
                "study": study,
                "reason": f"No state figures for {study}: its tasks carry no state-load or peak-state "
                "measurement (they are loaded as data, not measured by the builder), so every panel would be empty.",
            }
            continue
        out[f"error_vs_load_{study}"] = error_vs_load_data(frame, study, level)
        out[f"accuracy_vs_peak_{study}"] = accuracy_vs_peak_data(frame, study, series, level)
    return out
