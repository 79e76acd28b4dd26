"""The input of pyperformance's bm_nqueens for execstate: `gen.py SEED SIZE` prints one line.

SIZE: the number of queens and the board's side (the benchmark's own: 8); gen.py maps SIZE to SIZE.bit_length() + 2. The benchmark takes no seed: SEED is ignored, and the input is a function of SIZE only.
Written by execstate.studies.pyperformance.make_pool from recipes/nqueens.toml.
"""

import sys


def main():
    seed, size = int(sys.argv[1]), int(sys.argv[2])
    del seed  # the benchmark takes no seed
    print(size.bit_length() + 2)


main()
