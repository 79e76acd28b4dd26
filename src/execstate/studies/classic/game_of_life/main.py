"""Conway's Game of Life on a torus.

Input: rows, columns and the number of generations, then the grid ('#' alive,
'.' dead). The grid wraps around at its edges. Output: the grid after the
last generation, then the population after each generation.
"""
import sys


def step(grid):
    """One generation; returns the new grid and the number of births and deaths."""
    rows, cols = len(grid), len(grid[0])
    nxt = [[False] * cols for _ in range(rows)]
    births = deaths = 0
    for r in range(rows):
        for c in range(cols):
            around = sum(grid[(r + dr) % rows][(c + dc) % cols]
                         for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
            if grid[r][c]:
                nxt[r][c] = around in (2, 3)
                deaths += not nxt[r][c]
            elif around == 3:
                nxt[r][c] = True
                births += 1
    return nxt, births, deaths


def main():
    header, *lines = sys.stdin.read().split("\n")
    rows, cols, generations = map(int, header.split())
    grid = [[ch == "#" for ch in line[:cols]] for line in lines[:rows]]
    history = []
    for _ in range(generations):
        grid, births, deaths = step(grid)
        history.append(f"{sum(map(sum, grid))} (+{births} -{deaths})")
    for row in grid:
        print("".join("#" if alive else "." for alive in row))
    print("population:", ", ".join(history))


if __name__ == "__main__":
    main()
