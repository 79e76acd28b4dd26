"""Input generator for classic/josephus: `python gen.py short|long` prints the input."""
import sys


def main():
    print("6 3" if sys.argv[1] == "short" else "300 7")


if __name__ == "__main__":
    main()
