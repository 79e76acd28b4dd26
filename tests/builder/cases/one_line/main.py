import sys
words = sys.stdin.read().split()
seen = ""
for w in words: seen += w[0]
print(seen)
