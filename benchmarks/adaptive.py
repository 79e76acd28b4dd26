"""Benchmark of adaptive testing (issue 54): the calls ``run --adaptive horizon`` needs to reach the full grid's
interval width of log2 H50, against the full grid's calls, on a ladder answered from a known horizon.

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/adaptive.py [--seeds 20] [--programs 30] [--rungs 15] [--slope 2] [--samples 4] [--smoke]

The ladder has ``--programs`` programs with one rung per doubling of the counted trace, 2^7 up (15 rungs: up to
2^21, the ladder's defaults). Each seed draws a horizon log2 H uniformly in the ladder's middle half and answers
from the known truth P(right) = 1 / (1 + 2^(slope (log2 trace - log2 H))) (the synthetic provider's horizon
form) with a seeded random draw per ask. Per seed it fits the full grid (every rung of every program once) with
the quick fit the adaptive engine steers by (``execstate.adaptive.fit_quick``: Fieller's 95% interval), then
runs the adaptive choice and stop rules (``choose_round``, ``stop_reason``, rounds of ``--round``) with that
width as the target width and the full grid's size as the budget, each rung askable ``--samples`` times. It
prints, per seed and then over the seeds, the full grid's calls and width, the adaptive calls and width, their
ratio (the target: a median of at most 0.25), and how often each interval covers the set horizon. The choices
are the engine's; answers are drawn in memory, so no run directory is written (the engine's rounds, journal and
resume are tested in tests/adaptive/).

Measured (2026-12, 30 programs x 15 rungs = 450 calls, samples 4, rounds of 10, 20 seeds; about 7 s each):

    slope   full-grid median width   adaptive median calls (ratio)   max ratio   covers: grid, adaptive
    3       0.514                    105 (0.233)                     0.378       20/20, 18/20
    2       0.631                    110 (0.244)                     0.511       20/20, 18/20
    1.5     0.727                    155 (0.344)                     0.578       20/20, 17/20
    1       0.881                    195 (0.433)                     0.933       20/20, 18/20

The 25% target holds where accuracy falls from 80% to 20% within about two doublings of the trace (slope 2 and
steeper). With a shallower fall every rung near H50 is informative and the full grid is already efficient: even
every call at H50 itself, the slope known, would need about 0.37 of the grid's calls at slope 1 (the Fisher
information p (1 - p) of a call at H50 against the grid's mean), so no choice rule reaches 0.25 there.
--smoke: 3 seeds on an 8-program ladder of 9 rungs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from execstate.adaptive import (
    LadderCell,
    Observation,
    QuickFit,
    centre_of,
    choose_round,
    fit_quick,
    stop_reason,
)

LOW = 7
"""log2 of the lowest rung's counted trace."""


def truth(x: float, horizon: float, slope: float) -> float:
    """P(right) at log2 trace ``x``: 1 / (1 + 2^(slope (x - horizon)))."""
    return 1.0 / (1.0 + 2.0 ** (slope * (x - horizon)))


def grid(programs: int, rungs: int) -> list[LadderCell]:
    """One cell per program and rung, rung k at log2 trace LOW + k."""
    return [LadderCell(f"p{p}~rung{k}", f"p{p}", k, float(LOW + k)) for p in range(programs) for k in range(rungs)]


def full_grid(cells: list[LadderCell], horizon: float, slope: float, rng: random.Random) -> QuickFit:
    """Every cell asked once."""
    obs = [Observation(c.x, rng.random() < truth(c.x, horizon, slope), c.program) for c in cells]
    return fit_quick(obs, centre_of(cells))


def adaptive(
    cells: list[LadderCell],
    horizon: float,
    slope: float,
    rng: random.Random,
    *,
    width: float,
    budget: int,
    samples: int,
    round_size: int,
    seed: int,
) -> tuple[QuickFit, int, str]:
    """The engine's rounds with answers drawn from the truth: the last fit, the calls made, why it stopped."""
    obs: list[Observation] = []
    asked: dict[str, int] = {}
    centre = centre_of(cells)
    while True:
        fit = fit_quick(obs, centre)
        exhausted = len(obs) >= len(cells) * samples
        stop = stop_reason(fit, cells, calls=len(obs), budget=budget, target_width=width, exhausted=exhausted)
        if stop is not None:
            return fit, len(obs), stop
        for pick in choose_round(cells, fit, asked, min(round_size, budget - len(obs)), samples=samples, seed=seed):
            asked[pick.cell.task_id] = asked.get(pick.cell.task_id, 0) + 1
            obs.append(Observation(pick.cell.x, rng.random() < truth(pick.cell.x, horizon, slope), pick.cell.program))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--programs", type=int, default=30)
    parser.add_argument("--rungs", type=int, default=15)
    parser.add_argument("--slope", type=float, default=2.0, help="doublings of the odds lost per doubling of trace")
    parser.add_argument("--samples", type=int, default=4, help="asks one rung may get in an adaptive run")
    parser.add_argument("--round", type=int, default=10, help="cells per round")
    parser.add_argument("--smoke", action="store_true", help="3 seeds, 8 programs, 9 rungs")
    args = parser.parse_args()
    if args.smoke:
        args.seeds, args.programs, args.rungs = 3, 8, 9
    cells = grid(args.programs, args.rungs)
    span = args.rungs - 1
    print(
        f"ladder: {args.programs} programs x {args.rungs} rungs (2^{LOW}..2^{LOW + span}) = {len(cells)} calls; "
        f"slope {args.slope:g}; adaptive: rounds of {args.round}, each rung at most {args.samples} times"
    )
    print("seed  log2 H  grid width  covers | adaptive calls  width  covers  stop    ratio")
    ratios: list[float] = []
    grid_cover = adaptive_cover = 0
    started = time.perf_counter()
    for seed in range(args.seeds):
        rng = random.Random(seed)
        horizon = rng.uniform(LOW + span / 4, LOW + 3 * span / 4)
        full = full_grid(cells, horizon, args.slope, rng)
        fit, calls, stop = adaptive(
            cells, horizon, args.slope, rng, width=full.width, budget=len(cells), samples=args.samples,
            round_size=args.round, seed=seed,
        )  # fmt: skip
        g_lo, g_hi = full.interval
        a_lo, a_hi = fit.interval
        g_ok, a_ok = g_lo <= horizon <= g_hi, a_lo <= horizon <= a_hi
        grid_cover += g_ok
        adaptive_cover += a_ok
        ratios.append(calls / len(cells))
        print(
            f"{seed:4d}  {horizon:6.2f}  {full.width:10.3f}  {'yes' if g_ok else 'no':>6} | {calls:14d}  "
            f"{fit.width:5.3f}  {'yes' if a_ok else 'no':>6}  {stop:6s}  {calls / len(cells):5.2f}"
        )
    print(
        f"full grid: {len(cells)} calls, median width {statistics.median(_widths(cells, args)):.3f}, "
        f"covers the set horizon in {grid_cover}/{args.seeds}"
    )
    print(
        f"adaptive: median {statistics.median(ratios) * len(cells):.0f} calls for the same width, median ratio "
        f"{statistics.median(ratios):.3f} (target <= 0.25), mean {statistics.fmean(ratios):.3f}, "
        f"max {max(ratios):.3f}; covers in {adaptive_cover}/{args.seeds}"
    )
    print(f"({time.perf_counter() - started:.1f} s)")


def _widths(cells: list[LadderCell], args: argparse.Namespace) -> list[float]:
    """The full grid's widths again (same seeds, same draws): for the summary line."""
    out = []
    span = args.rungs - 1
    for seed in range(args.seeds):
        rng = random.Random(seed)
        horizon = rng.uniform(LOW + span / 4, LOW + 3 * span / 4)
        out.append(full_grid(cells, horizon, args.slope, rng).width)
    return out


if __name__ == "__main__":
    main()
