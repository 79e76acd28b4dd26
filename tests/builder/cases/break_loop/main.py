import sys

limit = int(sys.stdin.readline())
total = 0
count = 0
for x in range(1, 10**9):
    if total + x * x > limit:
        break
    total += x * x
    count += 1
else:
    count = -1
print(count, total)
