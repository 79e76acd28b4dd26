// Integer square roots by Newton's method.
//
// Input: q, then q non-negative integers. Output, per number: its integer square root (the largest
// r with r * r <= n) and whether n is a perfect square; finally the number of Newton steps taken in
// total.
#include <iostream>
#include <utility>

// (floor(sqrt(n)), steps). Starts above the root and decreases monotonically.
std::pair<long long, long long> isqrt_newton(long long n) {
    if (n < 2) {
        return {n, 0};
    }
    long long x = n;
    long long y = (x + 1) / 2;
    long long steps = 0;
    while (y < x) {
        x = y;
        y = (x + n / x) / 2;
        steps += 1;
    }
    return {x, steps};
}

int main() {
    long long q;
    std::cin >> q;
    long long total_steps = 0;
    long long n;
    for (long long read = 0; read < q && std::cin >> n; read++) {
        if (n < 0) {
            std::cout << n << " has no real square root\n";
            continue;
        }
        auto [root, steps] = isqrt_newton(n);
        total_steps += steps;
        const char* kind = root * root == n ? "square" : "not square";
        std::cout << n << " " << root << " " << kind << "\n";
    }
    std::cout << "steps " << total_steps << "\n";
    return 0;
}
