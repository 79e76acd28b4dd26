"""The input of pyperformance's bm_richards_super for execstate: `gen.py SEED SIZE` prints one line.

SIZE: the idle task's count, how many times the scheduler's idle task runs (the benchmark's own: 10000). The benchmark takes no seed: SEED is ignored, and the input is a function of SIZE only.
Written by execstate.studies.pyperformance.make_pool from recipes/richards_super.toml.
"""

import sys


def main():
    seed, size = int(sys.argv[1]), int(sys.argv[2])
    del seed  # the benchmark takes no seed
    print(size)


main()
