"""Input generator for classic/house_robber: `python gen.py short|long` prints the input."""
import sys


def lcg(seed):
    """Deterministic pseudo-random stream (same on every Python version)."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state >> 8


def main():
    if sys.argv[1] == "short":
        values = [6, 2, 9, 4, 7]
    else:
        stream = lcg(77)
        values = [next(stream) % 60 for _ in range(300)]
    print(len(values))
    print(" ".join(map(str, values)))


if __name__ == "__main__":
    main()
