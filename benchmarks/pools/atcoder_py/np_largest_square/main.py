"""Largest empty square. An H x W grid has empty cells '.' and walls '#'. Print the side length of the largest square of empty cells (0 if every cell is a wall). Input: `H W`, then H lines of W characters each. Constraints: 1 <= H, W <= 1000."""
import sys

import numpy as np

input = sys.stdin.readline


def main():
    h, w = map(int, input().split())
    height = np.zeros(w, dtype=np.int64)  # empty cells ending at this row, per column
    best = 0
    for _ in range(h):
        line = np.frombuffer(input().strip()[:w].ljust(w, "#").encode(), dtype=np.uint8)
        height = np.where(line == ord("."), height + 1, 0)
        # The largest square ending at this row is at most one larger than the best so far.
        need = best + 1
        run = 0
        for col in height.tolist():
            run = run + 1 if col >= need else 0
            if run == need:
                best = need
                break
    print(best)


main()
