# Running maximum subarray sum (Kadane) over the numbers on stdin.
import sys

values = [int(tok) for tok in sys.stdin.read().split()]
best = values[0]
cur = 0
for x in values:
    cur = max(x, cur + x)
    best = max(best, cur)
print(best)
