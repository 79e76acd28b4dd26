"""The abelian sandpile: topple every cell holding four or more grains.

Input: rows and columns, then the grid of grain counts. A cell with at least
four grains topples: it loses four and each of its up to four neighbours
gains one (grains pushed over the edge are lost). Output: the stable grid,
the total number of topplings and the number of grains lost over the edge.
"""
import sys


def stabilize(grid):
    rows, cols = len(grid), len(grid[0])
    pending = [(r, c) for r in range(rows) for c in range(cols) if grid[r][c] >= 4]
    topples = 0
    lost = 0
    while pending:
        # A queued cell only gains grains until it is popped, so it still holds >= 4.
        r, c = pending.pop()
        grid[r][c] -= 4
        topples += 1
        if grid[r][c] >= 4:
            pending.append((r, c))
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= nr < rows and 0 <= nc < cols:
                grid[nr][nc] += 1
                if grid[nr][nc] == 4:
                    pending.append((nr, nc))
            else:
                lost += 1
    return topples, lost


def main():
    tokens = sys.stdin.read().split()
    rows, cols = int(tokens[0]), int(tokens[1])
    values = [int(tok) for tok in tokens[2:2 + rows * cols]]
    grid = [values[r * cols:(r + 1) * cols] for r in range(rows)]
    topples, lost = stabilize(grid)
    for row in grid:
        print(" ".join(map(str, row)))
    print("topples", topples)
    print("lost", lost)


if __name__ == "__main__":
    main()
