"""Input generator for classic/stock_cooldown: `python gen.py short|long` prints the input.

EXECSTATE_SEED, when set, draws a fresh input of the same shape (execstate build --fresh):
short: 4 random prices in 1..9 and fees 0 and 1..3; long: another 160-day random walk from 50,
fees 0, 2..4 and 8..10.

`python gen.py size N` prints an input of size N for the input ladder (execstate build --ladder,
docs/ladder.md), drawn from EXECSTATE_SEED (seed 0 when unset): n prices of a random walk, fees 0, 3 and 9.
"""
import os
import random
import sys


def lcg(seed):
    """Deterministic pseudo-random stream (same on every Python version)."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state >> 8


def fresh_stream(which):
    """Endless 23-bit integers drawn from EXECSTATE_SEED and `which`; None when the variable is unset or empty."""
    text = os.environ.get("EXECSTATE_SEED", "").strip()
    if not text:
        return None
    seed = int(text)
    if not 0 <= seed < 2**56:
        raise SystemExit(f"EXECSTATE_SEED must be an integer in [0, 2**56), not {text}")
    rng = random.Random(2 * seed + (which == "long"))  # short and long draw different streams
    return iter(lambda: rng.getrandbits(23), None)


def size_stream():
    """The stream `gen.py size N` draws from: EXECSTATE_SEED's (as a fresh long input's), seed 0 when it is unset."""
    text = os.environ.get("EXECSTATE_SEED", "").strip() or "0"
    rng = random.Random(2 * int(text) + 1)
    return iter(lambda: rng.getrandbits(23), None)


def sized(n, stream):
    """Print the input of size n (n >= 1): n prices of a random walk, fees 0, 3 and 9."""
    price, prices = 50, []
    for _ in range(n):
        price = max(1, price + next(stream) % 13 - 6)
        prices.append(price)
    print(len(prices))
    print(" ".join(map(str, prices)))
    print(3)
    print("0 3 9")


def main():
    if sys.argv[1] == "size":
        sized(int(sys.argv[2]), size_stream())
        return
    fresh = fresh_stream(sys.argv[1])
    if sys.argv[1] == "short":
        prices, fees = [3, 1, 4, 8], [0, 2]
        while fresh is not None and (prices, fees) == ([3, 1, 4, 8], [0, 2]):  # a fresh input differs
            prices, fees = [1 + next(fresh) % 9 for _ in range(4)], [0, 1 + next(fresh) % 3]
    else:
        stream = fresh or lcg(4242)
        price, prices = 50, []
        for _ in range(160):
            price = max(1, price + next(stream) % 13 - 6)
            prices.append(price)
        fees = [0, 3, 9] if fresh is None else [0, 2 + next(fresh) % 3, 8 + next(fresh) % 3]
    print(len(prices))
    print(" ".join(map(str, prices)))
    print(len(fees))
    print(" ".join(map(str, fees)))


if __name__ == "__main__":
    main()
