"""The execution horizon: the fit recovers a set synthetic horizon, its interval covers it on most seeds,
censoring above the top rung and below the lowest, determinism, the synthetic provider's horizon through a real
run and grade, and the section in ``analyze`` (ladder tasks apart: every other key as before)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from execstate.analyze import (
    AnalysisConfig,
    analyze,
    fit_horizon,
    horizon_cells,
    horizon_section,
    program_of,
    synthetic_truth,
    write_analysis_json,
)
from execstate.grade import grade_all
from execstate.records import Response, read_jsonl
from execstate.run import RESPONSES_NAME, Setting, run_tasks
from execstate.run.providers.synthetic import SyntheticProvider, set_horizon
from execstate.testing import synthetic_grades as paper_grades
from execstate.testing import synthetic_tasks
from execstate.testing.horizon import grid_fit, synthetic_grades, synthetic_ladder

FAST = AnalysisConfig(replicates=400, permutations=100)
LOG2H = 13.0


@pytest.fixture(scope="module")
def ladder():
    """20 programs, a rung per doubling from 2^7 to 2^20 (14 rungs)."""
    return synthetic_ladder(20, 7, 20, seed=3)


def test_fit_recovers_the_set_horizon(ladder):
    fit = grid_fit(ladder, synthetic_grades(ladder, horizon=2**LOG2H, setting="s-recover"), replicates=500)
    assert fit.ok and fit.n == len(ladder) and fit.clusters == 20
    assert abs(fit.h50 - LOG2H) < 0.5, fit
    assert fit.h80 is not None and abs(fit.h80 - (LOG2H - 2)) < 0.8, fit  # slope 1: 80% at H / 4
    assert abs(fit.slope + math.log(2)) < 0.25, fit  # -s ln 2 per doubling
    assert fit.ci50[0] < fit.h50 < fit.ci50[1] and 0 < fit.width50 < 2.0
    assert fit.ci80[1] < fit.ci50[1]


def test_interval_covers_the_set_horizon_on_most_seeds(ladder):
    hits = 0
    for seed in range(5):
        grades = synthetic_grades(ladder, horizon=2**LOG2H, setting=f"s-cover-{seed}")
        lo, hi = grid_fit(ladder, grades, replicates=400, seed=seed).ci50
        hits += lo <= LOG2H <= hi
    assert hits >= 4  # 95% intervals: 4 of 5 is a loose bound (the benchmark checks 18 of 20)


def test_a_steeper_or_higher_horizon_moves_the_fit(ladder):
    high = grid_fit(ladder, synthetic_grades(ladder, horizon=2**17, slope=2.0, setting="s-high"), replicates=0)
    assert abs(high.h50 - 17) < 0.75 and high.slope < -0.9  # slope 2: -2 ln 2 = -1.39 per doubling
    assert math.isnan(high.ci50[0]) and math.isnan(high.width50)  # no bootstrap asked for


@pytest.mark.parametrize(("log2h", "side", "text"), [(30.0, "above", "> top rung"), (2.0, "below", "< lowest rung")])
def test_a_horizon_outside_the_rungs_is_censored_not_extrapolated(ladder, log2h, side, text):
    fit = grid_fit(ladder, synthetic_grades(ladder, horizon=2**log2h, setting="s-censor"), replicates=300)
    assert fit.ok and fit.h50 is None and fit.censored50 == side
    data = fit.to_json()
    assert data["h50"] is None and data["h50_censored"] == side and data["h50_text"].startswith(text)
    bound = math.inf if side == "above" else -math.inf
    assert bound in fit.ci50  # the open side of the interval stays open


def test_one_outcome_throughout_is_censored_and_a_perfect_split_sits_at_the_split():
    x = np.tile(np.arange(7.0, 17.0), 8)
    programs = np.repeat([f"p{i}" for i in range(8)], 10)
    assert fit_horizon(x, np.ones_like(x, bool), programs, replicates=50).censored50 == "above"
    assert fit_horizon(x, np.zeros_like(x, bool), programs, replicates=50).censored50 == "below"
    split = fit_horizon(x, x < 11.5, programs, replicates=50)
    assert split.ok and 11.0 < split.h50 < 12.0
    assert fit_horizon(x, x < 11.5, np.zeros(x.size), replicates=0).status.startswith("inestimable")
    with pytest.raises(ValueError, match="differ"):
        fit_horizon(x, x[:-1] < 11, programs)


def test_the_fit_is_deterministic(ladder):
    grades = synthetic_grades(ladder, horizon=2**LOG2H, setting="s-det")
    first = grid_fit(ladder, grades, replicates=300, seed=11).to_json()
    assert grid_fit(ladder, grades, replicates=300, seed=11).to_json() == first
    assert grid_fit(ladder, grades, replicates=300, seed=12).to_json()["h50_ci_low_log2"] != first["h50_ci_low_log2"]


def test_cells_cluster_by_program_and_keep_no_responses_apart(ladder):
    grades = synthetic_grades(ladder[:14], horizon=2**LOG2H, setting="s")
    grades[0] = grades[0].model_copy(update={"status": "no-response", "answer": None, "envelope_valid": None})
    cells = horizon_cells(ladder, grades)
    assert len(cells) == 14 and set(cells["program"]) == {program_of(ladder[0])} == {"classic/synthetic000"}
    assert sorted(cells["rung"]) == list(range(14)) and not cells["completed"][cells["rung"] == 0].any()
    assert (cells["log2_trace"] - np.log2(cells["trace"])).abs().max() == 0


def test_synthetic_provider_horizon_through_run_and_grade(ladder, tmp_path):
    tasks = ladder[:70]  # 5 programs x 14 rungs
    setting = Setting(name="synthetic-horizon", provider="synthetic", synthetic_horizon=2**LOG2H, synthetic_slope=1.0)
    run_tasks(tasks, [setting], tmp_path, progress=False)
    responses = sorted(read_jsonl(tmp_path / RESPONSES_NAME, Response), key=lambda r: r.task_id)
    assert set_horizon(responses[0].model or "") == (2.0**LOG2H, 1.0)
    grades = sorted(grade_all(tasks, responses, settings=[setting.name], samples=1), key=lambda g: g.task_id)
    expected = sorted(synthetic_grades(tasks, horizon=2**LOG2H, setting=setting.name), key=lambda g: g.task_id)
    # the helper's draw is the provider's: a run grades right exactly the same cells (no right cell is cut off)
    assert [g.status.startswith("correct") for g in grades] == [g.status.startswith("correct") for g in expected]
    cut = [g for g, r in zip(grades, responses) if r.finish_reason == "length"]
    assert all(not g.status.startswith("correct") for g in cut)
    assert synthetic_truth(responses) == {setting.name: {"horizon": 2.0**LOG2H, "slope": 1.0}}


def test_provider_chance_is_the_documented_logistic(ladder):
    provider = SyntheticProvider("p", horizon=4096.0, horizon_slope=1.5)
    for task in ladder[:14]:
        trace = task.metrics.trace_length
        assert provider.p_correct(task) == pytest.approx(1 / (1 + (trace / 4096) ** 1.5))
    paper_task = synthetic_tasks(studies=(("classic", "python", 1),))[1]
    plain = SyntheticProvider("p")
    assert provider.p_correct(paper_task) == plain.p_correct(paper_task)  # only ladder rungs are on the horizon
    assert "horizon" not in (plain.model or "")


def test_section_in_analyze_keeps_every_other_key(ladder, tmp_path):
    paper = synthetic_tasks(studies=(("classic", "python", 12),))
    settings = {"alpha-high": -1.0}
    grades = paper_grades(paper, settings=settings)
    rungs = ladder[:112]  # 8 programs
    ladder_grades = synthetic_grades(rungs, horizon=2**LOG2H, setting="alpha-high")
    responses = [
        Response(task_id=rungs[0].task_id, setting="alpha-high", status="completed", provider="synthetic",
                 model=SyntheticProvider("alpha-high", horizon=2.0**LOG2H).model)
    ]  # fmt: skip
    without = analyze(paper, grades, FAST, responses=responses)
    mixed = analyze([*paper, *rungs], [*grades, *ladder_grades], FAST, responses=responses)
    a = json.loads(write_analysis_json(without, tmp_path / "a.json").read_text())
    b = json.loads(write_analysis_json(mixed, tmp_path / "b.json").read_text())
    section = b.pop("horizon")
    assert a == b and "horizon" not in a
    (row,) = section["rows"]
    assert row["setting"] == "alpha-high" and row["family"] == "final" and row["cells"] == 112
    assert row["set_h50_log2"] == LOG2H and isinstance(row["covered"], bool)
    assert [r["rung"] for r in row["rungs"]] == list(range(14)) and sum(r["cells"] for r in row["rungs"]) == 112
    assert len(row["curve"]) == 41 and row["fit"]["h50_text"].startswith("2^")
    assert section["figures"]["horizon"]["rows"][0]["setting"] == "alpha-high"
    assert horizon_section(paper, grades, FAST, None) == {}


def test_the_point_fit_is_statsmodels_binomial_glm_on_the_same_counts():
    """The hand-vectorised Newton (fast enough for 2,000 bootstrap refits) gives statsmodels' maximum likelihood
    fit of the same binomial counts: each (program, rung) cell's answers plus its share of the program's
    pseudo-answers (``PSEUDO``, half of them right)."""
    import pandas as pd
    import statsmodels.api as sm

    from execstate.analyze._horizon import PSEUDO

    rng = np.random.default_rng(7)
    programs = np.repeat([f"p{i}" for i in range(6)], 24)
    x = np.tile(np.repeat(np.arange(8.0, 14.0), 4), 6) + rng.normal(0, 0.01, 144).round(0)
    y = rng.random(144) < 1 / (1 + 2 ** (1.3 * (x - 11.0)))
    fit = fit_horizon(x, y, programs, replicates=0)
    agg = pd.DataFrame({"g": programs, "x": x, "y": y.astype(float)}).groupby(["g", "x"])["y"].agg(["sum", "count"])
    agg = agg.reset_index()
    share = PSEUDO / agg.groupby("g")["x"].transform("size")
    k, m = agg["sum"] + 0.5 * share, agg["count"] + share
    endog, weights = (k / m).to_numpy(), m.to_numpy()
    glm = sm.GLM(endog, sm.add_constant(agg["x"].to_numpy()), family=sm.families.Binomial(), var_weights=weights)
    intercept, slope = np.asarray(glm.fit().params)
    assert fit.intercept == pytest.approx(intercept, abs=1e-6)
    assert fit.slope == pytest.approx(slope, abs=1e-6)
    assert fit.h50 == pytest.approx(-intercept / slope, abs=1e-6)
