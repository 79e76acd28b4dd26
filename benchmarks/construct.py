"""Benchmark of ``execstate construct``: problems per minute, time by phase, and the Dask executor's overhead.

Run from the repository root after ``pip install -e '.[test,dask]'``::

    python benchmarks/construct.py [--study codecontests_py] [--jobs 2] [--dask-problems 8]

Prints, measured in one run:
(a) the whole pool of a built-in constructed study on a process pool of ``--jobs`` workers:
    problems per minute, specs written, and each phase's share of the summed per-problem time
    (``tests``: running the tests, ``measure``: trace lengths, ``loops``: counting iterations and
    probing projections, ``check``: the nine checks on each proposal); and whether the output is
    byte-identical to the study's committed specs (the full form of the reproduction test);
(b) the first ``--dask-problems`` problems on the process pool and on a ``distributed.LocalCluster``
    with as many single-threaded worker processes, side by side: wall times, their ratio, and
    whether both wrote the same bytes.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

from execstate.construct import ConstructOptions, construct, read_pool
from execstate.studies import STUDIES
from execstate.testing import tree_bytes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", default="codecontests_py")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--dask-problems", type=int, default=8)
    args = ap.parse_args()
    study = STUDIES[args.study]
    assert study.pool is not None and study.cases_dir is not None
    problems = read_pool(study.pool)
    opts = ConstructOptions(study=args.study)
    with tempfile.TemporaryDirectory(prefix="bench-construct-") as tmp:
        # the committed layout (study.toml beside pool/ and specs/), so the specs name ../../pool/<id>/ alike
        shutil.copytree(study.pool, Path(tmp) / "pool")
        shutil.copy(study.pool.parent / "study.toml", Path(tmp) / "study.toml")
        out = Path(tmp) / "specs"
        started = time.perf_counter()
        result = construct(read_pool(Path(tmp) / "pool"), out, opts, jobs=args.jobs)
        wall = time.perf_counter() - started
        phases: dict[str, float] = {}
        for o in result.outcomes:
            for name, seconds in o.seconds.items():
                phases[name] = phases.get(name, 0.0) + seconds
        total = sum(phases.values())
        same = tree_bytes(out) == tree_bytes(study.cases_dir)
        print(f"(a) {args.study}: {len(problems)} problems, {len(result.written)} specs, {args.jobs} workers")
        print(f"    {len(problems) / wall * 60:.1f} problems/min ({wall:.0f} s)")
        print(
            "    phases: " + ", ".join(f"{k} {v / total:.0%}" for k, v in sorted(phases.items(), key=lambda kv: -kv[1]))
        )
        print(f"    identical to the committed specs: {same}")

        subset = problems[: args.dask_problems]
        started = time.perf_counter()
        construct(subset, Path(tmp) / "process", opts, jobs=args.jobs)
        process_s = time.perf_counter() - started
        try:
            from distributed import LocalCluster
        except ImportError:
            print("(b) skipped: pip install 'execstate[dask]'", file=sys.stderr)
            return
        with LocalCluster(n_workers=args.jobs, threads_per_worker=1, dashboard_address=None) as cluster:
            started = time.perf_counter()
            construct(subset, Path(tmp) / "dask", opts, executor="dask", scheduler=cluster.scheduler_address)
            dask_s = time.perf_counter() - started
        same = tree_bytes(Path(tmp) / "process") == tree_bytes(Path(tmp) / "dask")
        print(f"(b) {len(subset)} problems: process pool {process_s:.1f} s, Dask LocalCluster {dask_s:.1f} s")
        print(f"    Dask / process = {dask_s / process_s:.2f}x; identical specs: {same}")


if __name__ == "__main__":
    main()
