"""Benchmark of ``execstate construct``: problems per minute, time by phase, and the Dask executor's overhead.

Run from the repository root after ``pip install -e '.[test,dask]'``::

    python benchmarks/construct.py [--study codecontests_py] [--problem ID ...] [--jobs 2] [--dask-problems 8] [--smoke]

Prints, measured in one run:
(a) the whole pool of a built-in constructed study on a process pool of ``--jobs`` workers:
    problems per minute, specs written, and each phase's share of the summed per-problem time
    (``tests``: running the tests, ``measure``: trace lengths, ``loops``: counting iterations and
    probing projections, ``check``: the nine checks on each proposal); and whether the output is
    byte-identical to the study's committed specs (the full form of the reproduction test);
(b) the first ``--dask-problems`` problems on the process pool and on a ``distributed.LocalCluster``
    with as many single-threaded worker processes, side by side: wall times, their ratio, and
    whether both wrote the same bytes.
(c) the held-out-style run a user sees: the same pool cut to each problem's two smallest tests
    (``samples_only_pool``: synthesized long inputs), constructed on ``--jobs`` workers: wall time and
    specs written (construct writes a spec only when the builder admits it).
Each line ends with its target (issue 42): (a) at least 20 problems per minute on 2 workers; (c) at most
half the wall time of before the counted budgets (``SAMPLES_BEFORE``) with at least as many specs.
``--keep DIR`` copies the specs (a) wrote to DIR. (a) also names the spec folders that differ from the
committed ones and the five slowest problems. ``--problem ID`` (repeatable) takes only those problems, in that order, in (a) and (b); then (a) compares
their spec folders with the committed ones.
--smoke: two quick problems (codecontests_py: one without a spec, one with) in (a), the first of them in (b) and
(c) (benchmarks/construct_samples.py --smoke runs the samples-only construct of the second); (b) runs it on Dask
only and compares with (a)'s spec folder (the process pool ran it there).
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
from execstate.testing import samples_only_pool, tree_bytes

TARGET_PER_MINUTE = 20.0
SAMPLES_BEFORE = (1190.0, 36)
"""(c) before the counted budgets, this machine, idle (commit bdb5fbd, 2 workers): wall seconds, specs (666_a alone
spent 729 s: synthesized inputs that ran out of the 120 s CPU limit one after another)."""

SMOKE_PROBLEMS = {  # ~2 s and ~3 s alone on 2 idle cores (the refused one reaches synthesis without long traces)
    "codecontests_py": ["397_c_on_number_of_decompositions_into_multipliers_6811", "103_b_cthulhu_4280"],
}


def _samples_only(pool: Path, ids: list[str], opts: ConstructOptions, jobs: int, tmp: Path) -> None:
    """(c): the pool cut to two tests per problem, constructed; wall time and specs against the target."""
    cut = samples_only_pool(pool, tmp / "pool", keep=2, only=ids)
    shutil.copy(pool.parent / "study.toml", tmp / "study.toml")
    started = time.perf_counter()
    result = construct(read_pool(cut), tmp / "specs", opts, jobs=jobs)
    wall = time.perf_counter() - started
    specs = len(result.written)
    before_s, before_specs = SAMPLES_BEFORE
    if len(ids) == 40 and before_s:
        ok = wall <= before_s / 2 and specs >= before_specs
        verdict = f"before {before_s:.0f} s and {before_specs} specs, {before_s / wall:.1f}x faster: " + (
            "met" if ok else "NOT MET"
        )
    else:
        verdict = "a part of the pool: not judged"
    print(f"(c) two smallest tests each: {len(ids)} problems, {specs} specs, {wall:.0f} s ({verdict})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", default="codecontests_py")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--problem", action="append", help="only this problem of the pool (repeatable; default: all)")
    ap.add_argument("--dask-problems", type=int, default=8)
    ap.add_argument("--keep", type=Path, help="copy the constructed specs/ here (to inspect or commit them)")
    ap.add_argument("--smoke", action="store_true", help="two problems, one on Dask: does it still run?")
    args = ap.parse_args()
    study = STUDIES[args.study]
    assert study.pool is not None and study.cases_dir is not None
    pool = read_pool(study.pool)
    if args.smoke:  # smaller defaults; options given on the command line still win
        ap.set_defaults(dask_problems=1)
        args = ap.parse_args()
        args.problem = args.problem or list(SMOKE_PROBLEMS.get(args.study, [p.id for p in pool[:2]]))
    ids = args.problem or [p.id for p in pool]
    by_id = {p.id: p for p in pool}
    if unknown := [i for i in ids if i not in by_id]:
        ap.error(f"not in {study.pool}: {', '.join(unknown)}")
    problems = [by_id[i] for i in ids]
    opts = ConstructOptions(study=args.study)
    with tempfile.TemporaryDirectory(prefix="bench-construct-") as tmp:
        # the committed layout (study.toml beside pool/ and specs/), so the specs name ../../pool/<id>/ alike
        shutil.copytree(study.pool, Path(tmp) / "pool")
        shutil.copy(study.pool.parent / "study.toml", Path(tmp) / "study.toml")
        out = Path(tmp) / "specs"
        copied = {p.id: p for p in read_pool(Path(tmp) / "pool")}
        started = time.perf_counter()
        result = construct([copied[i] for i in ids], out, opts, jobs=args.jobs)
        wall = time.perf_counter() - started
        phases: dict[str, float] = {}
        for o in result.outcomes:
            for name, seconds in o.seconds.items():
                phases[name] = phases.get(name, 0.0) + seconds
        total = sum(phases.values())
        if args.problem is None:
            same = tree_bytes(out) == tree_bytes(study.cases_dir)
        else:  # construct.json lists these problems only: compare their spec folders
            same = all(tree_bytes(out / i) == tree_bytes(study.cases_dir / i) for i in ids)
        differing = [i for i in ids if tree_bytes(out / i) != tree_bytes(study.cases_dir / i)]
        slowest = sorted(result.outcomes, key=lambda o: -sum(o.seconds.values()))[:5]
        if args.keep:
            shutil.copytree(out, args.keep, dirs_exist_ok=True)
        print(f"(a) {args.study}: {len(problems)} problems, {len(result.written)} specs, {args.jobs} workers")
        rate = len(problems) / wall * 60
        met = "met" if rate >= TARGET_PER_MINUTE else "NOT MET"
        print(f"    {rate:.1f} problems/min ({wall:.0f} s; target {TARGET_PER_MINUTE:g} on 2 workers: {met})")
        print(
            f"    work: {total:.0f} s summed over problems ({total / args.jobs:.0f} s on {args.jobs} workers if balanced)"
        )
        print(
            "    phases: " + ", ".join(f"{k} {v / total:.0%}" for k, v in sorted(phases.items(), key=lambda kv: -kv[1]))
        )
        print(f"    identical to the committed specs{'' if args.problem is None else ' (these problems)'}: {same}")
        if differing:
            print(f"    spec folders that differ: {', '.join(differing)}")
        print("    slowest: " + ", ".join(f"{o.problem} {sum(o.seconds.values()):.0f} s" for o in slowest))

        samples_ids = [p.id for p in problems][: 1 if args.smoke else None]  # the smoke's second: construct_samples
        _samples_only(study.pool, samples_ids, opts, args.jobs, Path(tmp) / "samples")

        subset = problems[: args.dask_problems]
        if not subset:  # --dask-problems 0: no executor comparison, no ratio of two empty runs
            print("(b) skipped: --dask-problems 0")
            return
        process_s = None
        if not args.smoke:  # the smoke compares Dask's specs with (a)'s: the process pool is checked once
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
        if process_s is None:
            same = all(
                (out / p.id).is_dir() and tree_bytes(Path(tmp) / "dask" / p.id) == tree_bytes(out / p.id)
                for p in subset
            )
            print(f"(b) {len(subset)} problems: Dask LocalCluster {dask_s:.1f} s (no process-pool run: a smoke)")
            print(f"    identical specs to (a)'s process pool: {same}")
            return
        same = tree_bytes(Path(tmp) / "process") == tree_bytes(Path(tmp) / "dask")
        print(f"(b) {len(subset)} problems: process pool {process_s:.1f} s, Dask LocalCluster {dask_s:.1f} s")
        print(f"    Dask / process = {dask_s / process_s:.2f}x; identical specs: {same}")


if __name__ == "__main__":
    main()
