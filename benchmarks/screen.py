"""Benchmark of trace-length screening: screen_trace_lengths against measure() one by one and plain sandboxed runs.

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/screen.py [--python PATH] [--inputs 200] [--large 4000] [--jobs 2] [--smoke]

Prints, measured side by side in one run on the same inputs of a mid-size
program (Dijkstra on a random graph, a few thousand instruction events per
input): candidates per second of ``screen_trace_lengths``, of ``measure()``
called once per input, and of plain runs (``execstate.sandbox.run_python``),
each with ``--jobs`` at a time; the ratio of screening cost to plain runs; and
the screening rate on ``--large`` inputs (default batch size). The script
exits 1 if screening and ``measure()`` disagree on any input. Target: at least
300 candidates per second on 2 cores.
--smoke: 6 inputs and 12 large inputs (in batches of 4 in place of 500).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from execstate.metrics import measure, screen_trace_lengths
from execstate.sandbox import run_python

PROGRAM = """import heapq
import sys

def read_graph(stream):
    n, m = map(int, stream.readline().split())
    adjacency = [[] for _ in range(n)]
    for _ in range(m):
        a, b, w = map(int, stream.readline().split())
        adjacency[a].append((b, w))
        adjacency[b].append((a, w))
    return adjacency

def dijkstra(adjacency, source):
    dist = [float("inf")] * len(adjacency)
    dist[source] = 0
    heap = [(0, source)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, w in adjacency[u]:
            if d + w < dist[v]:
                dist[v] = d + w
                heapq.heappush(heap, (d + w, v))
    return dist

graph = read_graph(sys.stdin)
dist = dijkstra(graph, 0)
print(sum(d for d in dist if d != float("inf")))
"""


def make_inputs(count: int, seed: int = 15) -> list[bytes]:
    rng = random.Random(seed)
    inputs = []
    for _ in range(count):
        n = rng.randint(20, 60)
        edges = [(rng.randrange(n), rng.randrange(n), rng.randint(1, 20)) for _ in range(rng.randint(n, 3 * n))]
        lines = [f"{n} {len(edges)}", *(f"{a} {b} {w}" for a, b, w in edges)]
        inputs.append(("\n".join(lines) + "\n").encode())
    return inputs


def timed(fn: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--inputs", type=int, default=200)
    parser.add_argument("--large", type=int, default=4000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--batch", type=int, default=500, help="inputs per screening worker on the large set")
    parser.add_argument("--smoke", action="store_true", help="a few inputs: does it still run?")
    args = parser.parse_args()
    if args.smoke:  # smaller defaults; options given on the command line still win
        parser.set_defaults(inputs=6, large=12, batch=4)
        args = parser.parse_args()
    inputs = make_inputs(args.inputs)
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(args.jobs) as pool:
        program = Path(tmp) / "main.py"
        program.write_text(PROGRAM, encoding="utf-8")
        batch = max(1, -(-len(inputs) // args.jobs))  # every job gets a batch of the small set
        t_screen, screened = timed(
            lambda: screen_trace_lengths(PROGRAM, inputs, python=args.python, jobs=args.jobs, batch=batch)
        )
        t_measure, measured = timed(
            lambda: list(pool.map(lambda x: measure(PROGRAM, x, state=False, python=args.python).trace_length, inputs))
        )
        t_plain, runs = timed(lambda: list(pool.map(lambda x: run_python(program, x, python=args.python), inputs)))
    large = make_inputs(args.large, seed=16)
    t_large, _ = timed(
        lambda: screen_trace_lengths(PROGRAM, large, python=args.python, jobs=args.jobs, batch=args.batch)
    )
    events = sorted(n for n in measured if n is not None)  # type: ignore[union-attr]
    print(
        f"python {args.python}; {len(inputs)} inputs; {args.jobs} jobs; median trace length {events[len(events) // 2]}"
    )
    for name, seconds in (
        ("screen_trace_lengths", t_screen),
        ("measure() one by one", t_measure),
        ("plain runs", t_plain),
    ):
        print(f"  {name:<22} {len(inputs) / seconds:8.1f} candidates/s  ({seconds:.2f} s)")
    print(
        f"  screening cost / plain runs: {t_screen / t_plain:.3f}   measure one by one / plain runs: {t_measure / t_plain:.2f}"
    )
    print(
        f"  screen_trace_lengths on {len(large)} inputs (batch {args.batch}): {len(large) / t_large:.1f} candidates/s"
    )
    failed = sum(not r.ok for r in runs)  # type: ignore[attr-defined]
    if failed:
        print(f"  {failed} plain runs failed")
    if screened != measured:
        print("MISMATCH: screening and measure() disagree")
        return 1
    print("  screening == measure() on every input")
    return 0


if __name__ == "__main__":
    sys.exit(main())
