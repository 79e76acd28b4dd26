"""Grid paths. An H x W grid has empty cells '.' and walls '#'. Count the paths from the top-left cell to the bottom-right cell that move one cell right or down at a time and visit only empty cells, modulo 998244353 (0 if either end is a wall). Input: `H W`, then H lines of W characters each. Constraints: 1 <= H, W <= 1000."""
import sys

import numpy as np

input = sys.stdin.readline
MOD = 998244353


def main():
    h, w = map(int, input().split())
    free = np.array([list(input().strip()[:w].ljust(w, "#")) for _ in range(h)]) == "."
    ways = np.zeros(w, dtype=np.int64)
    ways[0] = 1
    for i in range(h):
        ways = np.where(free[i], ways, 0)  # paths arriving from above, walls cleared
        row = ways.tolist()
        for j in range(1, w):
            if row[j - 1] and free[i, j]:
                row[j] = (row[j] + row[j - 1]) % MOD
        ways = np.array(row, dtype=np.int64)
    print(int(ways[-1]))


main()
