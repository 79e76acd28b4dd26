"""Input generator for classic/convex_hull: `python gen.py short|long` prints the input."""
import sys


def lcg(seed):
    """Deterministic pseudo-random stream (same on every Python version)."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state >> 8


def main():
    if sys.argv[1] == "short":
        points = [(0, 0), (4, 1), (2, 2), (1, 4)]
    else:
        stream = lcg(3141)
        points = [(next(stream) % 201, next(stream) % 201) for _ in range(150)]
    print(len(points))
    for x, y in points:
        print(x, y)


if __name__ == "__main__":
    main()
