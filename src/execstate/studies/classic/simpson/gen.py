"""Input generator for classic/simpson: `python gen.py short|long` prints the input."""
import sys


def main():
    if sys.argv[1] == "short":
        n, problems = 4, ["0 2 1 0 0 0 0", "0 1 3 0 0"]  # x^4 on [0, 2]; 3x^2 on [0, 1]
    else:
        n = 64
        problems = [
            "0 2 1 0 0 0 0",        # x^4: Simpson is not exact beyond cubics
            "-1 3 1 -2 0 5",        # a cubic: Simpson is exact up to rounding
            "1 5 2 0 -3 1 0",       # 2x^4 - 3x^2 + x
            "-2 2 1 0 0 0 0 0 1",   # x^6 + 1
            "0 4 -1 4 0",           # 4x - x^2
        ]
    print(n)
    print(len(problems))
    print("\n".join(problems))


if __name__ == "__main__":
    main()
