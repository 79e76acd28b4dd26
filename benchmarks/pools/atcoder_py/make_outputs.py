"""Write the expected outputs of the atcoder_py pool by running its programs, and check those programs.

Run from anywhere, with the packages of the ``atcoder`` preset installed in one folder
(``--install`` puts them there with this interpreter's pip)::

    python benchmarks/pools/atcoder_py/make_outputs.py --env /tmp/atcoder-env --install
    python benchmarks/pools/atcoder_py/make_outputs.py --env /tmp/atcoder-env            # write every tests/*.out
    python benchmarks/pools/atcoder_py/make_outputs.py --env /tmp/atcoder-env --check    # against brute force
    python benchmarks/pools/atcoder_py/make_outputs.py --env /tmp/atcoder-env --stress   # large inputs, timed

Every output comes from execution: each ``main.py`` runs on each ``tests/*.in`` with the folder
on ``PYTHONPATH``, twice (hash seeds 0 and 1); a run that exits non-zero, writes to stderr or
differs between the two seeds stops the script before anything is written. ``--check`` runs
every program on ``--rounds`` seeded random small inputs and compares its output, token by
token, with a brute-force solution written here. ``--stress`` runs every program once on a
seeded random input of size 10^4..10^5 and fails any run that is unclean or uses 2 CPU seconds or more;
the large inputs are generated in memory and never written.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import resource
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

POOL = Path(__file__).resolve().parent
PACKAGES = (
    "sortedcontainers==2.4.0",
    "numpy==2.2.6",
    "more-itertools==10.5.0",
    "networkx==3.4.2",
    "bitarray==3.0.0",
    "sympy==1.13.3",
    "ac-library-python==0.1.0",
)
"""The pins of execstate's ``atcoder`` preset that these programs import (sympy: none of them yet)."""
STRESS_LIMIT_S = 2.0
"""A stress run must use less CPU time (user + system) than this: AtCoder's usual time limit. CPU time, not
wall time, because the wall time of a run on a shared machine depends on what else runs there."""


@dataclass(frozen=True)
class Run:
    """One run of a program: exit status, the two streams, its wall time and its CPU time (user + system), in seconds."""

    returncode: int
    stdout: str
    stderr: str
    seconds: float
    cpu_seconds: float


def run_program(program: Path, stdin: str, env_dir: Path, hash_seed: int = 0) -> Run:
    """Run ``program`` with ``stdin`` under this interpreter, ``env_dir`` on PYTHONPATH; 60 s at most."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin"), "PYTHONPATH": str(env_dir), "PYTHONHASHSEED": str(hash_seed)}
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    done = subprocess.run(
        [sys.executable, str(program)], input=stdin, capture_output=True, text=True, env=env, timeout=60, check=False
    )
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime  # the one child just waited for
    return Run(done.returncode, done.stdout, done.stderr, wall, cpu)


def clean_output(program: Path, stdin: str, env_dir: Path, what: str, *, twice: bool = True) -> Run:
    """The run of ``program`` on ``stdin``; exits the script unless it is clean (and, if ``twice``, the same
    under hash seeds 0 and 1)."""
    first = run_program(program, stdin, env_dir, 0)
    if first.returncode != 0 or first.stderr:
        sys.exit(f"{program.parent.name} on {what}: exit {first.returncode}, stderr {first.stderr[-500:]!r}")
    if twice and run_program(program, stdin, env_dir, 1).stdout != first.stdout:
        sys.exit(f"{program.parent.name} on {what}: output differs between hash seeds 0 and 1")
    return first


def problem_dirs() -> list[Path]:
    """The problem folders of the pool, by name."""
    return sorted(d for d in POOL.iterdir() if (d / "main.py").is_file())


def write_outputs(env_dir: Path) -> None:
    """Run every program on each of its ``tests/*.in`` and write the matching ``.out`` files."""
    outputs: dict[Path, str] = {}
    for d in problem_dirs():
        for test in sorted((d / "tests").glob("*.in")):
            outputs[test.with_suffix(".out")] = clean_output(d / "main.py", test.read_text(), env_dir, test.name).stdout
    changed = [path for path, text in outputs.items() if not path.is_file() or path.read_text() != text]
    for path, text in outputs.items():
        path.write_text(text)
    print(f"wrote {len(outputs)} outputs of {len(problem_dirs())} problems ({len(changed)} changed)")


# ---- random inputs: gen(rng, n) is an input of size about n; values stay small when n <= 10 ----


def _cap(n: int, large: int, small: int = 10) -> int:
    return small if n <= 10 else large


def _line(values: list[int]) -> str:
    return " ".join(map(str, values)) + "\n"


def _rows(rows: list[tuple[int, ...]]) -> str:
    return "".join(_line(list(r)) for r in rows)


def _grid(rng: random.Random, n: int) -> str:
    h, w = (rng.randint(1, 5), rng.randint(1, 5)) if n <= 10 else (max(1, int(n**0.5)), max(1, int(n**0.5)))
    wall = 0.25 if n <= 10 else 0.1
    lines = ["".join("#" if rng.random() < wall else "." for _ in range(w)) for _ in range(h)]
    return f"{h} {w}\n" + "\n".join(lines) + "\n"


def gen_kth_smallest_insert(rng: random.Random, n: int) -> str:
    v = _cap(n, 10**9)
    queries = [(t, rng.randint(1, v) if t == 1 else rng.randint(1, 2 * n)) for t in rng.choices((1, 2), k=n)]
    return f"{n} {n}\n" + _line([rng.randint(1, v) for _ in range(n)]) + _rows(queries)


def gen_values(rng: random.Random, n: int, second: int | None = None, low: int = 1) -> str:
    """``N`` (or ``N second``), then N values in low..cap on one line."""
    head = f"{n}" if second is None else f"{n} {second}"
    return head + "\n" + _line([rng.randint(low, _cap(n, 10**9)) for _ in range(n)])


def gen_interval_union(rng: random.Random, n: int) -> str:
    v = _cap(n, 10**9, 12)
    return f"{n}\n" + _rows([(rng.randint(0, v), rng.randint(0, v)) for _ in range(n)])


def gen_mex_updates(rng: random.Random, n: int) -> str:
    a = [rng.randint(0, n + 1) for _ in range(n)]
    return f"{n} {n}\n" + _line(a) + _rows([(rng.randint(1, n + 1), rng.randint(0, n + 1)) for _ in range(n)])


def gen_seat_assignment(rng: random.Random, n: int) -> str:
    q = rng.randint(1, 2 * n)
    return f"{n} {q}\n" + "".join(f"{rng.randint(1, n + 1)}\n" for _ in range(q))


def gen_scoreboard_rank(rng: random.Random, n: int) -> str:
    v = _cap(n, 10**9)
    return f"{n} {n}\n" + _rows([(rng.randint(1, n + 1), rng.randint(0, v)) for _ in range(n)])


def gen_frequent_value(rng: random.Random, n: int) -> str:
    k = max(2, n // 2)
    return f"{n}\n" + _rows([(rng.randint(1, 2), rng.randint(1, k)) for _ in range(n)])


def gen_range_count_remove(rng: random.Random, n: int) -> str:
    v = _cap(n, 10**9)
    a = [rng.randint(1, v) for _ in range(n)]
    return f"{n} {n}\n" + _line(a) + _rows([(rng.randint(1, v), rng.randint(1, v)) for _ in range(n)])


def gen_longest_gap(rng: random.Random, n: int) -> str:
    length = rng.randint(2, _cap(n, 10**9, 12))
    return f"{n} {length}\n" + _line([rng.randint(1, length + 1) for _ in range(n)])


def gen_np_prefix_sums(rng: random.Random, n: int) -> str:
    v = _cap(n, 10**9)
    a = [rng.randint(-v, v) for _ in range(n)]
    return f"{n} {n}\n" + _line(a) + _rows([(rng.randint(1, n + 1), rng.randint(1, n + 1)) for _ in range(n)])


def gen_np_knapsack(rng: random.Random, n: int) -> str:
    count, cap = (rng.randint(1, 8), rng.randint(1, 15)) if n <= 10 else (100, 10**5)
    items = [(rng.randint(1, cap), rng.randint(1, 10**9)) for _ in range(count)]
    return f"{count} {cap}\n" + _rows(items)


def gen_np_count_at_least(rng: random.Random, n: int) -> str:
    v = _cap(n, 10**9)
    a = [rng.randint(0, v) for _ in range(n)]
    return f"{n} {n}\n" + _line(a) + "".join(f"{rng.randint(0, v + 1)}\n" for _ in range(n))


def gen_np_imos_overlap(rng: random.Random, n: int) -> str:
    v = _cap(n, 10**6)
    return f"{n}\n" + _rows([(rng.randint(0, v), rng.randint(0, v)) for _ in range(n)])


def gen_acl_dsu_components(rng: random.Random, n: int) -> str:
    return f"{n} {n}\n" + _rows([(rng.randint(1, n + 1), rng.randint(1, n + 1)) for _ in range(n)])


def gen_acl_queries(rng: random.Random, n: int) -> str:
    """``N Q``, A, then Q lines ``t a b`` (t = 0: an index and a value; t = 1: a range) for the two ACL programs."""
    v = _cap(n, 10**9)
    queries = [
        (0, rng.randint(0, n), rng.randint(0, v))
        if rng.random() < 0.5
        else (1, rng.randint(0, n), rng.randint(0, n + 1))
        for _ in range(n)
    ]
    return f"{n} {n}\n" + _line([rng.randint(0, v) for _ in range(n)]) + _rows(queries)


def gen_nx_dijkstra(rng: random.Random, n: int) -> str:
    m = rng.randint(0, 2 * n)
    v = _cap(n, 10**9)
    return f"{n} {m}\n" + _rows([(rng.randint(1, n), rng.randint(1, n), rng.randint(0, v)) for _ in range(m)])


def gen_mi_uniform_substrings(rng: random.Random, n: int) -> str:
    return f"{n}\n" + "".join(rng.choices("ab" if n <= 10 else "abc", k=n)) + "\n"


def gen_bitarray_prime_queries(rng: random.Random, n: int) -> str:
    v = _cap(n, 10**6, 100)
    return f"{n}\n" + "".join(f"{rng.randint(1, v)}\n" for _ in range(n))


# ---- brute force: each reads an input and returns the answer's tokens, by the statement's definition ----


def _ints(text: str) -> list[int]:
    return [int(tok) for tok in text.split()]


def brute_kth_smallest_insert(text: str) -> list[str]:
    nums = _ints(text)
    n = nums[0]
    items, out = nums[2 : 2 + n], []
    for t, x in zip(nums[2 + n :: 2], nums[3 + n :: 2]):
        if t == 1:
            items.append(x)
        else:
            out.append(sorted(items)[x - 1] if x <= len(items) else -1)
    return [str(v) for v in out]


def brute_nearest_previous_distance(text: str) -> list[str]:
    a = _ints(text)[1:]
    return [str(sum(min(abs(a[i] - a[j]) for j in range(i)) for i in range(1, len(a))))]


def brute_window_median(text: str) -> list[str]:
    nums = _ints(text)
    a = nums[2:]
    k = max(1, min(nums[1], len(a)))
    return [str(sorted(a[i : i + k])[(k + 1) // 2 - 1]) for i in range(len(a) - k + 1)]


def brute_interval_union(text: str) -> list[str]:
    nums, painted, out = _ints(text)[1:], set(), []
    for lo, hi in zip(nums[::2], nums[1::2]):
        painted.update(range(min(lo, hi), max(lo, hi)))
        out.append(str(len(painted)))
    return out


def brute_mex_updates(text: str) -> list[str]:
    nums = _ints(text)
    n = nums[0]
    a, out = nums[2 : 2 + n], []
    for i, x in zip(nums[2 + n :: 2], nums[3 + n :: 2]):
        if i <= n:
            a[i - 1] = x
        out.append(str(min(set(range(n + 2)) - set(a))))
    return out


def brute_close_pairs(text: str) -> list[str]:
    nums = _ints(text)
    k, a = nums[1], nums[2:]
    return [str(sum(abs(a[i] - a[j]) <= k for i in range(len(a)) for j in range(i + 1, len(a))))]


def brute_seat_assignment(text: str) -> list[str]:
    nums = _ints(text)
    taken, out = [False] * (nums[0] + 1), []
    for x in nums[2:]:
        seat = next((s for s in range(x, nums[0] + 1) if not taken[s]), -1)
        if seat > 0:
            taken[seat] = True
        out.append(str(seat))
    return out


def brute_scoreboard_rank(text: str) -> list[str]:
    nums = _ints(text)
    n = nums[0]
    score, out = [0] * (n + 1), []
    for p, s in zip(nums[2::2], nums[3::2]):
        if 1 <= p <= n:
            score[p] += s
            out.append(str(1 + sum(score[o] > score[p] for o in range(1, n + 1))))
        else:
            out.append("-1")
    return out


def brute_frequent_value(text: str) -> list[str]:
    nums, bag, out = _ints(text)[1:], Counter[int](), []
    for t, x in zip(nums[::2], nums[1::2]):
        if t == 1:
            bag[x] += 1
        elif bag[x] > 0:
            bag[x] -= 1
        present = [(c, v) for v, c in bag.items() if c > 0]
        out.append(str(min(present, key=lambda cv: (-cv[0], cv[1]))[1]) if present else "-1")
    return out


def brute_range_count_remove(text: str) -> list[str]:
    nums = _ints(text)
    n = nums[0]
    items, out = nums[2 : 2 + n], []
    for lo, hi in zip(nums[2 + n :: 2], nums[3 + n :: 2]):
        lo, hi = min(lo, hi), max(lo, hi)
        out.append(str(sum(lo <= v <= hi for v in items)))
        items = [v for v in items if not lo <= v <= hi]
    return out


def brute_longest_gap(text: str) -> list[str]:
    nums = _ints(text)
    length, lamps, out = nums[1], {0, nums[1]}, []
    for x in nums[2:]:
        if 0 < x < length:
            lamps.add(x)
        ordered = sorted(lamps)
        out.append(str(max(b - a for a, b in itertools.pairwise(ordered))))
    return out


def brute_np_prefix_sums(text: str) -> list[str]:
    nums = _ints(text)
    n = nums[0]
    a = nums[2 : 2 + n]
    out = []
    for lo, hi in zip(nums[2 + n :: 2], nums[3 + n :: 2]):
        lo, hi = sorted((min(max(lo, 1), n), min(max(hi, 1), n)))
        out.append(str(sum(a[lo - 1 : hi])))
    return out


def _grid_cells(text: str) -> tuple[int, int, list[str]]:
    lines = text.split()
    return int(lines[0]), int(lines[1]), lines[2:]


def brute_np_grid_paths(text: str) -> list[str]:
    h, w, g = _grid_cells(text)

    @cache
    def paths(i: int, j: int) -> int:  # paths from (i, j) to the bottom-right cell
        if i >= h or j >= w or g[i][j] == "#":
            return 0
        return 1 if (i, j) == (h - 1, w - 1) else paths(i + 1, j) + paths(i, j + 1)

    return [str(paths(0, 0) % 998244353)]


def brute_np_largest_square(text: str) -> list[str]:
    h, w, g = _grid_cells(text)
    sides = [
        s
        for s in range(1, min(h, w) + 1)
        for i in range(h - s + 1)
        for j in range(w - s + 1)
        if all(g[i + di][j + dj] == "." for di in range(s) for dj in range(s))
    ]
    return [str(max(sides, default=0))]


def brute_np_knapsack(text: str) -> list[str]:
    nums = _ints(text)
    n, cap = nums[0], nums[1]
    items = list(zip(nums[2::2], nums[3::2]))
    best = 0
    for mask in range(1 << n):
        chosen = [items[i] for i in range(n) if mask >> i & 1]
        if sum(w for w, _ in chosen) <= cap:
            best = max(best, sum(v for _, v in chosen))
    return [str(best)]


def brute_np_count_at_least(text: str) -> list[str]:
    nums = _ints(text)
    a = nums[2 : 2 + nums[0]]
    return [str(sum(v >= x for v in a)) for x in nums[2 + nums[0] :]]


def brute_np_imos_overlap(text: str) -> list[str]:
    nums = _ints(text)[1:]
    stays = [(min(s, t), max(s, t)) for s, t in zip(nums[::2], nums[1::2])]
    end = max(max(t for _, t in stays), 0)
    return [str(max(sum(s <= time < t for s, t in stays) for time in range(end + 1)))]


def brute_np_grid_bfs(text: str) -> list[str]:
    h, w, g = _grid_cells(text)
    far = h * w
    dist = [[0 if (i, j) == (0, 0) and g[0][0] == "." else far for j in range(w)] for i in range(h)]
    for _ in range(h * w):  # relax every cell from its neighbours until nothing can change
        for i in range(h):
            for j in range(w):
                if g[i][j] == ".":
                    around = [
                        dist[a][b] + 1
                        for a, b in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1))
                        if 0 <= a < h and 0 <= b < w
                    ]
                    dist[i][j] = min([dist[i][j], *around])
    return [str(dist[h - 1][w - 1] if dist[h - 1][w - 1] < far else -1)]


def brute_acl_dsu_components(text: str) -> list[str]:
    nums = _ints(text)
    n, edges, out = nums[0], set(), []
    for u, v in zip(nums[2::2], nums[3::2]):
        if 1 <= u <= n and 1 <= v <= n:
            edges.add((u, v))
        label = list(range(n + 1))
        for _ in range(n):  # spread the smallest label along every edge
            for a, b in edges:
                label[a] = label[b] = min(label[a], label[b])
        out.append(str(len(set(label[1:]))))
    return out


def _acl_brute(text: str, combine: Callable[[list[int]], int], add: bool) -> list[str]:
    nums = _ints(text)
    n = nums[0]
    a, out = nums[2 : 2 + n], []
    for t, x, y in zip(nums[2 + n :: 3], nums[3 + n :: 3], nums[4 + n :: 3]):
        if t == 0 and x < n:
            a[x] = a[x] + y if add else y
        elif t == 1:
            out.append(str(combine(a[x:y])))
    return out


def brute_acl_fenwick_range_sum(text: str) -> list[str]:
    return _acl_brute(text, sum, add=True)


def brute_acl_segtree_range_min(text: str) -> list[str]:
    return _acl_brute(text, lambda part: min(part, default=2147483647), add=False)


def brute_nx_dijkstra(text: str) -> list[str]:
    nums = _ints(text)
    n, m = nums[0], nums[1]
    roads = [tuple(nums[2 + 3 * i : 5 + 3 * i]) for i in range(m)]
    far = 10**30
    dist = [far] * (n + 1)
    dist[1] = 0
    for _ in range(n):  # Bellman-Ford over both directions of every road
        for u, v, c in roads:
            if 1 <= u <= n and 1 <= v <= n:
                dist[v] = min(dist[v], dist[u] + c)
                dist[u] = min(dist[u], dist[v] + c)
    return [str(d if d < far else -1) for d in dist[1:]]


def brute_mi_uniform_substrings(text: str) -> list[str]:
    s = text.split()[1]
    return [str(sum(len(set(s[i : j + 1])) == 1 for i in range(len(s)) for j in range(i, len(s))))]


def brute_bitarray_prime_queries(text: str) -> list[str]:
    return ["Yes" if x > 1 and all(x % d for d in range(2, int(x**0.5) + 1)) else "No" for x in _ints(text)[1:]]


@dataclass(frozen=True)
class Harness:
    """How to test one problem: a random input of size about n, a brute force, the stress size."""

    gen: Callable[[random.Random, int], str]
    brute: Callable[[str], list[str]]
    stress_n: int = 100_000


HARNESS: dict[str, Harness] = {
    "kth_smallest_insert": Harness(gen_kth_smallest_insert, brute_kth_smallest_insert),
    "nearest_previous_distance": Harness(lambda r, n: gen_values(r, n, low=0), brute_nearest_previous_distance),
    "window_median": Harness(lambda r, n: gen_values(r, n, r.randint(1, n + 1)), brute_window_median),
    "interval_union": Harness(gen_interval_union, brute_interval_union),
    "mex_updates": Harness(gen_mex_updates, brute_mex_updates),
    "close_pairs": Harness(lambda r, n: gen_values(r, n, r.randint(0, _cap(n, 10**6, 4))), brute_close_pairs),
    "seat_assignment": Harness(gen_seat_assignment, brute_seat_assignment),
    "scoreboard_rank": Harness(gen_scoreboard_rank, brute_scoreboard_rank),
    "frequent_value": Harness(gen_frequent_value, brute_frequent_value),
    "range_count_remove": Harness(gen_range_count_remove, brute_range_count_remove),
    "longest_gap": Harness(gen_longest_gap, brute_longest_gap),
    "np_prefix_sums": Harness(gen_np_prefix_sums, brute_np_prefix_sums),
    "np_grid_paths": Harness(_grid, brute_np_grid_paths, 90_000),
    "np_largest_square": Harness(_grid, brute_np_largest_square, 90_000),
    "np_knapsack": Harness(gen_np_knapsack, brute_np_knapsack),
    "np_count_at_least": Harness(gen_np_count_at_least, brute_np_count_at_least),
    "np_imos_overlap": Harness(gen_np_imos_overlap, brute_np_imos_overlap),
    "np_grid_bfs": Harness(_grid, brute_np_grid_bfs, 90_000),
    "acl_dsu_components": Harness(gen_acl_dsu_components, brute_acl_dsu_components),
    "acl_fenwick_range_sum": Harness(gen_acl_queries, brute_acl_fenwick_range_sum),
    "acl_segtree_range_min": Harness(gen_acl_queries, brute_acl_segtree_range_min),
    "nx_dijkstra": Harness(gen_nx_dijkstra, brute_nx_dijkstra, 20_000),
    "mi_uniform_substrings": Harness(gen_mi_uniform_substrings, brute_mi_uniform_substrings),
    "bitarray_prime_queries": Harness(gen_bitarray_prime_queries, brute_bitarray_prime_queries),
}
"""Every problem of the pool, by folder name."""


def check(env_dir: Path, rounds: int) -> int:
    """Compare every program with its brute force on ``rounds`` random inputs (sizes 1..8); the number of mismatches."""
    bad = 0
    for d in problem_dirs():
        harness, rng = HARNESS[d.name], random.Random(f"check {d.name}")
        for r in range(rounds):
            text = harness.gen(rng, rng.randint(1, 8))
            got = clean_output(d / "main.py", text, env_dir, f"check input {r}", twice=False).stdout.split()
            if got != harness.brute(text):
                bad += 1
                print(f"MISMATCH {d.name} on\n{text}program: {got}\nbrute:   {harness.brute(text)}")
        print(f"{d.name:28} {rounds} random inputs checked")
    return bad


def stress(env_dir: Path) -> int:
    """Run every program once on its seeded large input; the number of runs that fail or use 2 CPU seconds or more."""
    bad = 0
    print(f"{'problem':28} {'size':>7} {'bytes':>9} {'cpu s':>6} {'wall s':>6}")
    for d in problem_dirs():
        harness = HARNESS[d.name]
        text = harness.gen(random.Random(f"stress {d.name}"), harness.stress_n)
        run = run_program(d / "main.py", text, env_dir)
        ok = run.returncode == 0 and not run.stderr and run.cpu_seconds < STRESS_LIMIT_S
        bad += not ok
        note = "" if ok else f"  FAILED: exit {run.returncode}, stderr {run.stderr[-300:]!r}"
        print(f"{d.name:28} {harness.stress_n:>7} {len(text):>9} {run.cpu_seconds:>6.2f} {run.seconds:>6.2f}{note}")
    return bad


def install(env_dir: Path) -> None:
    """Install the preset's pinned packages into ``env_dir`` with this interpreter's pip."""
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--target", str(env_dir), *PACKAGES], check=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--env", type=Path, required=True, help="folder holding the atcoder preset's packages")
    ap.add_argument("--install", action="store_true", help="first pip-install the preset's pins into --env")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="compare with brute force on random small inputs")
    mode.add_argument("--stress", action="store_true", help="time every program on a large random input")
    ap.add_argument("--rounds", type=int, default=20, help="random inputs per problem for --check")
    args = ap.parse_args()
    missing = sorted({d.name for d in problem_dirs()} ^ set(HARNESS))
    if missing:
        sys.exit(f"problems without a harness, or harnesses without a problem: {missing}")
    if args.install:
        install(args.env)
    if args.check:
        sys.exit(1 if check(args.env, args.rounds) else 0)
    if args.stress:
        sys.exit(1 if stress(args.env) else 0)
    write_outputs(args.env)


if __name__ == "__main__":
    main()
