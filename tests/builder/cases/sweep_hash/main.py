import sys

n = int(sys.stdin.readline())
total = 0
best = 0
for step in range(1, n + 1):
    total = (total * 31 + step) % 1009
    best = max(best, total)
print(total, best)
