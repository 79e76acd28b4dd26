"""Find every occurrence of a pattern in a text with Knuth-Morris-Pratt.

Input: the pattern on the first line, the text on the second. Output: the
number of (possibly overlapping) occurrences, then their 0-based starting
positions (at most the first ten), or "none".
"""
import sys


def prefix_function(pattern):
    """fail[i]: length of the longest proper border of pattern[:i + 1]."""
    fail = [0] * len(pattern)
    k = 0
    for i in range(1, len(pattern)):
        while k > 0 and pattern[i] != pattern[k]:
            k = fail[k - 1]
        if pattern[i] == pattern[k]:
            k += 1
        fail[i] = k
    return fail


def occurrences(text, pattern):
    fail = prefix_function(pattern)
    found = []
    count = 0
    matched = 0
    for pos, ch in enumerate(text):
        while matched > 0 and ch != pattern[matched]:
            matched = fail[matched - 1]
        if ch == pattern[matched]:
            matched += 1
        if matched == len(pattern):
            count += 1
            found.append(pos - matched + 1)
            matched = fail[matched - 1]
    return count, found


def main():
    pattern, text = sys.stdin.read().split()
    count, found = occurrences(text, pattern)
    print(count)
    print(" ".join(map(str, found[:10])) if found else "none")


if __name__ == "__main__":
    main()
