"""Input generator for classic/bisection: `python gen.py short|long` prints the input."""
import sys


def main():
    if sys.argv[1] == "short":
        tol = "0.1"
        problems = ["1 2 1 0 -2", "0 1 1 0 1"]  # x^2 - 2 on [1, 2]; x^2 + 1 has no root
    else:
        tol = "1e-7"
        problems = [
            "1 2 1 0 -2",            # sqrt(2)
            "1 2 1 0 0 -3",          # cube root of 3
            "-2 0 1 0 -1 1",         # x^3 - x + 1
            "0 1 1 1 1 -1",          # x^3 + x^2 + x - 1
            "2 4 1 0 -10",           # sqrt(10)
            "0 1 2 -3 -1 1",         # 2x^3 - 3x^2 - x + 1
            "-3 -1 1 0 -2 0 -1",     # x^4 - 2x^2 - 1
            "0 2 1 -1 -1",           # golden ratio
            "1 3 1 0 -5",            # sqrt(5)
            "-1 0 1 0 0 0 -0.5",     # fourth root of 0.5, negative side
            "5 5 1 -5",              # degenerate interval holding the root 5
            "0 5 1 0 1",             # x^2 + 1: no root
        ]
    print(tol)
    print(len(problems))
    print("\n".join(problems))


if __name__ == "__main__":
    main()
