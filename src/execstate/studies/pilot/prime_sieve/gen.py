"""Input generator for classic/prime_sieve: `python gen.py short|long` prints the input."""
import sys


def main():
    print(8 if sys.argv[1] == "short" else 640)


if __name__ == "__main__":
    main()
