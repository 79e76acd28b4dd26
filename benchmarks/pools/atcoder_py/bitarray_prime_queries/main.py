"""Prime check. For each of Q integers x_1..x_Q print Yes if it is a prime number, else No, one per line. Input: `Q`, then Q lines, each one integer x_j. Constraints: 1 <= Q <= 10^5, 1 <= x_j <= 10^6."""
import sys

from bitarray import bitarray

input = sys.stdin.readline


def main():
    q = int(input())
    xs = [int(input()) for _ in range(q)]
    top = max(max(xs, default=0), 1)
    prime = bitarray(top + 1)
    prime.setall(True)
    prime[0] = prime[1] = False
    p = 2
    while p * p <= top:
        if prime[p]:
            prime[p * p :: p] = False
        p += 1
    out = []
    for x in xs:
        answer = "Yes" if x >= 0 and prime[x] else "No"
        out.append(answer)
    print("\n".join(out))


main()
