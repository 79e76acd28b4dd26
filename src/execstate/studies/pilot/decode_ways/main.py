"""Count the ways to decode digit strings where 1 -> A, ..., 26 -> Z.

Input: one digit string per line. Output, per line: the number of decodings
modulo 1_000_000_007 ("0" if the string cannot be decoded at all).
"""
import sys

MOD = 1_000_000_007


def count_decodings(digits):
    """Ways to split ``digits`` into codes 1..26, modulo MOD."""
    if not digits or digits[0] == "0":
        return 0
    prev, cur = 1, 1  # ways for the prefixes of length i-2 and i-1
    for i in range(1, len(digits)):
        ways = 0
        if digits[i] != "0":
            ways = cur
        pair = digits[i - 1:i + 1]
        if "10" <= pair <= "26":
            ways = (ways + prev) % MOD
        if ways == 0:
            return 0
        prev, cur = cur, ways
    return cur


def main():
    for line in sys.stdin.read().split():
        print(count_decodings(line))


if __name__ == "__main__":
    main()
