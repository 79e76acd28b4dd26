"""Langton's ant on a wrapping grid.

Input: width, height and a number of steps, then the ant's start "x y" and
heading (N, E, S or W). All cells start white. At a white cell the ant turns
right, at a black cell left; it flips the cell's colour and moves forward
one cell (wrapping at the edges). Output: the ant's final position and
heading, the number of black cells, and the grid ('#' black, '.' white).
"""
import sys

HEADINGS = "NESW"
DELTAS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def walk(width, height, steps, x, y, heading):
    black = [[False] * width for _ in range(height)]
    for step in range(steps):
        turn = -1 if black[y][x] else 1
        heading = HEADINGS[(HEADINGS.index(heading) + turn) % 4]
        black[y][x] = not black[y][x]
        dx, dy = DELTAS[heading]
        x, y = (x + dx) % width, (y + dy) % height
    return black, x, y, heading


def main():
    tokens = sys.stdin.read().split()
    width, height, steps, x, y = map(int, tokens[:5])
    heading = tokens[5]
    if heading not in DELTAS:
        raise SystemExit(f"heading must be one of N, E, S, W, not {heading!r}")
    black, x, y, heading = walk(width, height, steps, x, y, heading)
    print("ant", x, y, heading)
    print("black", sum(row.count(True) for row in black))
    for row in black:
        print("".join("#" if cell else "." for cell in row))


if __name__ == "__main__":
    main()
