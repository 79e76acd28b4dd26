from collections import deque

n = int(input())
window = deque(maxlen=3)
stack = []
for v in range(n):
    window.append(v * v % 7)
    if stack and stack[-1] > window[-1]:
        stack.pop()
    else:
        stack.append(window[-1])
print(list(window), stack)
