"""Heapsort with an explicit sift-down on a max-heap.

Input: n, then the n integers on one line. Output: the values in ascending
order, then the number of swaps made while building the heap and while
extracting.
"""


def sift_down(a, root, end):
    """Restore the max-heap property below ``root`` within a[:end]; return the swap count."""
    swaps = 0
    while 2 * root + 1 < end:
        child = 2 * root + 1
        if child + 1 < end and a[child + 1] > a[child]:
            child += 1  # take the larger child
        if a[root] >= a[child]:
            break
        a[root], a[child] = a[child], a[root]
        root = child
        swaps += 1
    return swaps


def heapsort(a):
    build = 0
    for start in range(len(a) // 2 - 1, -1, -1):
        build += sift_down(a, start, len(a))
    extract = 0
    for end in range(len(a) - 1, 0, -1):
        a[0], a[end] = a[end], a[0]
        extract += sift_down(a, 0, end)
    return build, extract


def main():
    input()  # n: the values on the next line are all there is
    values = list(map(int, input().split()))
    build, extract = heapsort(values)
    print(" ".join(map(str, values)))
    print("build swaps", build)
    print("extract swaps", extract)


if __name__ == "__main__":
    main()
