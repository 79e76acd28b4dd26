"""Count inversions with a top-down merge sort.

Input: n, then n integers. Output: the number of pairs i < j with
a[i] > a[j], then the sorted values.
"""
import sys


def merge(left, right):
    """Merge two sorted lists; also count pairs (x in left, y in right) with x > y."""
    merged = []
    i = j = 0
    inversions = 0
    while i < len(left) and j < len(right):
        if left[i] <= right[j]:
            merged.append(left[i])
            i += 1
        else:
            # right[j] jumps ahead of every element still waiting in left.
            merged.append(right[j])
            inversions += len(left) - i
            j += 1
    merged.extend(left[i:])
    merged.extend(right[j:])
    return merged, inversions


def sort_count(values):
    if len(values) <= 1:
        return list(values), 0
    mid = len(values) // 2
    left, a = sort_count(values[:mid])
    right, b = sort_count(values[mid:])
    merged, c = merge(left, right)
    return merged, a + b + c


def main():
    data = sys.stdin.read().split()
    values = [int(tok) for tok in data[1:1 + int(data[0])]]
    ordered, inversions = sort_count(values)
    print(inversions)
    print(" ".join(map(str, ordered)))


if __name__ == "__main__":
    main()
