"""The Josephus problem, simulated.

Input: n and k: people 1..n stand in a circle and, counting from person 1,
every k-th remaining person leaves. Output: the survivor, the last three to
leave (in order), and the position in which person 1 left.
"""
import sys


def eliminate(n, k):
    circle = list(range(1, n + 1))
    order = []
    idx = 0
    last = None
    while len(circle) > 1:
        idx = (idx + k - 1) % len(circle)
        last = circle.pop(idx)  # the next count starts at whoever now holds seat idx
        order.append(last)
    return circle[0], order


def main():
    n, k = map(int, sys.stdin.read().split())
    if n < 1 or k < 1:
        raise SystemExit("n and k must be positive")
    survivor, order = eliminate(n, k)
    print("survivor", survivor)
    print("last out", *order[-3:])
    if survivor == 1:
        print("person 1 survives")
    else:
        print("person 1 left at turn", order.index(1) + 1)


if __name__ == "__main__":
    main()
