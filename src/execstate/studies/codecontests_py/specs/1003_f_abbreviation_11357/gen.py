"""Input generator that `execstate construct` synthesized from the sample inputs of problem 1003_f_abbreviation_11357.

Inferred shape: n:int[1..size] / str[abc..z]^1..500*n
Run: python gen.py SEED SIZE   (one input on stdout; the same SEED and SIZE always print the same bytes)
"""

import random
import sys

rng = random.Random(int(sys.argv[1]))
size = int(sys.argv[2])
out = []


def pick(lo, hi):
    """A random integer in lo..hi; lo when the range is empty."""
    return rng.randint(lo, hi) if lo < hi else lo


def word(alphabet, length):
    """A random string of `length` characters from `alphabet`."""
    return "".join(rng.choice(alphabet) for _ in range(length))


n = max(1, size)
out.append(f"{n}")
count = n
row = [word('abcdefghijklmnopqrstuvwxyz', pick(1, 500)) for _ in range(count)]
out.append(" ".join(map(str, row)))
sys.stdout.write("\n".join(out) + "\n")
