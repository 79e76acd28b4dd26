"""Insertion sort that reports how much work it did.

Input: n, then the n integers on one line. Output: the sorted values, then
the number of element shifts (which equals the number of inversions) and the
number of elements that were already in place when reached.
"""


def insertion_sort(values):
    a = list(values)
    shifts = 0
    in_place = 0
    for i in range(1, len(a)):
        key = a[i]
        j = i - 1
        while j >= 0 and a[j] > key:
            a[j + 1] = a[j]  # slide the larger element one slot right
            j -= 1
            shifts += 1
        if j == i - 1:
            in_place += 1
        a[j + 1] = key
    return a, shifts, in_place


def main():
    n = int(input())
    values = list(map(int, input().split()))
    if len(values) != n:
        raise SystemExit(f"expected {n} values, got {len(values)}")
    ordered, shifts, in_place = insertion_sort(values)
    print(" ".join(map(str, ordered)))
    print("shifts", shifts)
    print("in place", in_place)


if __name__ == "__main__":
    main()
