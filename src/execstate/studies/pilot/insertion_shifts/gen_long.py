# 120 values in 0..99 from a fixed linear congruential generator: the same input on every run.
x = 7
values = []
for _ in range(120):
    x = (x * 48271) % 2147483647
    values.append(x % 100)
print(len(values))
print(*values)
