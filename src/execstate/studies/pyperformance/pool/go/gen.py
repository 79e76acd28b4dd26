"""The input of pyperformance's bm_go for execstate: `gen.py SEED SIZE` prints one line.

SIZE: the number of UCT playouts the computer plays before it moves (GAMES; the benchmark's own: 200; gen.py: 11 * SIZE // 16). The benchmark is seeded: SEED 1 (construct's) stands for its own seed, 1; any other SEED is used as it is (a fresh input).
Written by execstate.studies.pyperformance.make_pool from recipes/go.toml.
"""

import sys


def main():
    seed, size = int(sys.argv[1]), int(sys.argv[2])
    seed = 1 if seed == 1 else seed
    print(f"{11 * size // 16} {seed}")


main()
