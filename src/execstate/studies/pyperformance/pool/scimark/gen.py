"""The input of pyperformance's bm_scimark for execstate: `gen.py SEED SIZE` prints one line.

SIZE: N: Monte Carlo draws N*N points, LU factors an N x N matrix (the benchmark's own: 100000 points, N = 100). The benchmark takes no seed: SEED is ignored, and the input is a function of SIZE only.
Written by execstate.studies.pyperformance.make_pool from recipes/scimark.toml.
"""

import sys


def main():
    seed, size = int(sys.argv[1]), int(sys.argv[2])
    del seed  # the benchmark takes no seed
    print(size)


main()
