"""Maze. An H x W grid has empty cells '.' and walls '#'. Moving one cell up, down, left or right at a time through empty cells, print the smallest number of moves from the top-left cell to the bottom-right cell, or -1 if it cannot be reached (or either is a wall). Input: `H W`, then H lines of W characters each. Constraints: 1 <= H, W <= 1000."""
import sys
from collections import deque

import numpy as np

input = sys.stdin.readline


def main():
    h, w = map(int, input().split())
    free = np.array([list(input().strip()[:w].ljust(w, "#")) for _ in range(h)]) == "."
    dist = np.full((h, w), -1, dtype=np.int64)
    queue = deque()
    if free[0, 0]:
        dist[0, 0] = 0
        queue.append((0, 0))
    while queue:
        i, j = queue.popleft()
        d = int(dist[i, j])
        for ni, nj in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)):
            if 0 <= ni < h and 0 <= nj < w and free[ni, nj] and dist[ni, nj] < 0:
                dist[ni, nj] = d + 1
                queue.append((ni, nj))
    print(int(dist[h - 1, w - 1]))


main()
