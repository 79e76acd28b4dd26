"""Root finding by bisection on polynomials.

Input: a tolerance, then q, then q lines "lo hi c_d ... c_1 c_0" giving an
interval and the polynomial's coefficients from the highest degree down.
Output, per line: a root in [lo, hi] to 6 decimals, found by halving the
interval until it is at most the tolerance wide, and the number of halvings;
or "no sign change" when the endpoints do not bracket a root.
"""
import sys


def evaluate(coeffs, x):
    """Horner's rule."""
    value = 0.0
    for c in coeffs:
        value = value * x + c
    return value


def bisect_root(coeffs, lo, hi, tol):
    f_lo = evaluate(coeffs, lo)
    if f_lo * evaluate(coeffs, hi) > 0:
        return None, 0
    halvings = 0
    while hi - lo > tol:
        mid = (lo + hi) / 2
        f_mid = evaluate(coeffs, mid)
        if f_mid == 0:
            return mid, halvings
        if (f_mid < 0) == (f_lo < 0):
            lo, f_lo = mid, f_mid  # the sign change is in the right half
        else:
            hi = mid
        halvings += 1
    return (lo + hi) / 2, halvings


def main():
    lines = sys.stdin.read().splitlines()
    tol = float(lines[0])
    for line in lines[2:2 + int(lines[1])]:
        lo, hi, *coeffs = map(float, line.split())
        root, halvings = bisect_root(coeffs, lo, hi, tol)
        if root is None:
            print("no sign change")
        else:
            print(f"{root:.6f} after {halvings} halvings")


if __name__ == "__main__":
    main()
