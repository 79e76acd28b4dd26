"""Input generator that `execstate construct` synthesized from the sample inputs of problem 816_d_karen_and_test_5164.

Inferred shape: n:int[1..size] / int[1..1000000000]*n{distinct}
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
low, high = 1, 1000000000
row = rng.sample(range(low, max(high, low + count - 1) + 1), count)
out.append(" ".join(map(str, row)))
sys.stdout.write("\n".join(out) + "\n")
