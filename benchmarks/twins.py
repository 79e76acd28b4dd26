"""Benchmark of the cross-language twins: what building ``classic_cpp`` beside ``classic`` costs.

Run from the repository root (needs g++ and gcov)::

    python benchmarks/twins.py [--jobs 2] [--case NAME ...] [--cold] [--smoke]

Builds, in one process, ``classic`` alone, then ``classic`` with ``classic_cpp`` (the main job's published build,
the twin proof included), then the twin proof alone again on the second build's tasks, and prints for each its
wall seconds and CPU seconds (this process and every program it ran: the sandboxed runs and the compilers), so a
reading on a loaded machine is still comparable (CPU seconds do not grow with other machines' load, wall seconds
do). Then the ratios: the twins' extra CPU over classic's, and the proof's share of the twin build; and the
pairs proven. The main job must stay under 10 minutes on 2 cores (issue 56), which is why ``classic_cpp`` is not
in its default grid yet: the extra line says how much of that budget the twins would take, measured. ``--case``: only these case folders of both studies (a quick reading).
``--cold``: an empty C++ compile cache of its own (``EXECSTATE_CPP_CACHE``), as on a fresh machine; without it
the compiles a previous build cached are not counted.
``--smoke``: one pair (insertion_sort, the quickest classic case), one job, the compile cache as it is
(tests/test_benchmarks.py).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from execstate.builder import BuildOptions, build
from execstate.builder._spec import load_spec
from execstate.builder._twins import prove_twins, twin_links
from execstate.studies import study_dir


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (user + system)."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _timed(label: str, work: Callable[[], Any]) -> tuple[Any, float, float]:
    """``work()``'s result, its wall and CPU seconds, printed under ``label``."""
    wall, cpu = time.monotonic(), _cpu()
    out = work()
    wall, cpu = time.monotonic() - wall, _cpu() - cpu
    print(f"{label}: wall {wall:.1f} s, cpu {cpu:.1f} s", flush=True)
    return out, wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--case", action="append", default=[], help="only this case folder (repeatable)")
    parser.add_argument("--cold", action="store_true", help="an empty C++ compile cache of its own")
    parser.add_argument("--smoke", action="store_true", help="one pair (insertion_sort), one job")
    args = parser.parse_args()
    if args.smoke:
        args.case, args.jobs = ["insertion_sort"], 1
    cache = tempfile.mkdtemp(prefix="execstate-twins-bench-") if args.cold else None
    if cache is not None:
        os.environ["EXECSTATE_CPP_CACHE"] = cache
    try:
        _measure(args)
    finally:
        if cache is not None:
            shutil.rmtree(cache, ignore_errors=True)


def _measure(args: argparse.Namespace) -> None:
    """The builds, the proof and the ratios, printed."""
    classic, twins = study_dir("classic"), study_dir("classic_cpp")
    if args.case:
        alone: list[Path] = [classic / name for name in args.case]
        both = alone + [twins / name for name in args.case]
        run = lambda paths: build(paths, jobs=args.jobs)
        first, _, cpu_classic = _timed("classic", lambda: run(alone))
        second, _, cpu_both = _timed("classic + classic_cpp", lambda: run(both))
    else:
        first, _, cpu_classic = _timed("classic", lambda: build([], studies=["classic"], jobs=args.jobs))
        second, _, cpu_both = _timed(
            "classic + classic_cpp", lambda: build([], studies=["classic", "classic_cpp"], jobs=args.jobs)
        )
    specs = [load_spec(Path(p)) for p in second.manifest.specs]
    links = twin_links(specs)
    stripped = [t.model_copy(update={"meta": {k: v for k, v in t.meta.items() if k not in ("twin_of", "twin")}})
                for t in second.tasks]  # fmt: skip
    (_, record), _, cpu_proof = _timed(
        "twin proof alone", lambda: prove_twins(stripped, specs, links, BuildOptions(), jobs=args.jobs)
    )
    extra = cpu_both - cpu_classic
    print(f"classic tasks {len(first.tasks)}, with the twins {len(second.tasks)}")
    print(f"proven {len(record['proven'])} of {len(links)} twins; not proven: {record['not_proven']}")
    print(f"extra cpu of the twins over classic: {extra:.1f} s ({extra / max(cpu_classic, 1e-9):.2f}x classic)")
    print(f"proof's share of the twin build's extra cpu: {cpu_proof / max(extra, 1e-9):.2f}")
    print(f"extra cpu per core on {args.jobs} cores: {extra / args.jobs:.1f} s (target: main job under 600 s)")


if __name__ == "__main__":
    main()
