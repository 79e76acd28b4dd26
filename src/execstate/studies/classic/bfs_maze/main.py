"""Breadth-first search through a grid maze.

Input: rows and columns, then the grid: '#' is a wall, '.' open floor, 'S' the
start and 'T' the target. Moves go up, down, left and right. Output: the
length of a shortest path from S to T (-1 if T is unreachable), the number
of cells reachable from S, and the largest distance from S to any of them.
"""
import sys
from collections import deque

MOVES = ((-1, 0), (1, 0), (0, -1), (0, 1))


def find(grid, mark):
    for r, row in enumerate(grid):
        c = row.find(mark)
        if c >= 0:
            return r, c
    raise SystemExit(f"no {mark!r} in the maze")


def explore(grid, start):
    """Distances from ``start`` to every reachable open cell."""
    rows, cols = len(grid), len(grid[0])
    dist = {start: 0}
    queue = deque([start])
    reached = 0
    farthest = 0
    while queue:
        r, c = queue.popleft()
        reached += 1
        farthest = dist[(r, c)]
        for dr, dc in MOVES:
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols and grid[nr][nc] != "#" and (nr, nc) not in dist:
                dist[(nr, nc)] = farthest + 1
                queue.append((nr, nc))
    return dist, reached, farthest


def main():
    lines = sys.stdin.read().split()
    rows, cols = int(lines[0]), int(lines[1])
    grid = lines[2:2 + rows]
    if len(grid) != rows or any(len(row) != cols for row in grid):
        raise SystemExit(f"expected {rows} rows of {cols} cells")
    dist, reached, farthest = explore(grid, find(grid, "S"))
    print(dist.get(find(grid, "T"), -1))
    print(reached, farthest)


if __name__ == "__main__":
    main()
