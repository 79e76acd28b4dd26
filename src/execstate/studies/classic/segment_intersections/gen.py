"""Input generator for classic/segment_intersections: `python gen.py short|long` prints the input."""
import sys


def lcg(seed):
    """Deterministic pseudo-random stream (same on every Python version)."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state >> 8


def main():
    if sys.argv[1] == "short":
        segments = [(0, 0, 4, 4), (0, 4, 4, 0), (2, 2, 5, 0), (4, 4, 5, 5)]  # cross, T-junctions, collinear touch
    else:
        stream = lcg(777)
        segments = []
        for _ in range(35):
            x, y = next(stream) % 40, next(stream) % 40
            segments.append((x, y, x + next(stream) % 17 - 8, y + next(stream) % 17 - 8))
        segments += [(0, 0, 10, 10), (10, 10, 20, 20), (5, 5, 15, 15), (20, 20, 20, 30)]  # collinear cases
    print(len(segments))
    for segment in segments:
        print(*segment)


if __name__ == "__main__":
    main()
