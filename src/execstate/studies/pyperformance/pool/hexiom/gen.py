"""The input of pyperformance's bm_hexiom for execstate: `gen.py SEED SIZE` prints one line.

SIZE: the board's level, one of the benchmark's LEVELS 2, 10, 20, 25, 30, 36 (the benchmark's own: 25; gen.py: SIZE 2, 4, 8, 16, 32 and up give 2, 20, 10, 25, 30, easiest first). The benchmark takes no seed: SEED is ignored, and the input is a function of SIZE only.
Written by execstate.studies.pyperformance.make_pool from recipes/hexiom.toml.
"""

import sys


def main():
    seed, size = int(sys.argv[1]), int(sys.argv[2])
    del seed  # the benchmark takes no seed
    print([2, 20, 10, 25, 30][min(size.bit_length() - 2, 4)])


main()
