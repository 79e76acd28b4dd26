"""The input of pyperformance's bm_regex_dna for execstate: `gen.py SEED SIZE` prints one line.

SIZE: the FASTA length n: 2n repeated ALU letters, then 3n and 5n random ones (the benchmark's own: 100000). The benchmark is seeded: SEED 1 (construct's) stands for its own seed, 42; any other SEED is used as it is (a fresh input).
Written by execstate.studies.pyperformance.make_pool from recipes/regex_dna.toml.
"""

import sys


def main():
    seed, size = int(sys.argv[1]), int(sys.argv[2])
    seed = 42 if seed == 1 else seed
    print(f"{size} {seed}")


main()
