"""Benchmark of adaptive testing (issue 54): the calls ``run --adaptive horizon`` needs to reach the full grid's
interval width of log2 H50, against the full grid's calls, on a synthetic ladder with a set horizon.

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/adaptive.py [--seeds 20] [--programs 30] [--slope 1 --slope 2] [--samples 4] [--smoke]

Per slope and seed it builds ``benchmarks/horizon.py``'s grid (the same ladder, setting name and synthetic
answers, ``execstate.testing.horizon``: 30 programs x 15 rungs from 2^7 to 2^21 events, set log2 H = 14) and
fits the full grid with the report's fit (``execstate.analyze.fit_horizon``: program-cluster bootstrap, 2000
replicates). Then it runs adaptive testing with that width as the target width and the full grid's calls as the
budget: the engine's rules (``execstate.adaptive.choose_round``, and ``stop_reason`` with its ``width`` stop
decided by the same bootstrap fit, as the engine does), rounds of ``--round``, each rung askable ``--samples``
times, every ask answered as the synthetic provider with ``synthetic_horizon`` answers that cell and sample
(its chance, its seeded draw; sample 0 is the grid's own answer). Answers are looked up in memory, so no run
directory is written (the engine's rounds, journal and resume are tested in tests/adaptive/). It prints per
seed the grid's width and the adaptive calls and width, then per slope the median calls ratio (the target: at
most 0.25), how often each interval covers log2 H, and the known-slope bound (``known_slope_bound``: the fewest
calls that could hold the grid's information about log2 H50; no rule goes below it but by luck).

Measured (2026-12-06, 20 seeds, 450-call grid, samples 4, rounds of 10): the table in docs/adaptive.md ("How
many calls it saves"); about 5 minutes for both slopes at a load of 13 on 2 cores.
--smoke: 2 seeds, 10 programs, slope 2, 200 replicates.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

from execstate.adaptive import (
    LadderCell,
    Observation,
    centre_of,
    choose_round,
    fit_quick,
    horizon_interval,
    ladder_cells,
    stop_reason,
)
from execstate.testing.horizon import synthetic_grades

sys.path.insert(0, str(Path(__file__).resolve().parent))
from horizon import full_grid, grid, setting_name

HORIZON = 14.0
"""log2 of the set horizon (``benchmarks/horizon.py``'s default)."""


def adaptive(
    cells: list[LadderCell],
    answers: dict[tuple[str, int], bool],
    *,
    width: float,
    budget: int,
    samples: int,
    round_size: int,
    seed: int,
    replicates: int,
) -> tuple[tuple[float, float], int, str]:
    """The engine's rounds with every ask answered from ``answers``: the report's interval on the answers at
    the stop, the calls made, why it stopped."""
    obs: list[Observation] = []
    asked: dict[str, int] = {}
    centre = centre_of(cells)
    while True:
        fit = fit_quick(obs, centre)
        exhausted = len(obs) >= len(cells) * samples
        stop = stop_reason(
            fit, cells, calls=len(obs), budget=budget, target_width=width, exhausted=exhausted,
            confirm=lambda: horizon_interval(obs, replicates=replicates),
        )  # fmt: skip
        if stop is not None:
            return horizon_interval(obs, replicates=replicates), len(obs), stop
        for pick in choose_round(cells, fit, asked, min(round_size, budget - len(obs)), samples=samples, seed=seed):
            asked[pick.cell.task_id] = asked.get(pick.cell.task_id, 0) + 1
            right = answers[(pick.cell.task_id, pick.sample)]
            obs.append(Observation(pick.cell.x, right, pick.cell.program))


def known_slope_bound(cells: list[LadderCell], slope: float, samples: int) -> float:
    """The fewest calls, as a share of the full grid's, whose Fisher information about log2 H50 equals the full
    grid's when the curve is known but for its location: the grid's information is the sum over its cells of
    b^2 p (1 - p) (b = slope ln 2, the logistic's slope per doubling; p the synthetic chance at the cell), and the
    best calls are the ladder's cells with the largest p (1 - p), each askable ``samples`` times. No choice rule
    reaches the grid's width with fewer calls (it must learn the slope and find H50 as well)."""
    b = slope * math.log(2.0)
    info = sorted((0.25 / math.cosh(b * (c.x - HORIZON) / 2) ** 2 for c in cells), reverse=True)  # p (1 - p)
    grid_info, calls, gathered = sum(info), 0, 0.0
    for w in (w for w in info for _ in range(samples)):
        if gathered >= grid_info:
            break
        gathered, calls = gathered + w, calls + 1
    return calls / len(cells)


def one_slope(slope: float, args: argparse.Namespace) -> None:
    """Print the seeds' lines and the summary of one slope: the median calls ratio, both coverages, the bound."""
    print(f"slope {slope:g}: seed  grid width  covers | adaptive calls  width  covers  stop    ratio  bound")
    ratios: list[float] = []
    bounds: list[float] = []
    widths: list[float] = []
    covered = {"grid": 0, "adaptive": 0}
    shape = dict(programs=args.programs, horizon=HORIZON, slope=slope)
    for seed in range(args.seeds):
        fit, calls = full_grid(seed, replicates=args.replicates, **shape)
        tasks, _ = grid(seed, **shape)  # type: ignore[arg-type]
        grades = synthetic_grades(
            tasks, horizon=2.0**HORIZON, slope=slope, setting=setting_name(seed), samples=args.samples
        )
        answers = {(g.task_id, g.sample): g.status.startswith("correct") for g in grades}
        cells = ladder_cells(tasks)
        (lo, hi), used, stop = adaptive(
            cells, answers, width=fit.width50, budget=calls, samples=args.samples,
            round_size=args.round, seed=seed, replicates=args.replicates,
        )  # fmt: skip
        g_ok = fit.ci50[0] <= HORIZON <= fit.ci50[1]
        a_ok = lo <= HORIZON <= hi
        covered["grid"] += g_ok
        covered["adaptive"] += a_ok
        widths.append(fit.width50)
        ratios.append(used / calls)
        bounds.append(known_slope_bound(cells, slope, args.samples))
        print(
            f"         {seed:4d}  {fit.width50:10.3f}  {'yes' if g_ok else 'no':>6} | {used:14d}  {hi - lo:5.3f}  "
            f"{'yes' if a_ok else 'no':>6}  {stop:6s}  {used / calls:5.2f}  {bounds[-1]:5.2f}"
        )
    finite = [w for w in widths if math.isfinite(w)]
    print(
        f"slope {slope:g}: full grid {calls} calls, median width {statistics.median(finite):.3f}, covers log2 H in "
        f"{covered['grid']}/{args.seeds}; adaptive median {statistics.median(ratios) * calls:.0f} calls for the same "
        f"width: median ratio {statistics.median(ratios):.3f} (target <= 0.25), max {max(ratios):.3f}, covers in "
        f"{covered['adaptive']}/{args.seeds}; known-slope bound {statistics.median(bounds):.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--programs", type=int, default=30)
    parser.add_argument("--slope", type=float, action="append", help="synthetic_slope (repeatable; default 1, 2)")
    parser.add_argument("--samples", type=int, default=4, help="asks one rung may get in an adaptive run")
    parser.add_argument("--round", type=int, default=10, help="cells per round")
    parser.add_argument("--replicates", type=int, default=2000)
    parser.add_argument("--smoke", action="store_true", help="2 seeds, 10 programs, slope 2, 200 replicates")
    args = parser.parse_args()
    if args.smoke:
        args.seeds, args.programs, args.slope, args.replicates = 2, 10, [2.0], 200
    started = time.perf_counter()
    for slope in args.slope or [1.0, 2.0]:
        one_slope(slope, args)
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
