import sys
n = int(sys.stdin.read())
limit = 7
total = 0
for i in range(n):
    total += i
print(total)
