import sys

n = int(sys.argv[1])
print(" ".join(str((i * 37) % 23 - 11) for i in range(n)))
