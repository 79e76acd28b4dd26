"""Classify how pairs of line segments meet, using orientation tests.

Input: n, then n segments "x1 y1 x2 y2" with integer endpoints, one per
line. Every pair of segments is either disjoint, or they "cross" (a single
point inside both), "touch" (a single point that is an endpoint of at least
one), or "overlap" (collinear and sharing more than one point). Output: the
number of pairs of each kind, then for each segment the number of others it
meets.
"""


def orientation(p, q, r):
    """Sign of the turn p -> q -> r: 1 left, -1 right, 0 collinear."""
    value = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return (value > 0) - (value < 0)


def collinear_kind(s, t):
    """For segments on one line: compare their extents along it (tuple order follows the line)."""
    lo1, hi1 = sorted(s)
    lo2, hi2 = sorted(t)
    start, end = max(lo1, lo2), min(hi1, hi2)
    if start > end:
        return None
    if start == end:
        return "touch"
    return "overlap"


def classify(s, t):
    """'cross', 'touch', 'overlap', or None when the segments are disjoint."""
    a, b = s
    c, d = t
    o1, o2 = orientation(a, b, c), orientation(a, b, d)
    o3, o4 = orientation(c, d, a), orientation(c, d, b)
    if o1 == o2 == o3 == o4 == 0:
        return collinear_kind(s, t)
    if o1 * o2 < 0 and o3 * o4 < 0:
        return "cross"
    if o1 * o2 <= 0 and o3 * o4 <= 0:
        return "touch"  # an endpoint lies on the other segment
    return None


def main():
    n = int(input())
    segments = []
    for _ in range(n):
        x1, y1, x2, y2 = map(int, input().split())
        segments.append(((x1, y1), (x2, y2)))
    degree = [0] * n
    kinds = {"cross": 0, "touch": 0, "overlap": 0}
    for i in range(n):
        for j in range(i + 1, n):
            kind = classify(segments[i], segments[j])
            if kind:
                kinds[kind] += 1
                degree[i] += 1
                degree[j] += 1
    print(" ".join(f"{kind} {count}" for kind, count in kinds.items()))
    print(" ".join(map(str, degree)))


if __name__ == "__main__":
    main()
