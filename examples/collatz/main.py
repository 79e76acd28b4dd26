def collatz_steps(n):
    steps = 0
    peak = n
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        peak = max(peak, n)
        steps += 1
    return steps, peak


if __name__ == "__main__":
    start = int(input())
    print(*collatz_steps(start))
