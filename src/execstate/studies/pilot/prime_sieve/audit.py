"""Audit of pilot/prime_sieve: the decomposition of the prime count by remainder mod 4.

On every run (short, long and two audit inputs) the printed count equals one
plus the two remainder counts, and an independent trial-division computation
of the primes up to N reproduces the printed count, sum, largest gap and twin
count. The placebo is checked on the source text.
"""
import json
import sys

DATA = json.load(sys.stdin)


def check(condition, message):
    if not condition:
        sys.exit(f"audit failed: {message}")


def primes_up_to(limit):
    return [n for n in range(2, limit + 1) if all(n % d for d in range(2, int(n**0.5) + 1))]


for run in DATA["runs"]:
    lines = {line.split()[0]: line.split()[1:] for line in run["output"].splitlines()}
    count = int(lines["primes"][0])
    ones, threes = int(lines["4k+1:"][0]), int(lines["4k+1:"][2])
    name = run["name"]
    check(count == 1 + ones + threes, f"run {name}: {count} primes, {ones} + {threes} by remainder")
    primes = primes_up_to(int(run["input"]))
    check(count == len(primes) and int(lines["sum"][0]) == sum(primes), f"run {name}: count or sum")
    gaps = [(q - p, p, q) for p, q in zip(primes, primes[1:])]
    best = max(gaps, key=lambda g: g[0]) if gaps else (0, 0, 0)
    check(list(map(int, lines["gap"])) == list(best), f"run {name}: largest gap {lines['gap']}")
    check(int(lines["twins"][0]) == sum(g == 2 for g, _, _ in gaps), f"run {name}: twin count")
check("range(p * p, limit + 1, p)" in DATA["source"], "placebo: the sieve does not start at p * p")
