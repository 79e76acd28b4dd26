import sys
n = int(sys.stdin.read())
seen = set()
for i in range(n):
    seen.add(i % 7)
print(len(seen))
