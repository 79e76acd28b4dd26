"""Run-length encoding of a line of text.

Input: one line of letters. Output: the encoding, where each maximal run of a
letter becomes its length followed by the letter ("aaab" -> "3a1b"); then the
first longest run as "<letter> <length>"; then the encoded length over the
original length as a reduced fraction.
"""
import sys
from math import gcd


def encode(text):
    """Return the encoding and the first longest run as (letter, length)."""
    pieces = []
    current, run = "", 0
    best, best_run = "", 0
    for ch in text:
        if ch == current:
            run += 1
        else:
            if run:
                pieces.append(f"{run}{current}")
            current, run = ch, 1
        if run > best_run:
            best, best_run = current, run
    if run:
        pieces.append(f"{run}{current}")
    return "".join(pieces), best, best_run


def main():
    text = sys.stdin.read().strip()
    if not text:
        print("empty input")
        return
    encoded, letter, length = encode(text)
    print(encoded)
    print(letter, length)
    common = gcd(len(encoded), len(text))
    print(f"{len(encoded) // common}/{len(text) // common}")


if __name__ == "__main__":
    main()
