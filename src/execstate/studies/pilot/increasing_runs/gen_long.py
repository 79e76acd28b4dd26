# 800 values in 0..999 from a fixed linear congruential generator: the same input on every run.
x = 2024
values = []
for _ in range(800):
    x = (x * 1103515245 + 12345) % 2**31
    values.append(x // 65536 % 1000)
print(len(values))
print(*values)
