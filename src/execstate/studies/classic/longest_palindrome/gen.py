"""Input generator for classic/longest_palindrome: `python gen.py short|long` prints the input."""
import sys


def lcg(seed):
    """Deterministic pseudo-random stream (same on every Python version)."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state >> 8


def main():
    if sys.argv[1] == "short":
        text = "abab"  # two longest palindromes tie
    else:
        stream = lcg(8128)
        text = "".join("abc"[next(stream) % 3] for _ in range(230))
        # Plant two long palindromes so the answer is not a short accident.
        text = text[:60] + "abcbbcacbba" + text[60:150] + "cabbacabbac" + text[150:]
    print(text)


if __name__ == "__main__":
    main()
