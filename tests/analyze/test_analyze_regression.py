"""Cluster-robust logistic regression: sandwich by hand, recovery of a known effect, degenerate designs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from execstate.analyze import (
    AnalysisConfig,
    build_design,
    cluster_regression,
    fit_logit,
    load_cells,
    regression_rows,
)
from execstate.testing import synthetic_grades, synthetic_tasks

SMALL = (("classic", "python", 30), ("lcb_python", "python", 90), ("networkx", "python", 10))


def _expit(v):
    return 1.0 / (1.0 + np.exp(-v))


def test_cluster_sandwich_matches_hand_computation():
    rng = np.random.default_rng(4)
    n, g = 400, 37
    groups = rng.integers(0, g, size=n)
    X = np.column_stack([np.ones(n), rng.normal(size=n), rng.integers(0, 2, size=n)])
    shared = rng.normal(0, 0.8, size=g)[groups]  # within-cluster correlation
    y = (rng.random(n) < _expit(X @ [-0.3, 0.7, 0.5] + shared)).astype(float)
    fit = fit_logit(y, X, ["intercept", "x", "d"], groups=groups)
    assert fit.ok and fit.converged

    # By hand, from the fitted coefficients: bread (X'WX)^-1, meat sum_g u_g u_g', CRV1 factor.
    p = _expit(X @ fit.params)
    bread = np.linalg.inv(X.T @ (X * (p * (1 - p))[:, None]))
    scores = X * (y - p)[:, None]
    u = np.stack([scores[groups == c].sum(axis=0) for c in np.unique(groups)])
    k = X.shape[1]
    factor = g / (g - 1) * (n - 1) / (n - k)
    cov = factor * bread @ (u.T @ u) @ bread
    assert np.abs(scores.sum(axis=0)).max() < 1e-8  # the fit is at the maximum
    np.testing.assert_allclose(fit.cov, cov, rtol=1e-7)

    se = np.sqrt(np.diag(cov))
    crit = stats.t.ppf(0.975, g - 1)
    s = fit.summary(1, 0.95)
    assert fit.df == g - 1
    assert s["se"] == pytest.approx(se[1], rel=1e-7)
    assert s["ci_low"] == pytest.approx(fit.params[1] - crit * se[1], rel=1e-7)
    assert s["p"] == pytest.approx(2 * stats.t.sf(abs(fit.params[1] / se[1]), g - 1), rel=1e-6)


def _regression(trace_or: float, seed: int, cluster_sd: float = 0.0):
    tasks = synthetic_tasks(seed, SMALL)
    grades = synthetic_grades(tasks, seed, trace_odds_ratio=trace_or, cluster_sd=cluster_sd)
    return cluster_regression(load_cells(tasks, grades).frame, AnalysisConfig())


def test_regression_recovers_known_trace_odds_ratio():
    # Fixed seed; over seeds 0-11 the 95% intervals cover 1.5 (trace) and 1.0 (peak) as they should.
    result = _regression(1.5, seed=0, cluster_sd=0.3)
    rows = {(r["model"], r["predictor"]): r for r in result["regression"]}
    trace = rows[("trace+peak", "trace_length")]
    assert trace["status"] == "ok"
    assert trace["ci_low"] < 1.5 < trace["ci_high"]
    assert trace["ci_high"] - trace["ci_low"] < 0.4  # informative, not vacuous
    assert trace["df"] == trace["clusters"] - 1 == 119  # networkx excluded: 30 + 90 sources
    peak = rows[("trace+peak", "peak_state")]
    assert peak["ci_low"] < 1.0 < peak["ci_high"]  # no peak effect in the generating model
    fits = {f["model"]: f for f in result["regression_fits"]}
    assert all(f["converged"] and f["cov_positive_definite"] for f in fits.values())
    assert [f["parameters"] for f in result["regression_fits"]] == [11, 13, 14]


def test_regression_without_effect_is_centred_on_one():
    rows = {(r["model"], r["predictor"]): r for r in _regression(1.0, seed=0)["regression"]}
    assert rows[("trace+peak", "trace_length")]["ci_low"] < 1.0 < rows[("trace+peak", "trace_length")]["ci_high"]


def test_correlations_are_pearson_on_log2():
    tasks = synthetic_tasks(1, SMALL)
    frame = load_cells(tasks, synthetic_grades(tasks, 1)).frame
    rows, _ = regression_rows(frame, AnalysisConfig())
    got = {
        (r["predictor_a"], r["predictor_b"]): r["correlation"]
        for r in cluster_regression(frame, AnalysisConfig())["correlations"]
    }
    expect = np.corrcoef(np.log2(rows["trace_length"]), np.log2(rows["state_load"]))[0, 1]
    assert got[("trace_length", "state_load")] == pytest.approx(expect)


def _frame(n: int = 200, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "study": "classic",
            "language": "python",
            "completed": True,
            "arm": rng.choice(["short-trace-final", "long-trace-final"], size=n),
            "setting": rng.choice(["a-high", "b-off"], size=n),
            "source_sha256": [f"s{i % 25}" for i in range(n)],
            "trace_length": rng.integers(10, 5000, size=n).astype(float),
            "peak_state": rng.integers(1, 50, size=n).astype(float),
            "state_load": rng.integers(10, 90000, size=n).astype(float),
            "error": rng.random(n) < 0.4,
        }
    )


def test_constant_metric_column_is_dropped_and_reported():
    frame = _frame()
    frame["peak_state"] = 7.0
    result = cluster_regression(frame, AnalysisConfig())
    fit = {f["model"]: f for f in result["regression_fits"]}["trace+peak"]
    assert fit["dropped_columns"] == ["peak_state"]
    assert "study[classic]" not in fit["columns"]  # one study: no study indicator at all
    peak = next(r for r in result["regression"] if r["model"] == "trace+peak" and r["predictor"] == "peak_state")
    assert peak["odds_ratio"] is None and "dropped" in peak["status"]


def test_collinear_indicator_is_dropped():
    frame = _frame()
    frame["setting"] = np.where(frame["arm"] == "short-trace-final", "a-high", "b-off")  # setting == arm
    X, columns, dropped = build_design(frame, ("trace_length",))
    assert dropped == ["setting[b-off]"]
    assert np.linalg.matrix_rank(X) == X.shape[1] == len(columns)


def test_zero_and_missing_metrics_are_excluded_and_counted():
    frame = _frame()
    frame.loc[:4, "state_load"] = 0.0
    frame.loc[5:7, "trace_length"] = np.nan
    rows, counts = regression_rows(frame, AnalysisConfig())
    assert counts == {
        "excluded_missing_metric": 3,
        "excluded_nonpositive_metric": 5,
        "excluded_separated_rows": 0,
        "separated_levels": [],
    }
    assert len(rows) == len(frame) - 8


def test_setting_with_one_outcome_is_left_out_and_named():
    frame = _frame()
    frame.loc[frame["setting"] == "b-off", "error"] = False
    extra = frame[frame["setting"] == "b-off"].assign(setting="oracle-check")
    frame = pd.concat([frame, extra], ignore_index=True)
    rows, counts = regression_rows(frame, AnalysisConfig())
    assert counts["separated_levels"] == ["setting=b-off (all correct)", "setting=oracle-check (all correct)"]
    assert counts["excluded_separated_rows"] == 2 * len(extra) and set(rows["setting"]) == {"a-high"}
    fits = cluster_regression(frame, AnalysisConfig())["regression_fits"]
    assert all(f["converged"] and f["status"] == "ok" for f in fits)


def test_constant_outcome_is_inestimable_not_an_exception():
    frame = _frame()
    frame["error"] = False
    result = cluster_regression(frame, AnalysisConfig())
    assert all(f["status"].startswith("inestimable") for f in result["regression_fits"])
    assert all(r["odds_ratio"] is None for r in result["regression"])


def test_separated_predictor_is_flagged_not_reported_as_a_clean_fit():
    x = np.linspace(-2, 2, 40)
    y = (x > 0).astype(float)  # complete separation: no finite maximum
    groups = np.arange(40) % 8
    fit = fit_logit(y, np.column_stack([np.ones(40), x]), ["intercept", "x"], groups=groups)
    assert not (fit.ok and fit.converged)
    assert fit.warnings or not fit.ok


def test_few_clusters_are_named_in_the_warnings():
    rng = np.random.default_rng(0)
    X = np.column_stack([np.ones(60), rng.normal(size=60), rng.normal(size=60)])
    y = (rng.random(60) < 0.5).astype(float)
    fit = fit_logit(y, X, ["intercept", "a", "b"], groups=np.arange(60) % 3)
    assert any("only 3 clusters for 3 parameters" in w for w in fit.warnings)
