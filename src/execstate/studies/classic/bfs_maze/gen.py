"""Input generator for classic/bfs_maze: `python gen.py short|long` prints the input.

EXECSTATE_SEED, when set, draws a fresh input of the same shape (execstate build --fresh):
short: a 3 x 3 grid with S, T and two walls on random cells, T reachable from S; long: another
21 x 29 carved maze (S and T in opposite corners as published).

`python gen.py size N` prints an input of size N for the input ladder (execstate build --ladder,
docs/ladder.md), drawn from EXECSTATE_SEED (seed 0 when unset): size 0 is `S#T`, sizes 1 and 2 the corridors `ST` and `S.T`; size n >= 3 a
maze of about n - 1 cells (2r+1 rows, 2c+1 columns, r * c near n - 1).
"""
import math
import os
import random
import sys


def lcg(seed):
    """Deterministic pseudo-random stream (same on every Python version)."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state >> 8


def fresh_stream(which):
    """Endless 23-bit integers drawn from EXECSTATE_SEED and `which`; None when the variable is unset or empty."""
    text = os.environ.get("EXECSTATE_SEED", "").strip()
    if not text:
        return None
    seed = int(text)
    if not 0 <= seed < 2**56:
        raise SystemExit(f"EXECSTATE_SEED must be an integer in [0, 2**56), not {text}")
    rng = random.Random(2 * seed + (which == "long"))  # short and long draw different streams
    return iter(lambda: rng.getrandbits(23), None)


def carve(rows, cols, stream):
    """A perfect maze by depth-first carving, then a few extra openings for cycles."""
    grid = [["#"] * cols for _ in range(rows)]
    stack = [(1, 1)]
    grid[1][1] = "."
    while stack:
        r, c = stack[-1]
        options = [(dr, dc) for dr, dc in ((-2, 0), (2, 0), (0, -2), (0, 2))
                   if 0 < r + dr < rows - 1 and 0 < c + dc < cols - 1 and grid[r + dr][c + dc] == "#"]
        if not options:
            stack.pop()
            continue
        dr, dc = options[next(stream) % len(options)]
        grid[r + dr // 2][c + dc // 2] = "."
        grid[r + dr][c + dc] = "."
        stack.append((r + dr, c + dc))
    for _ in range(25):
        r, c = 1 + next(stream) % (rows - 2), 1 + next(stream) % (cols - 2)
        grid[r][c] = "."
    grid[1][1] = "S"
    grid[rows - 2][cols - 2] = "T"
    return ["".join(row) for row in grid]


SHORT = ["S.#", ".#.", "..T"]  # the published short maze


def short_maze(stream):
    """S, T and two walls on random cells of a 3 x 3 grid, T reachable from S.

    Two walls can only cut off one cell: a corner whose two neighbours are both walls.
    """
    while True:
        cells = sorted(((r, c) for r in range(3) for c in range(3)), key=lambda cell: next(stream))
        start, target, walls = cells[0], cells[1], cells[2:4]
        cut_off = [(r, c) for r, c in (start, target)
                   if all((nr, nc) in walls for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                          if 0 <= nr < 3 and 0 <= nc < 3)]
        if not cut_off:
            break
    grid = [["#" if (r, c) in walls else "." for c in range(3)] for r in range(3)]
    grid[start[0]][start[1]], grid[target[0]][target[1]] = "S", "T"
    return ["".join(row) for row in grid]


def size_stream():
    """The stream `gen.py size N` draws from: EXECSTATE_SEED's (as a fresh long input's), seed 0 when it is unset."""
    text = os.environ.get("EXECSTATE_SEED", "").strip() or "0"
    rng = random.Random(2 * int(text) + 1)
    return iter(lambda: rng.getrandbits(23), None)


def sized(n, stream):
    """Print the input of size n (n >= 1): a corridor of n + 1 cells for n <= 2, else a maze of about n - 1 cells
    (2r+1 rows, 2c+1 columns, r * c near n - 1)."""
    if n <= 0:  # the smallest input: T walled off from S
        print(1, 3)
        print("S#T")
        return
    if n <= 2:
        print(1, n + 1)
        print("S" + "." * (n - 1) + "T")
        return
    n -= 1
    r = max(1, math.isqrt(n))
    c = max(2, n // r)
    grid = carve(2 * r + 1, 2 * c + 1, stream)
    print(len(grid), len(grid[0]))
    print("\n".join(grid))


def main():
    if sys.argv[1] == "size":
        sized(int(sys.argv[2]), size_stream())
        return
    fresh = fresh_stream(sys.argv[1])
    if sys.argv[1] == "short":
        grid = SHORT
        while fresh is not None and grid == SHORT:  # a fresh input differs from the published one
            grid = short_maze(fresh)
    else:
        grid = carve(21, 29, fresh or lcg(5150))
    print(len(grid), len(grid[0]))
    print("\n".join(grid))


if __name__ == "__main__":
    main()
