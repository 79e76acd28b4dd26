"""Input generator for classic/game_of_life: `python gen.py short|long` prints the input."""
import sys


def main():
    if sys.argv[1] == "short":
        rows, cols, generations = 3, 3, 1
        grid = ["...", "###", "..."]
    else:
        rows, cols, generations = 8, 8, 9
        grid = [  # a glider and a blinker on a small torus
            ".#......",
            "..#.....",
            "###.....",
            "........",
            "........",
            ".....###",
            "........",
            "........",
        ]
    print(rows, cols, generations)
    print("\n".join(grid))


if __name__ == "__main__":
    main()
