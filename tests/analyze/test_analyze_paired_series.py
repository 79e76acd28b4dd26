"""Paired comparison counts and cohorts; series tests, inestimable series and the BH family."""

from __future__ import annotations

import numpy as np
import pytest
import statsmodels.api as sm
from statsmodels.stats.multitest import multipletests

from execstate.analyze import (
    AnalysisConfig,
    BHFamily,
    Cohort,
    cluster_bootstrap_ratio,
    load_cells,
    paired_comparison,
    percentile_interval,
    rank_theta,
    seeded_rng,
    series_summary,
    series_tests,
)
from execstate.records import Grade, Metrics, Task
from execstate.testing import synthetic_grades, synthetic_tasks

FAST = AnalysisConfig(replicates=2000, permutations=2000)


def _task(
    case: str, arm: str, study: str = "classic", language: str = "python", sha: str | None = None, trace: int = 100
) -> Task:
    return Task(
        task_id=f"{study}/{case}/{arm}",
        case_id=f"{study}/{case}",
        study=study,
        language=language,
        arm=arm,
        source="print(1)\n",
        input="",
        oracle="1",
        answer_kind="text",
        grading_rule="json-or-tokens",
        source_sha256=sha or f"sha-{case}",
        metrics=Metrics(trace_length=trace, peak_state=2, state_load=trace * 2, cyclomatic=3),
    )


def _grade(task: Task, setting: str, status: str) -> Grade:
    return Grade(task_id=task.task_id, setting=setting, status=status, rule=task.grading_rule)


def _pairs_data():
    """Four Python cases (two share a source) and one C++ case, two settings.

    Outcome per (case, setting) as short/long: c=correct, w=wrong, n=no-response.
    """
    plan = {
        ("a", "x-high"): "cw",
        ("a", "y-off"): "cc",
        ("b", "x-high"): "cw",
        ("b", "y-off"): "wc",
        ("c", "x-high"): "ww",
        ("c", "y-off"): "cn",
        ("d", "x-high"): "cw",
        ("d", "y-off"): "cw",
    }
    status = {"c": "correct-valid", "w": "wrong-valid", "n": "no-response"}
    tasks, grades = [], []
    for case in "abcd":
        sha = "shared" if case in "ab" else None
        study = "nx" if case == "d" else "classic"
        for arm in ("short-trace-final", "long-trace-final"):
            t = _task(case, arm, study=study, sha=sha)
            tasks.append(t)
            for setting in ("x-high", "y-off"):
                grades.append(_grade(t, setting, status[plan[(case, setting)][arm.startswith("long")]]))
    cpp = _task("e", "short-trace-final", language="cpp"), _task("e", "long-trace-final", language="cpp")
    tasks += cpp
    grades += [_grade(t, "x-high", "correct-valid") for t in cpp]
    return tasks, grades


def test_paired_counts_decrement_and_cohorts():
    tasks, grades = _pairs_data()
    config = AnalysisConfig(replicates=500, exclude_study="nx")
    rows = {(r["cohort"], r["setting"]): r for r in paired_comparison(load_cells(tasks, grades).frame, config)}
    pooled = rows[("all-python", "pooled")]
    # 8 Python case x setting pairs; c/y-off has a no-response; the C++ case never enters.
    assert (pooled["pairs"], pooled["incomplete_pairs"], pooled["sources"]) == (7, 1, 3)
    assert (pooled["correct_to_wrong"], pooled["wrong_to_correct"]) == (4, 1)
    assert pooled["decrement_pp"] == pytest.approx(100 * 3 / 7)
    assert pooled["ci_low"] <= pooled["decrement_pp"] <= pooled["ci_high"]
    high = rows[("all-python/high", "pooled")]
    assert (high["settings"], high["pairs"], high["correct_to_wrong"]) == (1, 4, 3)
    ex = rows[("exclude-nx", "pooled")]
    assert (ex["pairs"], ex["sources"], ex["decrement_pp"]) == (5, 2, pytest.approx(100 * 1 / 5))
    assert rows[("all-python", "y-off")]["pairs"] == 3
    # one cohort per Python study with pairs, after the declared ones; the C++ study has none
    cohorts = list(dict.fromkeys(cohort for cohort, _ in rows))
    assert cohorts == ["all-python", "all-python/high", "exclude-nx", "exclude-nx/high", "study:classic", "study:nx"]
    classic, nx = rows[("study:classic", "pooled")], rows[("study:nx", "pooled")]
    assert (classic["pairs"], classic["sources"], classic["correct_to_wrong"]) == (5, 2, 2)
    assert classic["decrement_pp"] == pytest.approx(100 * 1 / 5)  # the exclude-nx cohort's pairs exactly
    assert (nx["pairs"], nx["sources"], nx["decrement_pp"]) == (2, 1, pytest.approx(100.0))  # d: c->w twice
    assert rows[("study:nx", "x-high")]["pairs"] == rows[("study:nx", "y-off")]["pairs"] == 1


def test_paired_interval_resamples_source_clusters():
    tasks, grades = _pairs_data()
    frame = load_cells(tasks, grades).frame
    config = AnalysisConfig(replicates=3000, cohorts=(Cohort("only-x", settings=("x-high",), exclude_studies=("nx",)),))
    row = paired_comparison(frame, config)[0]
    assert row["decrement_pp"] == pytest.approx(200 / 3)
    # Clusters in source order: sha-c (0 decrements of 1 pair), shared = cases a+b (2 of 2).
    reps = cluster_bootstrap_ratio(
        np.array([0.0, 2.0]), np.array([1.0, 2.0]), 3000, seeded_rng(config.seed, "paired", "only-x", "pooled")
    )
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(tuple(100 * v for v in percentile_interval(reps)))


def test_paired_declared_high_settings_override_suffix():
    config = AnalysisConfig(high_settings=("y-off",))
    assert config.high(["x-high", "y-off"]) == ("y-off",)
    assert AnalysisConfig().high(["x-high", "y-off", "z-high"]) == ("x-high", "z-high")


def _series_cells():
    studies = (("classic", "python", 30), ("lcb_python", "python", 40), ("lcb_cpp", "cpp", 12))
    tasks = synthetic_tasks(2, studies)
    settings = {"good-high": -1.0, "bad-off": 1.5, "oracle-high": -40.0}  # the last is always correct
    return load_cells(tasks, synthetic_grades(tasks, 2, settings=settings, trace_odds_ratio=1.6))


def test_series_cover_every_series_and_keep_inestimable_ones():
    rows = series_tests(_series_cells().frame, FAST)
    # 3 studies x 3 settings: pooled x 3 dynamic metrics + 4 arms x (3 dynamic + cyclomatic).
    assert len(rows) == 9 * (3 + 4 * 4)
    oracle = [r for r in rows if r["setting"] == "oracle-high"]
    assert oracle and all(
        not r["estimable"] and r["status"] == "inestimable: every response correct" and r["theta"] is None
        for r in oracle
    )
    assert not any(r["metric"] == "cyclomatic" and r["arm"] == "pooled" for r in rows)


def test_series_statistics_match_independent_computations():
    cells = _series_cells()
    rows = series_tests(cells.frame, FAST)
    row = next(
        r
        for r in rows
        if (r["study"], r["setting"], r["arm"], r["metric"]) == ("lcb_python", "good-high", "pooled", "state_load")
    )
    f = cells.frame
    sub = f[f["completed"] & (f["study"] == "lcb_python") & (f["setting"] == "good-high")]
    x, err = sub["state_load"].to_numpy(float), sub["error"].to_numpy(bool)
    assert row["n"] == len(sub) and row["failures"] == err.sum()
    assert row["theta"] == pytest.approx(rank_theta(x, err))
    ref = sm.Logit(err.astype(float), sm.add_constant(np.log2(x))).fit(disp=False)
    low, high = np.exp(ref.conf_int()[1])
    assert row["odds_ratio"] == pytest.approx(np.exp(ref.params[1]), rel=1e-6)
    assert (row["ci_low"], row["ci_high"]) == (pytest.approx(low, rel=1e-6), pytest.approx(high, rel=1e-6))
    assert row["p_wald"] == pytest.approx(ref.pvalues[1], rel=1e-5)


def test_bh_family_is_the_declared_one_and_matches_statsmodels():
    rows = series_tests(_series_cells().frame, FAST)
    members = [r for r in rows if r["bh_family"]]
    assert members and all(
        r["language"] == "python" and r["arm"] == "long-trace-final" and r["estimable"] and r["metric"] != "cyclomatic"
        for r in members
    )
    reject, q, _, _ = multipletests([r["p"] for r in members], alpha=0.05, method="fdr_bh")
    assert [r["p_bh"] for r in members] == pytest.approx(list(q))
    assert [r["bh_reject"] for r in members] == list(reject)
    assert all(r["p_bh"] is None for r in rows if not r["bh_family"])
    wide = series_tests(
        _series_cells().frame,
        AnalysisConfig(permutations=500, bh_family=BHFamily(language="cpp", arms=("pooled",), metrics=("state_load",))),
    )
    assert {(r["language"], r["arm"], r["metric"]) for r in wide if r["bh_family"]} == {("cpp", "pooled", "state_load")}


def test_series_summary_counts_support():
    rows = series_tests(_series_cells().frame, FAST)
    summary = {(s["language"], s["arm"], s["metric"]): s for s in series_summary(rows)}
    s = summary[("python", "pooled", "trace_length")]
    members = [r for r in rows if (r["language"], r["arm"], r["metric"]) == ("python", "pooled", "trace_length")]
    assert s["series"] == len(members) == 6 and s["estimable"] == 4
    assert s["supported"] == sum(bool(r["nominal_support"]) for r in members)


def test_series_without_completed_responses_are_reported():
    tasks = synthetic_tasks(3, (("classic", "python", 6),))
    grades = [
        g.model_copy(update={"status": "no-response"}) for g in synthetic_grades(tasks, 3, settings={"down-high": 0.0})
    ]
    rows = series_tests(load_cells(tasks, grades).frame, FAST)
    assert len(rows) == 3 + 4 * 4
    assert all(r["n"] == 0 and not r["estimable"] and r["status"].startswith("inestimable: no completed") for r in rows)
