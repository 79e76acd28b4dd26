"""Benchmark of ``execstate construct`` on C++: problems per minute, compiles per problem, the compiler's share.

Run from the repository root (needs g++ and gcov)::

    python benchmarks/construct_cpp.py [--problem ID ...] [--jobs 2] [--cache DIR] [--smoke]

Constructs the C++ pool the project ships (``benchmarks/pools/contest_cpp``: 31 contest-style programs,
seven of them ``#line`` bundles, most with loop macros, samples only) on a process pool of ``--jobs``
workers, with an empty compile cache of its own (``--cache DIR``: that one, as it is: a warm cache), and
prints, measured in one run:
- problems per minute (the pool over the wall time) and the specs written;
- compiles per problem: compiler runs (programs, texts the compiler refused, precompiled headers) over
  problems, counted from the cache the workers filled (``cache_stats``; a refusal is kept there like a binary,
  only a run stopped by a limit would go uncounted);
- what was compiled, by kind, read from each new cache entry's ``main.cpp`` and flags: programs as written,
  the clean programs' measured builds, the every-mode texts' measured builds, their optimised builds, the
  counting builds, other copies, texts the compiler refused (copies showing a variable the emitter cannot
  print) and precompiled headers;
- the compiler's share: the compilers' summed wall seconds over the workers' wall time (``--jobs`` x wall);
- a second construct of the same problems on the now warm cache: its compiles (0 when no compile is ever
  repeated for the same source and flags) and its problems per minute.
Each line ends with its target (issue 53): at least 10 problems per minute and at most 3 compiles per problem
on 2 workers.
--smoke: one small problem (max_prefix_sum) with one candidate loop, no warm rerun, on a compile cache of its
own that outlives the run (``$TMPDIR/execstate-construct-cpp-smoke``: warm after a first run, so the test suite's
repeat runs stay quick; not the default cache, which other processes fill meanwhile and so would be miscounted).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from execstate.construct import ConstructOptions, construct, read_pool
from execstate.metrics.cpp._compile import cache_stats

POOL = Path(__file__).resolve().parent / "pools" / "contest_cpp"
TARGET_PER_MINUTE = 10.0
TARGET_COMPILES = 3.0
SMOKE_PROBLEMS = ["max_prefix_sum"]
SMOKE_CACHE = Path(tempfile.gettempdir()) / "execstate-construct-cpp-smoke"


def _entries(cache: Path) -> set[Path]:
    """The cache's compiled programs, refused texts and precompiled headers (one directory each)."""
    entries = (*cache.glob("bin/*/*/meta.json"), *cache.glob("fail/*/*/meta.json"), *cache.glob("pch/*/meta.json"))
    return {m.parent for m in entries}


def _kind(entry: Path) -> str:
    """What one cache entry is, from its flags and its text (the markers the C++ adapter writes)."""
    if entry.parent.name == "pch":
        return "precompiled headers"
    if entry.parent.parent.name == "fail":
        return "refused by the compiler"
    text = (entry / "main.cpp").read_text(encoding="utf-8", errors="replace")
    coverage = "--coverage" in (entry / "meta.json").read_text(encoding="utf-8")
    copy = "execstate_emit" in text
    if not copy:
        return "clean measured builds" if coverage else "programs as written"
    if "checkpoint_k_of(" in text:  # a text serving every mode (instrument.every_mode_cpp)
        return "every-mode measured builds" if coverage else "every-mode optimised builds"
    if "report_loop_counts" in text:
        return "counting builds"
    return "other copies, measured" if coverage else "other copies, optimised"


def _kinds(cache: Path, before: set[Path]) -> str:
    """The entries made since ``before``, counted by kind (most first)."""
    counts: dict[str, int] = {}
    for entry in _entries(cache) - before:
        counts[_kind(entry)] = counts.get(_kind(entry), 0) + 1
    return ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))) or "none"


def _run(problems: list, out: Path, cache: Path, opts: ConstructOptions, jobs: int) -> tuple[float, int, int, float]:
    """Construct ``problems`` into ``out``: (wall seconds, specs, compiler runs, compiler seconds) of this run."""
    before = cache_stats(cache)
    started = time.perf_counter()
    result = construct(problems, out, opts, jobs=jobs)
    wall = time.perf_counter() - started
    after = cache_stats(cache)
    return wall, len(result.written), after.runs - before.runs, after.seconds - before.seconds


def _verdict(ok: bool) -> str:
    return "met" if ok else "NOT MET"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--problem", action="append", help="only this problem of the pool (repeatable; default: all)")
    ap.add_argument("--cache", type=Path, help="compile cache to use as it is (default: a new empty one)")
    ap.add_argument("--smoke", action="store_true", help="two small problems: does it still run?")
    args = ap.parse_args()
    pool = read_pool(POOL)
    by_id = {p.id: p for p in pool}
    ids = args.problem or (SMOKE_PROBLEMS if args.smoke else [p.id for p in pool])
    if unknown := [i for i in ids if i not in by_id]:
        ap.error(f"not in {POOL}: {', '.join(unknown)}")
    problems = [by_id[i] for i in ids]
    with tempfile.TemporaryDirectory(prefix="bench-construct-cpp-") as tmp:
        cache = args.cache or (SMOKE_CACHE if args.smoke else Path(tmp) / "cache")
        os.environ["EXECSTATE_CPP_CACHE"] = str(cache)  # the workers inherit it: one cache for the pool
        opts = ConstructOptions(study="contest_cpp", max_loops=1 if args.smoke else ConstructOptions.max_loops)
        made_before = _entries(cache)
        wall, specs, runs, compile_s = _run(problems, Path(tmp) / "cold", cache, opts, args.jobs)
        n = len(problems)
        rate, per_problem = n / wall * 60, runs / n
        print(f"(a) contest_cpp: {n} problems, {specs} specs, {args.jobs} workers, {wall:.0f} s")
        print(f"    {rate:.1f} problems/min (target {TARGET_PER_MINUTE:g}: {_verdict(rate >= TARGET_PER_MINUTE)})")
        print(
            f"    {per_problem:.2f} compiles per problem ({runs} compiler runs; "
            f"target {TARGET_COMPILES:g}: {_verdict(per_problem <= TARGET_COMPILES)})"
        )
        print(f"    compiled: {_kinds(cache, made_before)}")
        print(f"    compiler share: {compile_s / (wall * args.jobs):.0%} ({compile_s:.0f} s of compiling)")
        if args.smoke:
            return
        wall, specs, runs, _ = _run(problems, Path(tmp) / "warm", cache, opts, args.jobs)
        print(f"(b) again on the warm cache: {runs} compiler runs, {n / wall * 60:.1f} problems/min, {specs} specs")


if __name__ == "__main__":
    main()
