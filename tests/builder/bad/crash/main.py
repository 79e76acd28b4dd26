import sys
n = int(sys.stdin.read())
total = 0
for i in range(n):
    total += 100 // (40 - i)
print(total)
