"""Convex hull of integer points by Andrew's monotone chain.

Input: n, then n integer points "x y", one per line. Output: the number of
hull vertices; the vertices in counter-clockwise order starting from the
smallest (x, y); twice the hull's area; and its perimeter to 4 decimals.
Points lying on a hull edge between two vertices are not vertices.
"""
from math import dist


def cross(o, a, b):
    """z-component of (a - o) x (b - o): positive for a left turn."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def half_hull(points):
    hull = []
    for p in points:
        while len(hull) >= 2 and cross(hull[-2], hull[-1], p) <= 0:
            hull.pop()  # the last point would make a right turn or is collinear
        hull.append(p)
    return hull


def convex_hull(points):
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts
    lower = half_hull(pts)
    upper = half_hull(pts[::-1])
    # Each half ends where the other starts; drop the duplicated endpoints.
    return lower[:-1] + upper[:-1]


def main():
    n = int(input())
    points = [tuple(map(int, input().split())) for _ in range(n)]
    hull = convex_hull(points)
    twice_area = sum(cross((0, 0), hull[i], hull[(i + 1) % len(hull)]) for i in range(len(hull)))
    perimeter = sum(dist(hull[i], hull[(i + 1) % len(hull)]) for i in range(len(hull)))
    print(len(hull))
    print(" ".join(f"({x},{y})" for x, y in hull))
    print("twice area", twice_area)
    print(f"perimeter {perimeter:.4f}")


if __name__ == "__main__":
    main()
