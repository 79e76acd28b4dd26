"""Benchmark of ``build --fresh``: a study built on fresh inputs against the same study built as published.

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/fresh.py [--study networkx --study library_cpp --study classic] [--jobs 2] [--seed S] [--smoke]

Prints, per study, measured side by side in one run: the published build's wall time, the fresh build's
(``--fresh-only``, default 4 candidates per case), their ratio (the target: at most 2x for networkx
and library_cpp), how many cases each admitted and how many were refreshed, and the published and fresh
long-trace medians. Each build starts with the measurements of the process forgotten and an empty C++
compile cache of its own (``EXECSTATE_CPP_CACHE``), since a fresh input gives new checkpoint copies (another
k) to compile; ``--warm`` keeps the user's cache for both instead.
--smoke: one classic case (kadane), one job.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from execstate.builder import BuildOptions, BuildResult, Fresh, build
from execstate.studies import STUDIES

SMOKE_CASES = ["kadane"]


def case_paths(study: str, names: list[str] | None) -> list[Path]:
    root = STUDIES[study].cases_dir
    assert root is not None, f"{study} has no case folders"
    found = sorted(p.parent for p in root.rglob("case.toml"))
    return [d for d in found if d.name in names] if names else found


def timed(paths: list[Path], jobs: int, fresh: Fresh | None, *, warm: bool) -> tuple[float, BuildResult]:
    with tempfile.TemporaryDirectory(prefix="bench-fresh-cpp-") as cache:
        if not warm:
            os.environ["EXECSTATE_CPP_CACHE"] = cache
        started = time.perf_counter()
        result = build(paths, jobs=jobs, options=BuildOptions(), fresh=fresh)
        seconds = time.perf_counter() - started
    return seconds, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", action="append", help="a built-in study of case folders (repeatable)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", default="benchmark-fresh-seed")
    ap.add_argument("--warm", action="store_true", help="both builds use the user's C++ compile cache")
    ap.add_argument("--smoke", action="store_true", help="one classic case, one job")
    args = ap.parse_args()
    studies = ["classic"] if args.smoke else (args.study or ["networkx", "library_cpp", "classic"])
    jobs = 1 if args.smoke else args.jobs
    for study in studies:
        paths = case_paths(study, SMOKE_CASES if args.smoke else None)
        published_s, published = timed(paths, jobs, None, warm=args.warm)
        fresh_s, fresh = timed(paths, jobs, Fresh(args.seed, only=True), warm=args.warm)
        refreshed = fresh.manifest.fresh["refreshed"] if fresh.manifest.fresh else []
        records = [t.meta["fresh"] for t in fresh.tasks if t.arm == "long-trace-final"]
        old = [r["trace_long_published"] for r in records]
        new = [r["trace_long"] for r in records]
        print(f"{study}: {len(paths)} cases ({'warm' if args.warm else 'empty'} C++ compile caches)")
        print(f"    published build {published_s:7.1f} s, {published.manifest.cases_admitted} admitted")
        print(
            f"    fresh build     {fresh_s:7.1f} s, {fresh.manifest.cases_admitted} admitted, {len(refreshed)} refreshed"
        )
        print(f"    fresh / published = {fresh_s / published_s:.2f}x")
        if records:
            print(f"    long trace median: published {statistics.median(old):.0f}, fresh {statistics.median(new):.0f}")
        for exclusion in fresh.exclusions:
            print(f"    excluded {exclusion.case_id} [{exclusion.check}]: {exclusion.reason[:160]}")


if __name__ == "__main__":
    main()
