"""Iterative quicksort (Lomuto partition), then a few order statistics.

Input: n, then the n integers on one line. Output: the sorted values, then
the median (the mean of the two middle values when n is even, printed as a
fraction if it is not whole) and the number of distinct values.
"""


def partition(a, lo, hi):
    """Partition a[lo:hi + 1] around its middle element; return the pivot's final index."""
    mid = (lo + hi) // 2
    a[mid], a[hi] = a[hi], a[mid]
    pivot = a[hi]
    store = lo
    for j in range(lo, hi):
        if a[j] < pivot:
            a[j], a[store] = a[store], a[j]
            store += 1
    a[store], a[hi] = a[hi], a[store]
    return store


def quicksort(a):
    stack = [(0, len(a) - 1)]
    while stack:
        lo, hi = stack.pop()
        if lo >= hi:
            continue
        p = partition(a, lo, hi)
        stack.append((p + 1, hi))
        stack.append((lo, p - 1))


def median_text(ordered):
    n = len(ordered)
    if n % 2:
        return str(ordered[n // 2])
    total = ordered[n // 2 - 1] + ordered[n // 2]
    return str(total // 2) if total % 2 == 0 else f"{total}/2"


def main():
    input()  # n: the values on the next line are all there is
    values = list(map(int, input().split()))
    quicksort(values)
    distinct = sum(1 for i, v in enumerate(values) if i == 0 or v != values[i - 1])
    print(" ".join(map(str, values)))
    print("median", median_text(values))
    print("distinct", distinct)


if __name__ == "__main__":
    main()
