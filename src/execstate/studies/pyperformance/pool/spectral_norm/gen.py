"""The input of pyperformance's bm_spectral_norm for execstate: `gen.py SEED SIZE` prints one line.

SIZE: N, the side of the matrix A (the benchmark's own DEFAULT_N: 130). The benchmark takes no seed: SEED is ignored, and the input is a function of SIZE only.
Written by execstate.studies.pyperformance.make_pool from recipes/spectral_norm.toml.
"""

import sys


def main():
    seed, size = int(sys.argv[1]), int(sys.argv[2])
    del seed  # the benchmark takes no seed
    print(size)


main()
