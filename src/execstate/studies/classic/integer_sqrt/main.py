"""Integer square roots by Newton's method.

Input: q, then q non-negative integers. Output, per number: its integer
square root (the largest r with r * r <= n) and whether n is a perfect
square; finally the number of Newton steps taken in total.
"""
import sys


def isqrt_newton(n):
    """Return (floor(sqrt(n)), steps). Starts above the root and decreases monotonically."""
    if n < 2:
        return n, 0
    x = n
    y = (x + 1) // 2
    steps = 0
    while y < x:
        x = y
        y = (x + n // x) // 2
        steps += 1
    return x, steps


def main():
    data = sys.stdin.read().split()
    q = int(data[0])
    total_steps = 0
    for tok in data[1:1 + q]:
        n = int(tok)
        if n < 0:
            print(n, "has no real square root")
            continue
        root, steps = isqrt_newton(n)
        total_steps += steps
        kind = "square" if root * root == n else "not square"
        print(n, root, kind)
    print("steps", total_steps)


if __name__ == "__main__":
    main()
