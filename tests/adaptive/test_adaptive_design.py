"""The choice rule, the stop rule, the quick fit and the journal of adaptive testing, in memory (fast)."""

from __future__ import annotations

import math
import random
import statistics
from pathlib import Path

import pytest
from adaptive_ladder import grid_answers, grid_cells, ladder, ladder_task, p_right, simulate

from execstate.adaptive import (
    ADAPTIVE_NAME,
    MIN_ANSWERS_PER_PROGRAM,
    QUICK_GATE,
    AdaptiveJournal,
    AdaptiveRecord,
    Observation,
    centre_of,
    choose_round,
    fit_quick,
    horizon_interval,
    ladder_cells,
    program_order,
    stop_reason,
    width_in_reach,
)
from execstate.errors import StoreError, UsageError

REPLICATES = 400
"""Bootstrap replicates of the report's interval in these tests (the report uses 2000; 400 keeps them fast)."""


def test_fit_recovers_a_known_horizon_and_covers_it() -> None:
    rng = random.Random(7)
    obs = [
        Observation(x, rng.random() < p_right(x, 13.3, 1.2), f"p{i % 20}")
        for i, x in enumerate([8 + k * 0.5 for k in range(25)] * 40)
    ]
    fit = fit_quick(obs, 14.0)
    lo, hi = fit.interval
    assert abs(fit.h50_log2 - 13.3) < 0.2
    assert lo < 13.3 < hi and fit.width < 0.5
    assert abs(fit.b - 1.2) < 0.15


def test_no_answers_give_an_unbounded_interval_and_no_width_stop() -> None:
    cells = grid_cells(3, 5)
    fit = fit_quick([], centre_of(cells))
    assert fit.interval == (float("-inf"), float("inf"))
    assert stop_reason(fit, cells, calls=0, budget=10, target_width=5.0, exhausted=False) is None
    assert stop_reason(fit, cells, calls=10, budget=10, target_width=5.0, exhausted=False) == "budget"


def test_a_round_visits_every_program_in_a_seeded_turn_and_is_reproducible() -> None:
    cells = grid_cells(6, 9)
    fit = fit_quick([], centre_of(cells))
    first = choose_round(cells, fit, {}, 6, samples=1, seed=3)
    assert [p.cell.program for p in first] == program_order({c.program for c in cells}, 3)
    assert [p.cell.task_id for p in choose_round(cells, fit, {}, 6, samples=1, seed=3)] == [
        p.cell.task_id for p in first
    ]
    assert [p.cell.program for p in choose_round(cells, fit, {}, 6, samples=1, seed=4)] != [
        p.cell.program for p in first
    ]
    assert all(p.reason["rule"] == "information" and p.reason["gain"] > 0 for p in first)


def test_the_rule_goes_where_the_answers_turn() -> None:
    """After answers right below 2^12 and wrong above, the next cells sit near 2^12, not at the ends."""
    cells = grid_cells(8, 13)
    obs = [Observation(c.x, c.x < 12, c.program) for c in cells if c.rung % 3 == 0]
    fit = fit_quick(obs, centre_of(cells))
    picks = choose_round(cells, fit, {}, 8, samples=1, seed=0)
    assert all(10 <= p.cell.x <= 14 for p in picks), [p.cell.x for p in picks]


def test_samples_cap_the_asks_of_one_cell() -> None:
    cells = grid_cells(1, 3)
    fit = fit_quick([], centre_of(cells))
    picks = choose_round(cells, fit, {}, 10, samples=2, seed=0)
    assert len(picks) == 6
    for task_id in {p.cell.task_id for p in picks}:
        assert sorted(p.sample for p in picks if p.cell.task_id == task_id) == [0, 1]


def test_adaptive_reaches_the_full_grid_width_for_a_fraction_of_its_calls() -> None:
    """A small ladder (12 programs x 13 rungs, each rung askable 4 times, a steep known truth at a random place):
    over 8 seeds adaptive runs reach the width of the full grid's interval, both the report's interval
    (``horizon_interval``, a small bootstrap), with at most 45% of its calls in the median (the benchmark's target
    is 25% on the larger ladder; the known-slope bound here is about 16%), and their report intervals cover the
    truth about as often as the full grid's (the benchmark checks that over 20 seeds)."""
    cells = grid_cells(12, 13)
    ratios, covered, grid_covered = [], 0, 0
    for seed in range(8):
        truth = random.Random(seed).uniform(11, 17)
        grid_lo, grid_hi = horizon_interval(grid_answers(cells, truth, 1.4, seed=seed), replicates=REPLICATES)
        grid_covered += grid_lo <= truth <= grid_hi
        _, calls, stop, answers = simulate(
            cells, truth, 1.4, seed=seed, samples=4, target_width=grid_hi - grid_lo, budget=len(cells),
            replicates=REPLICATES,
        )  # fmt: skip
        assert stop in ("width", "budget")
        lo, hi = horizon_interval(answers, replicates=REPLICATES)
        assert stop == "budget" or hi - lo < grid_hi - grid_lo
        assert calls >= MIN_ANSWERS_PER_PROGRAM * 12  # never a width stop on a handful of answers
        ratios.append(calls / len(cells))
        covered += lo <= truth <= hi
    assert statistics.median(ratios) <= 0.45, ratios
    assert covered >= grid_covered - 1 and covered >= 6, (covered, grid_covered)


def test_the_report_interval_decides_a_width_stop() -> None:
    """The quick interval only opens the check: a quick interval narrower than the target does not stop a run the
    report's interval says is too wide, and one up to ``QUICK_GATE`` times wider does not prevent a stop."""
    cells = grid_cells(12, 13)
    answers = grid_answers(cells, 14.0, 1.4, seed=3)
    fit = fit_quick(answers, centre_of(cells))
    assert math.isfinite(fit.width)
    common = dict(calls=len(answers), budget=10_000, exhausted=False)
    assert stop_reason(fit, cells, target_width=fit.width * 1.01, confirm=lambda: (0.0, 100.0), **common) is None
    narrow = fit.width / (QUICK_GATE - 0.01)
    assert stop_reason(fit, cells, target_width=narrow, confirm=lambda: (14.0, 14.1), **common) == "width"
    assert stop_reason(fit, cells, target_width=fit.width / (QUICK_GATE + 0.01), confirm=lambda: (14.0, 14.1),
                       **common) is None  # fmt: skip
    few = answers[: MIN_ANSWERS_PER_PROGRAM * 12 - 1]
    assert not width_in_reach(fit_quick(few, centre_of(cells)), cells, 100.0)


def test_a_horizon_above_the_top_rung_stops_as_censored() -> None:
    cells = grid_cells(10, 8)
    fit, calls, stop, _ = simulate(cells, 40.0, 1.5, seed=1, samples=4, target_width=0.5, budget=320)
    assert stop == "censored-above"
    assert fit.logit_bounds(max(c.x for c in cells))[0] > 0  # right more often than not on the top rung
    assert calls < 320


def test_ladder_cells_need_ladder_tasks_and_one_arm() -> None:
    plain = ladder_task(0, 0).model_copy(update={"meta": {}})
    with pytest.raises(UsageError, match="build --ladder"):
        ladder_cells([plain])
    other = ladder_task(1, 0).model_copy(update={"arm": "short-trace-final", "task_id": "x"})
    with pytest.raises(UsageError, match="--adaptive-arm"):
        ladder_cells([ladder_task(0, 0), other])
    assert [c.task_id for c in ladder_cells([ladder_task(0, 0), other], "short-trace-final")] == ["x"]
    assert len(ladder_cells(ladder(2, 3))) == 6


def _choice(round_: int, index: int, size: int) -> AdaptiveRecord:
    return AdaptiveRecord(
        kind="choice", setting="s", round=round_, round_cells=size, per_round=size, seed=0,
        task_id=f"t{round_}-{index}", sample=0, reason={"index": index},
    )  # fmt: skip


def test_the_journal_cuts_a_torn_last_round_and_keeps_its_bytes(tmp_path: Path) -> None:
    path = tmp_path / ADAPTIVE_NAME
    journal = AdaptiveJournal(path)
    journal.append([_choice(0, 0, 2), _choice(0, 1, 2)])
    whole = path.read_bytes()
    torn = _choice(1, 0, 2).to_json_line() + "\n" + _choice(1, 1, 2).to_json_line()[:30]
    path.write_bytes(whole + torn.encode())
    again = AdaptiveJournal(path)
    assert path.read_bytes() == whole
    assert [r.task_id for r in again.records] == ["t0-0", "t0-1"]
    assert again.torn is not None and again.torn.read_bytes() == torn.encode()
    path.write_bytes(whole + _choice(1, 0, 2).to_json_line().encode() + b"\n")  # a whole line, half a round
    assert [r.task_id for r in AdaptiveJournal(path).records] == ["t0-0", "t0-1"]
    assert path.read_bytes() == whole


def test_the_journal_refuses_a_bad_line_before_the_last(tmp_path: Path) -> None:
    path = tmp_path / ADAPTIVE_NAME
    path.write_text("not json\n" + _choice(0, 0, 1).to_json_line() + "\n")
    with pytest.raises(StoreError, match="move the line out by hand"):
        AdaptiveJournal(path)
