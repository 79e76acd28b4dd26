"""The input of pyperformance's bm_fannkuch for execstate: `gen.py SEED SIZE` prints one line.

SIZE: n, the length of the permutations flipped (the benchmark's own: 9); gen.py maps SIZE to n = SIZE.bit_length() + 2. The benchmark takes no seed: SEED is ignored, and the input is a function of SIZE only.
Written by execstate.studies.pyperformance.make_pool from recipes/fannkuch.toml.
"""

import sys


def main():
    seed, size = int(sys.argv[1]), int(sys.argv[2])
    del seed  # the benchmark takes no seed
    print(size.bit_length() + 2)


main()
