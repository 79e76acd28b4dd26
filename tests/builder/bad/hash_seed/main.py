import sys
n = int(sys.stdin.read())
words = set()
for i in range(n):
    words.add('w%d' % i)
print(list(words)[:5])
