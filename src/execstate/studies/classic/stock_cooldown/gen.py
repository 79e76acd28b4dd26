"""Input generator for classic/stock_cooldown: `python gen.py short|long` prints the input."""
import sys


def lcg(seed):
    """Deterministic pseudo-random stream (same on every Python version)."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state >> 8


def main():
    if sys.argv[1] == "short":
        prices, fees = [3, 1, 4, 8], [0, 2]
    else:
        stream = lcg(4242)
        price, prices = 50, []
        for _ in range(160):
            price = max(1, price + next(stream) % 13 - 6)
            prices.append(price)
        fees = [0, 3, 9]
    print(len(prices))
    print(" ".join(map(str, prices)))
    print(len(fees))
    print(" ".join(map(str, fees)))


if __name__ == "__main__":
    main()
