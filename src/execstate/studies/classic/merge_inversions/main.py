"""Count inversions with a top-down merge sort.

Input: n, then the n integers on one line. Output: the number of pairs i < j
with a[i] > a[j], then the sorted values.
"""


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
    input()  # n: the values on the next line are all there is
    values = list(map(int, input().split()))
    ordered, inversions = sort_count(values)
    print(inversions)
    print(" ".join(map(str, ordered)))


if __name__ == "__main__":
    main()
