"""Input generator for classic/polygon_lattice: `python gen.py short|long` prints the input."""
import sys
from functools import cmp_to_key
from math import gcd


def lcg(seed):
    """Deterministic pseudo-random stream (same on every Python version)."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state >> 8


def by_angle(a, b):
    """Exact counter-clockwise angle order starting from the positive x-axis."""
    half_a = a[1] < 0 or (a[1] == 0 and a[0] < 0)
    half_b = b[1] < 0 or (b[1] == 0 and b[0] < 0)
    if half_a != half_b:
        return 1 if half_a else -1
    return -1 if a[0] * b[1] - a[1] * b[0] > 0 else 1


def star_polygon(reach, stream):
    """Scale every primitive direction by a random factor: star-shaped, hence simple."""
    directions = [(dx, dy) for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1)
                  if gcd(dx, dy) == 1]
    directions.sort(key=cmp_to_key(by_angle))
    scales = [1 + next(stream) % 4 for _ in directions]
    return [(dx * s, dy * s) for (dx, dy), s in zip(directions, scales)]


def main():
    if sys.argv[1] == "short":
        vertices = [(0, 0), (4, 0), (4, 3), (1, 2)]
    else:
        vertices = star_polygon(9, lcg(2024))[::-1]  # clockwise, for variety
    print(len(vertices))
    for x, y in vertices:
        print(x, y)


if __name__ == "__main__":
    main()
