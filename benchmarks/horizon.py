"""Benchmark of the execution-horizon fit against a known truth: how often the full grid's interval covers it.

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/horizon.py [--seeds 20] [--programs 30] [--low 7] [--high 21] [--horizon 14]
                                 [--slope 1] [--replicates 2000] [--smoke]

Each seed k builds a synthetic ladder (``execstate.testing.horizon.synthetic_ladder``: ``--programs`` programs,
a rung per doubling from 2^low to 2^high events, each rung's trace within 1.25x of its target), answers every
cell with the synthetic provider of setting ``synthetic-horizon-<k>`` with ``synthetic_horizon`` = 2^horizon
and ``synthetic_slope`` = slope (its own chance and seeded draw), and fits the horizon on the full grid
(``execstate.analyze.fit_horizon``, program-cluster bootstrap, ``--replicates``). Prints one line per seed (the
fitted log2 H50 with its 95% interval, covered or not, the width, the calls) and then: how many of the seeds'
intervals cover the set log2 H (the target: at least 18 of 20), the median interval width in log2 units and
the calls of the full grid (programs x rungs), which adaptive testing (``benchmarks/adaptive.py``) compares
with. ``full_grid(seed, ...)`` is the function such a benchmark calls for the same grid.
--smoke: 3 seeds, 10 programs, 200 replicates.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from execstate.analyze import HorizonFit
from execstate.records import Grade, Task
from execstate.testing.horizon import grid_fit, synthetic_grades, synthetic_ladder


def setting_name(seed: int) -> str:
    """The synthetic setting of seed ``seed`` (its name seeds the provider's draws)."""
    return f"synthetic-horizon-{seed}"


def grid(
    seed: int, *, programs: int = 30, low: int = 7, high: int = 21, horizon: float = 14.0, slope: float = 1.0
) -> tuple[list[Task], list[Grade]]:
    """Seed ``seed``'s ladder and its full grid of synthetic grades (set horizon 2^``horizon``)."""
    tasks = synthetic_ladder(programs, low, high, seed=seed)
    return tasks, synthetic_grades(tasks, horizon=2.0**horizon, slope=slope, setting=setting_name(seed))


def full_grid(seed: int, *, replicates: int = 2000, **shape: float) -> tuple[HorizonFit, int]:
    """(the full grid's horizon fit, its calls) for seed ``seed``; ``shape``: ``grid``'s keywords."""
    tasks, grades = grid(seed, **shape)  # type: ignore[arg-type]
    return grid_fit(tasks, grades, replicates=replicates, seed=seed), len(grades)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--programs", type=int, default=30)
    ap.add_argument("--low", type=int, default=7, help="log2 of the lowest rung's target")
    ap.add_argument("--high", type=int, default=21, help="log2 of the highest rung's target")
    ap.add_argument("--horizon", type=float, default=14.0, help="log2 of the set horizon")
    ap.add_argument("--slope", type=float, default=1.0, help="synthetic_slope")
    ap.add_argument("--replicates", type=int, default=2000)
    ap.add_argument("--smoke", action="store_true", help="3 seeds, 10 programs, 200 replicates")
    args = ap.parse_args()
    if args.smoke:
        args.seeds, args.programs, args.replicates = 3, 10, 200
    shape = {"programs": args.programs, "low": args.low, "high": args.high, "horizon": args.horizon}
    shape["slope"] = args.slope
    print(
        f"set log2 H = {args.horizon:g}, slope {args.slope:g}; {args.programs} programs, rungs 2^{args.low}..2^{args.high}"
    )
    covered, widths, calls = 0, [], 0
    started = time.perf_counter()
    for seed in range(args.seeds):
        fit, calls = full_grid(seed, replicates=args.replicates, **shape)
        lo, hi = fit.ci50
        hit = lo <= args.horizon <= hi
        covered += hit
        widths.append(fit.width50)
        point = "censored " + fit.censored50 if fit.h50 is None else f"{fit.h50:6.3f}"
        print(f"seed {seed:2d}: log2 H50 {point} [{lo:6.3f}, {hi:6.3f}] {'covers' if hit else 'MISSES'}  "
              f"width {fit.width50:.3f}  calls {calls}")  # fmt: skip
    seconds = time.perf_counter() - started
    width = statistics.median(widths)
    print(f"coverage: {covered}/{args.seeds} full-grid {100 * fit.level:g}% intervals cover the set horizon "
          f"(target: at least {math.ceil(0.9 * args.seeds)} of {args.seeds})")  # fmt: skip
    print(f"median interval width: {width:.3f} log2 units (x{2**width:.2f} in trace length)")
    print(f"full-grid calls per seed: {calls}; {seconds:.1f} s for {args.seeds} seeds")


if __name__ == "__main__":
    main()
