"""Maximum subarray sum with Kadane's algorithm.

Input: n, then the n integers on one line. Output: the largest sum of a
non-empty contiguous run, then the 1-based first and last positions of the
run that ends earliest (and, among those, the shortest one).
"""


def max_subarray(values):
    best = values[0]
    best_start = best_end = 0
    cur = 0
    cur_start = 0
    for i, x in enumerate(values):
        if cur <= 0:
            # A non-positive prefix never helps: start a new run here.
            cur = x
            cur_start = i
        else:
            cur += x
        if cur > best:
            best = cur
            best_start, best_end = cur_start, i
    return best, best_start, best_end


def main():
    input()  # n: the values on the next line are all there is
    values = list(map(int, input().split()))
    best, start, end = max_subarray(values)
    print(best)
    print(start + 1, end + 1)


if __name__ == "__main__":
    main()
