"""Stock trading with a cooldown day and a fee: the best achievable profit.

Input: n, then n daily prices, then q, then q fees. You hold at most one
share; every sale costs the fee, and the day after a sale you may not buy.
For each fee, output the best profit and the largest number of completed
trades among the plans reaching it.
"""
import sys


def best_profit(prices, fee):
    """Return [profit, trades] via the three-state machine hold / sold / rest."""
    # Each state is (cash, trades); comparing tuples prefers cash, then trades.
    hold = (-prices[0], 0)  # holding a share
    sold = (-10**9, 0)      # sold today, so tomorrow is a cooldown day
    rest = (0, 0)           # free to buy
    for price in prices[1:]:
        buy = (rest[0] - price, rest[1])
        sell = (hold[0] + price - fee, hold[1] + 1)
        hold, sold, rest = max(hold, buy), sell, max(rest, sold)
    return max(sold, rest)


def read_input(tokens):
    n = int(tokens[0])
    prices = [int(tok) for tok in tokens[1:1 + n]]
    q = int(tokens[1 + n])
    fees = [int(tok) for tok in tokens[2 + n:2 + n + q]]
    if len(prices) != n or len(fees) != q:
        raise SystemExit("truncated input: expected n prices then q fees")
    return prices, fees


def main():
    prices, fees = read_input(sys.stdin.read().split())
    for fee in fees:
        profit, trades = best_profit(prices, fee)
        print(f"fee {fee}: profit {profit}, trades {trades}")


if __name__ == "__main__":
    main()
