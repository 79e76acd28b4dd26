"""Area and lattice-point counts of a simple lattice polygon (shoelace + Pick).

Input: n, then the n vertices "x y" of a simple polygon in order, one per
line. Output: the orientation ("counter-clockwise" or "clockwise"), the
area, the number of lattice points on the boundary and the number strictly
inside.
"""
from math import gcd


def measure(vertices):
    """Return (twice the signed area, lattice points on the boundary)."""
    n = len(vertices)
    twice_area = 0
    boundary = 0
    for i in range(n):
        x1, y1 = vertices[i]
        x2, y2 = vertices[(i + 1) % n]
        if (x1, y1) == (x2, y2):
            raise SystemExit(f"vertex {i + 1} repeats: ({x1}, {y1})")
        twice_area += x1 * y2 - x2 * y1
        # An edge from (x1, y1) to (x2, y2) passes gcd(|dx|, |dy|) lattice steps.
        boundary += gcd(abs(x2 - x1), abs(y2 - y1))
    return twice_area, boundary


def format_half(twice):
    """twice / 2 as text: an integer or a number ending in .5."""
    return str(twice // 2) if twice % 2 == 0 else f"{twice // 2}.5"


def main():
    n = int(input())
    vertices = [tuple(map(int, input().split())) for _ in range(n)]
    if n < 3:
        raise SystemExit("a polygon needs at least 3 vertices")
    twice_area, boundary = measure(vertices)
    print("counter-clockwise" if twice_area > 0 else "clockwise")
    twice_area = abs(twice_area)
    # Pick's theorem: A = I + B/2 - 1, so 2I = 2A - B + 2.
    interior = (twice_area - boundary + 2) // 2
    print("area", format_half(twice_area))
    print("boundary", boundary)
    print("interior", interior)


if __name__ == "__main__":
    main()
