"""Benchmark: what starting a sandboxed run costs the caller, by how much memory the caller holds.

Two ways of giving ``unshare`` its parent-death signal, side by side in one process:

- ``setpriv``: util-linux ``setpriv --pdeathsig KILL`` execs ``unshare`` (the default), so Python starts
  the run with ``vfork``;
- ``preexec_fn``: the fallback for machines without ``setpriv``; a ``preexec_fn`` makes Python ``fork``
  the caller, copying its page tables at every run.

The caller imports what the builder and the test workers import (numpy, pandas, scipy, statsmodels,
matplotlib) and then holds ``--ballast`` MB more. Runs alternate between the two ways so load on the
machine hits both alike. Printed: wall, the caller's kernel time and the child's, per run, and the ratio.
Target: the default path's wall per run does not grow with the caller's memory (ratio to the smallest
caller at most 1.3x).
--smoke: 2 runs per way after 1 warm-up, callers holding 0 and 50 MB more.

    python benchmarks/sandbox_launch.py [--runs 40] [--ballast 0 500 1000] [--smoke]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import matplotlib.pyplot  # noqa: F401  (what a builder process holds)
import numpy  # noqa: F401
import pandas  # noqa: F401
import scipy.stats  # noqa: F401
import statsmodels.api  # noqa: F401

import execstate.sandbox as sandbox
from execstate.sandbox import _spawn  # where the parent-death signal is chosen

TARGET = 1.3


SETPRIV = _spawn._death_signal


def _one(script: Path, use_setpriv: bool) -> tuple[float, float, float]:
    """(wall, caller kernel, child kernel) seconds of one trivial sandboxed run, started either way."""
    _spawn._death_signal = SETPRIV if use_setpriv else (lambda: [])  # [] -> the preexec_fn fallback
    try:
        me0, kids0 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        res = sandbox.run_script(sys.executable, script)
        wall = time.perf_counter() - t0
        me1, kids1 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    finally:
        _spawn._death_signal = SETPRIV
    if not (res.ok and res.stdout == b"hi\n"):
        raise SystemExit(f"the trivial run failed: {res.describe()}")
    return wall, me1.ru_stime - me0.ru_stime, kids1.ru_stime - kids0.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40, help="runs per way and caller size")
    parser.add_argument("--ballast", type=int, nargs="+", default=[0, 500, 1000], help="extra MB the caller holds")
    parser.add_argument("--warm-up", type=int, default=3, help="runs before each caller size's samples")
    parser.add_argument("--smoke", action="store_true", help="a few runs, small callers: does it still run?")
    args = parser.parse_args()
    if args.smoke:  # smaller defaults; options given on the command line still win
        parser.set_defaults(runs=2, ballast=[0, 50], warm_up=1)
        args = parser.parse_args()
    if not _spawn._death_signal():
        raise SystemExit("util-linux setpriv is not on this machine: there is nothing to compare")
    held: list[bytearray] = []
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "hello.py"
        script.write_text('print("hi")\n')
        total = 0
        for mb in sorted(args.ballast):
            block = bytearray((mb - total) * 2**20)
            block[::4096] = b"\1" * len(block[::4096])  # touch every page: resident, not just reserved
            held.append(block)
            total = mb
            for _ in range(args.warm_up):
                _one(script, True)
            samples: dict[str, list[tuple[float, float, float]]] = {"setpriv": [], "preexec_fn": []}
            for _ in range(args.runs):
                samples["setpriv"].append(_one(script, True))
                samples["preexec_fn"].append(_one(script, False))
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
            row = {"rss": rss}
            for way, got in samples.items():
                row[way] = tuple(statistics.median(x[i] for x in got) * 1000 for i in range(3))
            rows.append(row)
    print(f"python {sys.version.split()[0]}; {args.runs} trivial runs per way and caller size; medians in ms")
    print(f"{'caller RSS':>11} | {'setpriv wall/kernel/child':>26} | {'preexec_fn wall/kernel/child':>29} | fork/vfork")
    for row in rows:
        a, b = row["setpriv"], row["preexec_fn"]
        print(
            f"{row['rss']:>8} MB | {a[0]:8.1f} {a[1]:7.1f} {a[2]:7.1f}  | {b[0]:9.1f} {b[1]:8.1f} {b[2]:8.1f}   "
            f"| {b[0] / a[0]:.2f}x"
        )
    growth = rows[-1]["setpriv"][0] / rows[0]["setpriv"][0]
    verdict = "meets" if growth <= TARGET else "misses"
    print(f"setpriv wall, largest caller vs smallest: {growth:.2f}x ({verdict} the target of {TARGET}x)")


if __name__ == "__main__":
    main()
