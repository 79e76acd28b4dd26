"""Sieve of Eratosthenes with a few statistics about the primes found.

Input: a limit N >= 2. Output, for the primes up to N: how many there are and
their sum; the largest gap between consecutive primes (as "gap g p q" for
the first such pair p < q); the number of twin-prime pairs (p, p + 2); and
how many primes leave remainder 1 and remainder 3 when divided by 4.
"""
import sys


def sieve(limit):
    is_prime = [True] * (limit + 1)
    is_prime[0] = is_prime[1] = False
    p = 2
    while p * p <= limit:
        if is_prime[p]:
            for multiple in range(p * p, limit + 1, p):
                is_prime[multiple] = False
        p += 1
    return is_prime


def summarize(is_prime):
    count = total = twins = 0
    last = None
    gap = (0, 0, 0)
    by_four = {"1": 0, "3": 0}
    for n in range(2, len(is_prime)):
        if not is_prime[n]:
            continue
        count += 1
        total += n
        if n % 4 == 1:
            by_four["1"] += 1
        elif n % 4 == 3:
            by_four["3"] += 1
        if last is not None:
            if n - last > gap[0]:
                gap = (n - last, last, n)
            if n - last == 2:
                twins += 1
        last = n
    return count, total, gap, twins, by_four


def main():
    limit = int(sys.stdin.read())
    if limit < 2:
        raise SystemExit("the limit must be at least 2")
    count, total, gap, twins, by_four = summarize(sieve(limit))
    print("primes", count)
    print("sum", total)
    print("gap", *gap)
    print("twins", twins)
    print("4k+1:", by_four["1"], "4k+3:", by_four["3"])


if __name__ == "__main__":
    main()
