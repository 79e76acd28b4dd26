"""Benchmark of the NetworkX study's screening: candidates screened per second, and its cost against plain runs.

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/networkx.py [--candidates 4000] [--plain 100] [--jobs 2] [--smoke]

Prints, measured side by side in one run on the first ``--candidates`` default candidates:
(a) generating them (``generator.instance``, in this process), and screening them
    (``execstate.metrics.screen_trace_lengths``, ``--jobs`` sandboxed workers): candidates per
    second for each and for both (what ``execstate select`` does per candidate), and the time
    90,000 would take at that rate;
(b) per candidate, screening's wall time against a plain sandboxed run of the same program on the
    same input (``execstate.sandbox.run_python``, one by one, on the first ``--plain`` candidates),
    and against ``execstate.metrics.measure`` one by one (what screening replaces).
--smoke: 20 candidates, 3 of them run plain and measured one by one.
"""

from __future__ import annotations

import argparse
import importlib.util
import tempfile
import time
from pathlib import Path

from execstate.metrics import measure, screen_trace_lengths
from execstate.sandbox import run_python
from execstate.studies import STUDIES


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--candidates", type=int, default=4000)
    ap.add_argument("--plain", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--smoke", action="store_true", help="20 candidates: does it still run?")
    args = ap.parse_args()
    if args.smoke:  # smaller defaults; options given on the command line still win
        ap.set_defaults(candidates=20, plain=3)
        args = ap.parse_args()
    folder = STUDIES["networkx"].screened
    assert folder is not None
    spec = importlib.util.spec_from_file_location("nx_generator", folder / "generator.py")
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    source = (folder / "main.py").read_text(encoding="utf-8")

    started = time.perf_counter()
    inputs = [gen.instance(s, gen.candidate_nodes(s)).encode() for s in range(args.candidates)]
    generate_s = time.perf_counter() - started
    started = time.perf_counter()
    traces = screen_trace_lengths(source, inputs, jobs=args.jobs)
    screen_s = time.perf_counter() - started
    n = args.candidates
    both = n / (generate_s + screen_s)
    print(f"(a) {n} candidates, {args.jobs} screening workers; median trace {sorted(t or 0 for t in traces)[n // 2]}")
    print(f"    generating {n / generate_s:7.0f}/s | screening {n / screen_s:7.0f}/s | both {both:7.0f}/s")
    print(f"    90,000 candidates: {90_000 / both / 60:.1f} min")

    k = min(args.plain, n)
    with tempfile.TemporaryDirectory() as tmp:
        program = Path(tmp) / "main.py"
        program.write_text(source)
        started = time.perf_counter()
        for data in inputs[:k]:
            assert run_python(program, data).ok
        plain_s = (time.perf_counter() - started) / k
    started = time.perf_counter()
    measured = [measure(source, data, state=False).trace_length for data in inputs[:k]]
    measure_s = (time.perf_counter() - started) / k
    assert measured == traces[:k], "screening and measure() disagree"
    per_candidate = screen_s / n * args.jobs  # worker time per candidate
    print(
        f"(b) per candidate: screening {per_candidate * 1000:.1f} ms of worker time, plain run {plain_s * 1000:.1f} ms,"
    )
    print(f"    measure() {measure_s * 1000:.1f} ms; screening / plain run = {per_candidate / plain_s:.2f}, ", end="")
    print(f"measure / screening = {measure_s / per_candidate:.1f}x (and the counts agree on all {k})")


if __name__ == "__main__":
    main()
