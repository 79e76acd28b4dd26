"""Circular house robber: best total from houses on a ring, no two neighbours.

Input: n, then on one line the n non-negative amounts around a circle (house
n is next to house 1). Output: the best total, then the 1-based houses of
one best plan.
"""


def rob_line(values):
    """Best total of a non-adjacent selection from a row, and the chosen indices."""
    take, skip = 0, 0
    robbed = []
    for v in values:
        # take: best with this house robbed; skip: best with it left alone.
        take, skip = skip + v, max(take, skip)
        robbed.append(take > skip)
    chosen = []
    robbing = robbed[-1]
    for i in range(len(values) - 1, -1, -1):
        if robbing:
            chosen.append(i)
            robbing = False
        else:
            robbing = i > 0 and robbed[i - 1]
    return max(take, skip), chosen[::-1]


def rob_ring(values):
    if len(values) == 1:
        return values[0], [0]
    # Either the last house is left alone, or the first one is.
    without_last, plan_a = rob_line(values[:-1])
    without_first, plan_b = rob_line(values[1:])
    if without_last >= without_first:
        return without_last, plan_a
    return without_first, [i + 1 for i in plan_b]


def main():
    input()  # n: the values on the next line are all there is
    values = list(map(int, input().split()))
    total, plan = rob_ring(values)
    print(total)
    print(" ".join(str(i + 1) for i in plan))


if __name__ == "__main__":
    main()
