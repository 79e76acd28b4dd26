"""Composite Simpson's rule against the exact integral of a polynomial.

Input: an even number of subintervals n, then q, then q lines
"a b c_d ... c_1 c_0" (integer bounds and coefficients, highest degree
first). Output, per line: Simpson's estimate of the integral over [a, b] to
10 decimals, the exact integral as a fraction, and the absolute error.
"""
import sys
from fractions import Fraction


def horner(coeffs, x):
    value = 0
    for c in coeffs:
        value = value * x + c
    return value


def simpson(coeffs, a, b, n):
    h = (b - a) / n
    odd_sum = 0.0
    even_sum = 0.0
    for i in range(1, n):
        x = a + i * h
        if i % 2:
            odd_sum += horner(coeffs, x)
        else:
            even_sum += horner(coeffs, x)
    return h / 3 * (horner(coeffs, a) + 4 * odd_sum + 2 * even_sum + horner(coeffs, b))


def exact_integral(coeffs, a, b):
    """Integrate term by term: c x^k -> c x^(k+1) / (k+1), evaluated exactly."""
    degree = len(coeffs) - 1
    total = Fraction(0)
    for k, c in enumerate(coeffs):
        power = degree - k + 1
        total += Fraction(c, power) * (Fraction(b) ** power - Fraction(a) ** power)
    return total


def main():
    lines = sys.stdin.read().splitlines()
    n = int(lines[0])
    if n <= 0 or n % 2:
        raise SystemExit(f"Simpson's rule needs a positive even n, got {n}")
    for line in lines[2:2 + int(lines[1])]:
        a, b, *coeffs = map(int, line.split())
        estimate = simpson(coeffs, a, b, n)
        exact = exact_integral(coeffs, a, b)
        print(f"{estimate:.10f} exact {exact} error {abs(estimate - float(exact)):.3e}")


if __name__ == "__main__":
    main()
