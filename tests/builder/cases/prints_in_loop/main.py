n = int(input())
a, b = 0, 1
fibs = []
for step in range(n):
    print(step, a)
    fibs.append(a)
    a, b = b, a + b
print("done", len(fibs))
