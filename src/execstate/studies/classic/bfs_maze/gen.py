"""Input generator for classic/bfs_maze: `python gen.py short|long` prints the input."""
import sys


def lcg(seed):
    """Deterministic pseudo-random stream (same on every Python version)."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state >> 8


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


def main():
    if sys.argv[1] == "short":
        grid = ["S.#", ".#.", "..T"]
    else:
        grid = carve(21, 29, lcg(5150))
    print(len(grid), len(grid[0]))
    print("\n".join(grid))


if __name__ == "__main__":
    main()
