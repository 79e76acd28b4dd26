import sys
def first_big(n):
    total = 0
    for i in range(n):
        total += i
        if total > 100:
            return total
    return -1
print(first_big(int(sys.stdin.read())))
