"""Input generator for classic/sandpile: `python gen.py short|long` prints the input."""
import sys


def main():
    if sys.argv[1] == "short":
        grid = [[0, 4, 0], [3, 5, 0]]
    else:
        # A tall pile in the middle of an empty 7 x 7 table.
        grid = [[0] * 7 for _ in range(7)]
        grid[3][3] = 100
    print(len(grid), len(grid[0]))
    for row in grid:
        print(" ".join(map(str, row)))


if __name__ == "__main__":
    main()
