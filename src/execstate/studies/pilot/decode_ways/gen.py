"""Input generator for classic/decode_ways: `python gen.py short|long` prints the input."""
import sys


def lcg(seed):
    """Deterministic pseudo-random stream (same on every Python version)."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state >> 8


def digits(stream, length):
    """Random digits, mostly 1s and 2s; a 0 only ever follows a 1 or a 2."""
    out = []
    while len(out) < length:
        digit = "1112222345678900"[next(stream) % 16]
        if digit != "0" or (out and out[-1] in "12"):
            out.append(digit)
    return "".join(out)


def main():
    if sys.argv[1] == "short":
        lines = ["226", "1201", "30"]
    else:
        stream = lcg(99)
        lines = [digits(stream, 150), "1" * 40 + "30", digits(stream, 200), "2626" * 20]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
