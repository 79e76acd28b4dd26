"""Benchmark of building C++ cases: cases per minute on the shipped C++ examples, and the share of compiling.

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/build_cpp.py [--jobs 2] [--smoke] [PATH...]

``PATH`` defaults to every case spec under ``examples/`` with ``language = "cpp"``. Prints,
measured side by side in one run:
(a) a cold build (a fresh, empty compile cache: every compile and the precompiled header, if a
    program includes ``<bits/stdc++.h>``, happen in the build) and a warm build of the same specs
    (the cache of the cold build: no compile at all), each as cases per minute with ``--jobs``
    cases at a time, and their ratio;
(b) the cold build's compile seconds (summed from the cache entries' ``meta.json``) as a share
    of its worker time (wall time x jobs), and per case (each case compiles its clean program and
    its instrumented copies, plain and with coverage).
Every case must be admitted; an exclusion is printed and fails the run (the numbers would be of
less work than they claim). Measurements the builder remembers within the process are forgotten before
each build, so the warm build saves compiling only.
--smoke: the first spec only (unless PATHs are given), one job (unless --jobs is given), cold and warm builds alike.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import tomllib
from pathlib import Path

from execstate.builder import BuildOptions, build

ROOT = Path(__file__).resolve().parents[1]


def cpp_specs(root: Path) -> list[Path]:
    return sorted(
        p.parent for p in root.rglob("case.toml") if tomllib.loads(p.read_text(encoding="utf-8"))["language"] == "cpp"
    )


def timed_build(paths: list[Path], jobs: int) -> tuple[float, int]:
    started = time.perf_counter()
    result = build(paths, jobs=jobs, options=BuildOptions())
    wall = time.perf_counter() - started
    if result.exclusions:
        for e in result.exclusions:
            print(f"excluded {e.case_id}: {e.check}: {e.reason}", file=sys.stderr)
        raise SystemExit(1)
    return wall, result.manifest.cases_admitted


def compile_seconds(cache: Path) -> tuple[float, int]:
    """Seconds and count of the compiles the cache holds: binaries and texts the compiler refused."""
    metas = [json.loads(p.read_text()) for d in ("bin", "fail") for p in (cache / d).rglob("meta.json")]
    return sum(m["compile_s"] for m in metas), len(metas)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", type=Path)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--smoke", action="store_true", help="one spec, one job: does it still run?")
    args = ap.parse_args()
    if args.smoke:  # smaller defaults; options given on the command line still win
        ap.set_defaults(jobs=1)
        args = ap.parse_args()
    paths = args.paths or cpp_specs(ROOT / "examples")[: 1 if args.smoke else None]
    with tempfile.TemporaryDirectory(prefix="bench-cpp-cache-") as cache:
        os.environ["EXECSTATE_CPP_CACHE"] = cache
        cold, cases = timed_build(paths, args.jobs)
        warm, _ = timed_build(paths, args.jobs)
        compiled, binaries = compile_seconds(Path(cache))
    print(f"{cases} C++ cases, {args.jobs} at a time ({os.cpu_count()} cores)")
    print(f"(a) cold cache: {cases / cold * 60:6.1f} cases/min ({cold:.1f} s)")
    print(f"    warm cache: {cases / warm * 60:6.1f} cases/min ({warm:.1f} s); warm/cold speed {cold / warm:.2f}x")
    print(
        f"(b) compiling: {compiled:.1f} s for {binaries} compiles (refusals included) = {compiled / (cold * args.jobs):.0%} of the cold "
        f"build's worker time; {compiled / cases:.2f} s and {binaries / cases:.1f} compiles per case"
    )


if __name__ == "__main__":
    main()
