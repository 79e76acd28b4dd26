"""Input generator for classic/langtons_ant: `python gen.py short|long` prints the input."""
import sys


def main():
    print("4 4 6 1 1 N" if sys.argv[1] == "short" else "11 9 420 5 4 E")


if __name__ == "__main__":
    main()
