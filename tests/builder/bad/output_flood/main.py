import sys
n = int(sys.stdin.read())
total = 0
for i in range(n):
    total += i
while n > 10:
    print('x' * 1000)
print(total)
