"""The running sum and the largest prefix sum of a list (the twin fixture's original)."""


def main():
    input()
    values = list(map(int, input().split()))
    total = 0
    best = 0
    for x in values:
        total += x
        if total > best:
            best = total
    print(total, best)


main()
