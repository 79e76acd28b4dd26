"""Audit of pilot/sandpile: conservation of grains and order independence.

On every run (short, long and one audit input) the audit checks that the
initial total equals the printed final total plus the printed lost grains,
that every final cell holds at most three grains, and that an independent
simulation in another order (row-major sweeps, toppling every full cell at
once) reaches the same final grid and the same number of topplings. The
placebo is checked on the source text.
"""
import json
import sys

DATA = json.load(sys.stdin)


def check(condition, message):
    if not condition:
        sys.exit(f"audit failed: {message}")


def sweep(grid):
    rows, cols = len(grid), len(grid[0])
    topples = lost = 0
    while any(v >= 4 for row in grid for v in row):
        for r in range(rows):
            for c in range(cols):
                times = grid[r][c] // 4
                if not times:
                    continue
                grid[r][c] -= 4 * times
                topples += times
                for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    if 0 <= nr < rows and 0 <= nc < cols:
                        grid[nr][nc] += times
                    else:
                        lost += times
    return topples, lost


for run in DATA["runs"]:
    tokens = list(map(int, run["input"].split()))
    rows, cols = tokens[0], tokens[1]
    grid = [tokens[2 + r * cols:2 + (r + 1) * cols] for r in range(rows)]
    lines = run["output"].splitlines()
    final = [list(map(int, line.split())) for line in lines[:rows]]
    topples, lost = int(lines[rows].split()[1]), int(lines[rows + 1].split()[1])
    name = run["name"]
    check(sum(map(sum, grid)) == sum(map(sum, final)) + lost, f"run {name}: grains are not conserved")
    check(all(v <= 3 for row in final for v in row), f"run {name}: a final cell holds four or more")
    check(sweep(grid) == (topples, lost) and grid == final, f"run {name}: another order ends elsewhere")
check("pending.pop()" in DATA["source"] and "pending = [" in DATA["source"], "placebo: no list used as a stack")
