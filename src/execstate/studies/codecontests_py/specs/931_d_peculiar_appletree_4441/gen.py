"""Input generator that `execstate construct` synthesized from the sample inputs of problem 931_d_peculiar_appletree_4441.

Inferred shape: n:int[3..size] / int[1..inf]*n-1{a[j]<=j+1}
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


n = max(3, size)
out.append(f"{n}")
count = n - 1
row = [pick(1, j + 1) for j in range(count)]
out.append(" ".join(map(str, row)))
sys.stdout.write("\n".join(out) + "\n")
