"""The input of pyperformance's bm_barnes_hut for execstate: `gen.py SEED SIZE` prints one line.

SIZE: the number of particles and of simulation steps (the benchmark's own: 200 particles, 100 steps; gen.py: SIZE particles, 3 steps). The benchmark takes no seed: SEED is ignored, and the input is a function of SIZE only.
Written by execstate.studies.pyperformance.make_pool from recipes/barnes_hut.toml.
"""

import sys


def main():
    seed, size = int(sys.argv[1]), int(sys.argv[2])
    del seed  # the benchmark takes no seed
    print(f"{size} 3")


main()
