import sys
n = int(sys.stdin.read())
total = 0
for i in range(n):
    total += i
hog = [0] * (n * 10**8)
print(total)
