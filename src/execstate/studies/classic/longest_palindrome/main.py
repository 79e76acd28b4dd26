"""Longest palindromic substring by expanding around every center.

Input: one line of lowercase letters. Output: the leftmost longest
palindromic substring, its 0-based start, and the number of palindromic
substrings of length at least 2 (counted by position, so repeats count).
"""
import sys


def palindromes(text):
    n = len(text)
    best_start, best_len = 0, 1 if n else 0
    count = 0
    for center in range(2 * n - 1):
        # Even centers sit on a letter, odd centers between two letters.
        lo = center // 2
        hi = lo + center % 2
        while lo >= 0 and hi < n and text[lo] == text[hi]:
            if hi > lo:
                count += 1
            lo -= 1
            hi += 1
        length = hi - lo - 1
        if length > best_len:
            best_start, best_len = lo + 1, length
    return best_start, best_len, count


def main():
    text = sys.stdin.readline().strip()
    if not text.isalpha():
        raise SystemExit("expected one line of letters")
    start, length, count = palindromes(text)
    if length < 2:
        print("no palindrome longer than one letter")
        return
    print(text[start:start + length])
    print(start)
    print(count)


if __name__ == "__main__":
    main()
