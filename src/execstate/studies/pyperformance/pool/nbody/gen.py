"""The input of pyperformance's bm_nbody for execstate: `gen.py SEED SIZE` prints one line.

SIZE: the number of advance() steps of 0.01 years (the benchmark's own: 20000). The benchmark takes no seed: SEED is ignored, and the input is a function of SIZE only.
Written by execstate.studies.pyperformance.make_pool from recipes/nbody.toml.
"""

import sys


def main():
    seed, size = int(sys.argv[1]), int(sys.argv[2])
    del seed  # the benchmark takes no seed
    print(size)


main()
