# 300 words of 1 to 9 letters from a fixed linear congruential generator: the same text on every run.
x = 11
words = []
for _ in range(300):
    x = (x * 1103515245 + 12345) % 2**31
    size = 1 + x // 65536 % 9
    letters = []
    for _ in range(size):
        x = (x * 1103515245 + 12345) % 2**31
        letters.append("abcdefghijklmnopqrstuvwxyz"[x // 65536 % 26])
    words.append("".join(letters))
print(" ".join(words))
