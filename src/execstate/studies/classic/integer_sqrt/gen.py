"""Input generator for classic/integer_sqrt: `python gen.py short|long` prints the input."""
import sys


def lcg(seed):
    """Deterministic pseudo-random stream (same on every Python version)."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state >> 8


def main():
    if sys.argv[1] == "short":
        numbers = [10, 49]
    else:
        stream = lcg(1414)
        numbers = []
        for i in range(24):
            root = next(stream) % 10**(1 + i // 5) + 1
            numbers.append(root * root + (next(stream) % 3 if i % 3 else 0))
    print(len(numbers))
    print("\n".join(map(str, numbers)))


if __name__ == "__main__":
    main()
