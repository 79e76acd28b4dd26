"""The input of pyperformance's bm_raytrace for execstate: `gen.py SEED SIZE` prints one line.

SIZE: the image's width and height in pixels (the benchmark's own: 100 100; gen.py: SIZE + 1 and SIZE). The benchmark takes no seed: SEED is ignored, and the input is a function of SIZE only.
Written by execstate.studies.pyperformance.make_pool from recipes/raytrace.toml.
"""

import sys


def main():
    seed, size = int(sys.argv[1]), int(sys.argv[2])
    del seed  # the benchmark takes no seed
    print(f"{size + 1} {size}")


main()
