"""The input of pyperformance's bm_comprehensions for execstate: `gen.py SEED SIZE` prints one line.

SIZE: the number of widget trays built from the benchmark's 24 widgets, tray i for owner i % 3. The benchmark takes no seed: SEED is ignored, and the input is a function of SIZE only.
Written by execstate.studies.pyperformance.make_pool from recipes/comprehensions.toml.
"""

import sys


def main():
    seed, size = int(sys.argv[1]), int(sys.argv[2])
    del seed  # the benchmark takes no seed
    print(size)


main()
