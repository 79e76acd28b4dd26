"""Write this pool's tests: seeded sample inputs (``tests/N.in``) and, by running each program, their outputs.

Run from the repository root (needs g++)::

    python benchmarks/pools/contest_cpp/make_tests.py            # write every tests/ folder
    python benchmarks/pools/contest_cpp/make_tests.py --check    # rebuild in memory and compare with the files

Each problem has an input maker ``make(rng, n)`` of size ``n``; a problem gets one input per size of
``SIZES`` (``FEW`` problems: two inputs of nearly the same size, so construct must synthesize a long
one, as with a real archive's samples). Every ``.out`` comes from execution, never by hand: the program
built twice (``-O2`` and ``-O0 -fsanitize=address,undefined``) must exit 0 on the input with an empty
stderr and print the same bytes.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

POOL = Path(__file__).resolve().parent
SIZES = (3, 12, 40)
FEW = {"lcs_length": (5, 6), "collatz_steps": (2, 3), "run_length": (8, 9), "topo_order": (4, 5), "sieve_count": (2, 3)}
"""Problems whose samples make no short/long pair (sizes of their two inputs)."""


def ints(rng: random.Random, n: int, lo: int = -50, hi: int = 50) -> str:
    return " ".join(str(rng.randint(lo, hi)) for _ in range(n))


def word(rng: random.Random, n: int, letters: str = "abc") -> str:
    return "".join(rng.choice(letters) for _ in range(max(1, n)))


def grid(rng: random.Random, n: int) -> str:
    h = w = max(2, n // 3)
    rows = [[("#" if rng.random() < 0.25 else ".") for _ in range(w)] for _ in range(h)]
    rows[0][0] = rows[-1][-1] = "."
    return f"{h} {w}\n" + "\n".join("".join(r) for r in rows)


def edges(rng: random.Random, n: int, m: int, cost: bool = False) -> str:
    lines = []
    for _ in range(m):
        u, v = rng.randint(1, n), rng.randint(1, n)
        lines.append(f"{u} {v} {rng.randint(0, 9)}" if cost else f"{u} {v}")
    return "\n".join(lines)


def dag(rng: random.Random, n: int) -> str:
    m = n
    rules = []
    for _ in range(m):
        a, b = sorted(rng.sample(range(1, n + 1), 2)) if n > 1 else (1, 1)
        rules.append(f"{a} {b}")
    return f"{n} {m}\n" + "\n".join(rules)


def queries(rng: random.Random, n: int, q: int, kinds: int) -> str:
    return "\n".join(f"{rng.randrange(kinds)} {rng.randint(1, n)} {rng.randint(1, n)}" for _ in range(q))


MAKERS: dict[str, Callable[[random.Random, int], str]] = {
    "max_prefix_sum": lambda r, n: f"{n}\n{ints(r, n)}",
    "kadane_subarray": lambda r, n: f"{n}\n{ints(r, n)}",
    "next_greater": lambda r, n: f"{n}\n{ints(r, n, 0, 20)}",
    "two_pointer_window": lambda r, n: f"{n} {2 * n}\n{ints(r, n, 0, 9)}",
    "count_inversions": lambda r, n: f"{n}\n{ints(r, n, 0, 30)}",
    "dsu_components": lambda r, n: f"{n} {n}\n{edges(r, n, n)}",
    "grid_bfs": grid,
    "lis_length": lambda r, n: f"{n}\n{ints(r, n, 0, 40)}",
    "knapsack_01": lambda r, n: (
        f"{n} {3 * n}\n" + "\n".join(f"{r.randint(1, 3 * n)} {r.randint(1, 50)}" for _ in range(n))
    ),
    "coin_change_ways": lambda r, n: f"{n} {4 * n}\n" + ints(r, n, 1, 4 * n),
    "edit_distance": lambda r, n: f"{word(r, n)}\n{word(r, n + 1)}",
    "lcs_length": lambda r, n: f"{word(r, n)}\n{word(r, n)}",
    "sieve_count": lambda r, n: f"{n}\n{ints(r, n, 0, 200)}",
    "gcd_pairs_sum": lambda r, n: f"{n}\n" + " ".join(str(6 * r.randint(1, 40)) for _ in range(n)),
    "binary_search_queries": lambda r, n: f"{n} {n}\n{ints(r, n)}\n{ints(r, n)}",
    "dijkstra_roads": lambda r, n: f"{n} {2 * n}\n{edges(r, n, 2 * n, cost=True)}",
    "range_sum_updates": lambda r, n: f"{n} {n}\n{ints(r, n)}\n{queries(r, n, n, 2)}",
    "run_length": lambda r, n: word(r, n, "ab"),
    "palindrome_substrings": lambda r, n: word(r, n, "ab"),
    "bracket_depth": lambda r, n: word(r, n, "()"),
    "stairs_dp": lambda r, n: f"{max(n, 1)}\n{ints(r, max(n, 1), 1, 60)}",
    "collatz_steps": lambda r, n: f"{n}\n{ints(r, n, 1, 100)}",
    "popcount_sum": lambda r, n: f"{n}\n{ints(r, n, 0, 1000)}",
    "matrix_power_fib": lambda r, n: f"{n}\n{ints(r, n, 0, 10**12)}",
    "interval_cover": lambda r, n: f"{n}\n" + "\n".join(ints(r, 2, 1, 5 * n) for _ in range(n)),
    "topo_order": dag,
    "sliding_window_max": lambda r, n: f"{n} {max(1, n // 3)}\n{ints(r, n)}",
    "digit_sum_range": lambda r, n: f"{10 * n} 5 12",
    "anagram_groups": lambda r, n: f"{n}\n" + " ".join(word(r, 3, "abc") for _ in range(n)),
    "simulate_robot": lambda r, n: word(r, n, "LRUD"),
    "prefix_xor_queries": lambda r, n: (
        f"{n} {n}\n{ints(r, n, 0, 99)}\n" + "\n".join(f"{r.randint(1, n)} {r.randint(1, n)}" for _ in range(n))
    ),
}


def build(src: Path, out: Path, flags: list[str]) -> Path:
    subprocess.run(["g++", "-std=c++20", *flags, "-o", str(out), str(src)], check=True)
    return out


def output(binaries: list[Path], text: str, where: str) -> str:
    """The programs' common stdout on ``text``; ``SystemExit`` when a run fails or they disagree."""
    outs = set()
    for b in binaries:
        done = subprocess.run([str(b)], input=text.encode(), capture_output=True, timeout=60)
        if done.returncode != 0 or done.stderr:
            sys.exit(f"{where}: {b.name} exit {done.returncode}: {done.stderr.decode()[:500]}")
        outs.add(done.stdout.decode())
    if len(outs) != 1:
        sys.exit(f"{where}: the -O2 and the sanitized build disagree")
    return outs.pop()


def tests_of(name: str, binaries: list[Path]) -> dict[str, str]:
    rng = random.Random(f"contest_cpp/{name}")
    files: dict[str, str] = {}
    for i, n in enumerate(FEW.get(name, SIZES), 1):
        text = MAKERS[name](rng, n).rstrip("\n") + "\n"
        files[f"{i}.in"] = text
        files[f"{i}.out"] = output(binaries, text, f"{name}/tests/{i}.in")
    return files


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed files, write nothing")
    args = ap.parse_args()
    folders = sorted(p.parent.name for p in POOL.glob("*/main.cpp"))
    if set(folders) != set(MAKERS):
        sys.exit(f"problems without an input maker or without a program: {sorted(set(folders) ^ set(MAKERS))}")
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in folders:
            src = POOL / name / "main.cpp"
            fast = build(src, Path(tmp) / f"{name}-O2", ["-O2"])
            safe = build(src, Path(tmp) / f"{name}-san", ["-O0", "-fsanitize=address,undefined"])
            files = tests_of(name, [fast, safe])
            tests = POOL / name / "tests"
            if args.check:
                have = {p.name: p.read_text() for p in tests.iterdir()} if tests.is_dir() else {}
                bad += [name] if have != files else []
                continue
            tests.mkdir(exist_ok=True)
            for old in tests.iterdir():
                old.unlink()
            for fname, text in files.items():
                (tests / fname).write_text(text)
    if bad:
        sys.exit(f"tests differ from their inputs' makers: {', '.join(bad)}")
    print(f"{len(folders)} problems: {'checked' if args.check else 'written'}")


if __name__ == "__main__":
    main()
