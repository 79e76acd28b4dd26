"""Per-series metric tests (paper Appendix E, Table 8, Section 5.3).

A series is the completed predictions of one setting x study (language kept
apart), either with its arms pooled (``arm == "pooled"``) or for one arm. The
dynamic metrics (trace length, peak state, state load) are tested on both;
cyclomatic complexity only within each arm, because instrumentation changes
the state arms' source. For each series x metric: theta = P(metric of a
failure > metric of a success) + ties/2, its one-sided permutation p-value,
and the univariate logistic odds ratio of error per doubling of the metric
with a Wald interval (rows are treated as independent: descriptive only).
Rows whose metric is missing or not positive are left out and counted in
``excluded``. A series whose responses all have one outcome is reported with
``estimable = false`` and a status saying why, never dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any

import numpy as np
import pandas as pd

from execstate.analyze._cells import DYNAMIC_METRICS
from execstate.analyze._config import AnalysisConfig
from execstate.analyze._logit import fit_logit, univariate_design
from execstate.analyze._stats import _cperm, benjamini_hochberg, permutation_thetas, seeded_rng

POOLED = "pooled"


def _outcome_status(n: int, failures: int) -> str:
    if n == 0:
        return "inestimable: no completed response with this metric measured"
    if failures == 0:
        return "inestimable: every response correct"
    if failures == n:
        return "inestimable: every response wrong"
    return "estimable"


def _logit_part(x: np.ndarray, err: np.ndarray, level: float) -> dict[str, Any]:
    """Univariate logistic odds ratio per doubling with its Wald interval."""
    out: dict[str, Any] = {"odds_ratio": None, "ci_low": None, "ci_high": None, "p_wald": None}
    if np.ptp(np.log2(x)) == 0:
        return {**out, "logit_status": "inestimable: metric constant in this series"}
    fit = fit_logit(err.astype(float), univariate_design(np.log2(x)), ["intercept", "log2"])
    if not fit.ok:
        return {**out, "logit_status": fit.status}
    s = fit.summary(1, level)
    status = "ok" if fit.converged else "not converged (possible separation)"
    with np.errstate(over="ignore"):  # a separated fit's bound may overflow: reported as null
        return {
            "odds_ratio": float(np.exp(s["coef"])),
            "ci_low": float(np.exp(s["ci_low"])),
            "ci_high": float(np.exp(s["ci_high"])),
            "p_wald": s["p"],
            "logit_status": status,
        }


def _base_row(
    key: dict[str, str], metric: str, err: np.ndarray, excluded: int, config: AnalysisConfig
) -> dict[str, Any]:
    n, failures = int(err.size), int(err.sum())
    status = _outcome_status(n, failures)
    return {
        **key,
        "metric": metric,
        "n": n,
        "failures": failures,
        "successes": n - failures,
        "excluded": excluded,
        "estimable": status == "estimable",
        "status": status,
        "theta": None,
        "p": None,
        "permutations": config.permutations,
        "nominal_support": None,
        "odds_ratio": None,
        "ci_low": None,
        "ci_high": None,
        "p_wald": None,
        "logit_status": status,
    }


def series_rows(
    group: pd.DataFrame,
    metrics: tuple[str, ...],
    key: dict[str, str],
    config: AnalysisConfig,
    background: Executor | None = None,
) -> Callable[[], list[dict[str, Any]]]:
    """One row per metric for one series; metrics measured on the same rows share their shuffles.

    The permutation tests start at once, on ``background`` when given (the C accelerator releases the
    GIL while it shuffles); the returned function adds the logistic fits on the calling thread, waits
    for the permutations and returns the rows. The rows are the same either way: each series draws
    from its own seeded generator."""
    group = group[group["completed"]]
    err_all = group["error"].to_numpy(dtype=bool)
    values = group[list(metrics)].to_numpy(dtype=float).reshape(len(group), len(metrics))
    valid = np.isfinite(values) & (values > 0)
    same_rows: dict[bytes, list[int]] = {}
    for j in range(len(metrics)):
        same_rows.setdefault(valid[:, j].tobytes(), []).append(j)
    rows: dict[int, dict[str, Any]] = {}
    pending: list[tuple[list[int], np.ndarray, np.ndarray, Any]] = []
    for cols in same_rows.values():
        mask = valid[:, cols[0]]
        err, xs = err_all[mask], values[mask][:, cols].T
        for j in cols:
            rows[j] = _base_row(key, metrics[j], err, int((~mask).sum()), config)
        if not rows[cols[0]]["estimable"]:
            continue
        rng = seeded_rng(config.seed, "series", *key.values(), *(metrics[j] for j in cols))
        args = (xs, err, config.permutations, rng)
        tests = background.submit(permutation_thetas, *args) if background is not None else permutation_thetas(*args)
        pending.append((cols, xs, err, tests))

    def finish() -> list[dict[str, Any]]:
        for cols, xs, err, tests in pending:
            for j, x in zip(cols, xs):
                rows[j].update(_logit_part(x, err, config.level))
            results = tests.result() if isinstance(tests, Future) else tests
            for j, (theta, p) in zip(cols, results):
                rows[j].update(theta=theta, p=p, nominal_support=bool(theta > 0.5 and p < 0.05))
        return [rows[j] for j in range(len(metrics))]

    return finish


def _series_groups(frame: pd.DataFrame):
    """Yield (key, rows, metrics) for pooled and per-arm series, in a stable order."""
    for (language, study, setting), group in frame.groupby(["language", "study", "setting"], sort=True):
        key = {"language": language, "study": study, "setting": setting}
        yield {**key, "arm": POOLED}, group, DYNAMIC_METRICS
        for arm, by_arm in group.groupby("arm", sort=True):
            yield {**key, "arm": arm}, by_arm, (*DYNAMIC_METRICS, "cyclomatic")


def apply_bh(rows: list[dict[str, Any]], config: AnalysisConfig) -> None:
    """Mark the declared family (``bh_family``) and add BH q-values and rejections in place."""
    fam = config.bh_family
    member = [
        r["estimable"] and r["language"] == fam.language and r["arm"] in fam.arms and r["metric"] in fam.metrics
        for r in rows
    ]
    q = benjamini_hochberg(np.array([r["p"] if m else np.nan for r, m in zip(rows, member)], dtype=float))
    for row, m, qv in zip(rows, member, q):
        row["bh_family"] = m
        row["p_bh"] = float(qv) if m else None
        row["bh_reject"] = bool(qv <= config.bh_alpha) if m else None


class PendingSeries:
    """The series tests being computed (:func:`start_series_tests`): call it for the rows; ``cancel()`` drops
    the permutations not started yet (when the caller fails before it needs them)."""

    def __init__(
        self, parts: list[Callable[[], list[dict[str, Any]]]], config: AnalysisConfig, background: Executor | None
    ) -> None:
        self._parts, self._config, self._background = parts, config, background

    def cancel(self) -> None:
        if self._background is not None:
            self._background.shutdown(cancel_futures=True)

    def __call__(self) -> list[dict[str, Any]]:
        try:
            rows = [row for part in self._parts for row in part()]
        finally:
            self.cancel()
        apply_bh(rows, self._config)
        return rows


def start_series_tests(frame: pd.DataFrame, config: AnalysisConfig) -> PendingSeries:
    """Start every series' permutation tests on a background thread; calling the result finishes
    :func:`series_tests` (logistic fits, then BH) on the calling thread.

    With the C accelerator the shuffles run while the caller does other work (``analyze_cells`` runs
    the paired comparison and the cluster regression meanwhile); without it, everything runs here and
    the call only assembles the rows."""
    background = ThreadPoolExecutor(1, thread_name_prefix="execstate-permutations") if _cperm is not None else None
    try:
        parts = [series_rows(group, metrics, key, config, background) for key, group, metrics in _series_groups(frame)]
    except BaseException:
        if background is not None:
            background.shutdown(cancel_futures=True)
        raise
    return PendingSeries(parts, config, background)


def series_tests(frame: pd.DataFrame, config: AnalysisConfig) -> list[dict[str, Any]]:
    """All series x metric rows over completed predictions, BH applied over the declared family.

    Series are enumerated from every graded cell, so a series with no completed
    response still gets its (inestimable) rows."""
    return start_series_tests(frame, config)()


def series_summary(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Paper Table 8 and Section 5.3 in one table: per language x arm x metric, how many
    series are estimable, how many meet the nominal rule (theta > 0.5 and p < 0.05),
    how many survive BH (family members only), and the theta range."""
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["language"], r["arm"], r["metric"]), []).append(r)
    out = []
    for (language, arm, metric), members in sorted(groups.items()):
        est = [r for r in members if r["estimable"]]
        thetas = [r["theta"] for r in est]
        out.append(
            {
                "language": language,
                "arm": arm,
                "metric": metric,
                "series": len(members),
                "estimable": len(est),
                "supported": sum(bool(r["nominal_support"]) for r in est),
                "bh_family": sum(bool(r["bh_family"]) for r in members),
                "bh_rejected": sum(bool(r["bh_reject"]) for r in members),
                "theta_min": min(thetas, default=None),
                "theta_max": max(thetas, default=None),
            }
        )
    return out
