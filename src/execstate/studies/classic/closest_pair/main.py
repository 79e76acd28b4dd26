"""Closest pair of points with a sweep over points sorted by x.

Input: n, then n integer points "x y", one per line. Output: the smallest
squared distance between two of the points, the distance itself to 6
decimals, and the number of candidate pairs the sweep actually compared.
"""
from math import sqrt


def closest(points):
    pts = sorted(points)
    best = None
    left = 0
    compared = 0
    for i, (x, y) in enumerate(pts):
        # Points more than sqrt(best) to the left can never beat the current best.
        while best is not None and left < i and (x - pts[left][0]) ** 2 >= best:
            left += 1
        for j in range(left, i):
            px, py = pts[j]
            d = (x - px) ** 2 + (y - py) ** 2
            compared += 1
            if best is None or d < best:
                best = d
    return best, compared


def main():
    n = int(input())
    if n < 2:
        raise SystemExit("need at least two points")
    points = [tuple(map(int, input().split())) for _ in range(n)]
    best, compared = closest(points)
    print("squared", best)
    print(f"distance {sqrt(best):.6f}")
    print("compared", compared)


if __name__ == "__main__":
    main()
