import sys
n = int(sys.stdin.read())
total = 0
for i in range(n):
    total += i
print(total)
