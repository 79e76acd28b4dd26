// Sieve of Eratosthenes with a few statistics about the primes found.
//
// Input: a limit N >= 2. Output, for the primes up to N: how many there are and their sum; the
// largest gap between consecutive primes (as "gap g p q" for the first such pair p < q); the number
// of twin-prime pairs (p, p + 2); and how many primes leave remainder 1 and remainder 3 when
// divided by 4.
#include <array>
#include <cstddef>
#include <iostream>
#include <optional>
#include <vector>

std::vector<bool> sieve(long long limit) {
    std::vector<bool> is_prime(limit + 1, true);
    is_prime[0] = is_prime[1] = false;
    long long p = 2;
    while (p * p <= limit) {
        if (is_prime[p]) {
            for (long long multiple = p * p; multiple <= limit; multiple += p) {
                is_prime[multiple] = false;
            }
        }
        p += 1;
    }
    return is_prime;
}

struct Summary {
    long long count, total;
    std::array<long long, 3> gap;  // (g, p, q)
    long long twins;
    long long by_four_1, by_four_3;
};

Summary summarize(const std::vector<bool>& is_prime) {
    long long count = 0, total = 0, twins = 0;
    std::optional<long long> last;  // the previous prime; none while there is none
    std::array<long long, 3> gap = {0, 0, 0};
    long long by_four_1 = 0, by_four_3 = 0;
    for (long long n = 2; n < static_cast<long long>(is_prime.size()); n++) {
        if (!is_prime[n]) {
            continue;
        }
        count += 1;
        total += n;
        if (n % 4 == 1) {
            by_four_1 += 1;
        } else if (n % 4 == 3) {
            by_four_3 += 1;
        }
        if (last) {
            if (n - *last > gap[0]) {
                gap = {n - *last, *last, n};
            }
            if (n - *last == 2) {
                twins += 1;
            }
        }
        last = n;
    }
    return {count, total, gap, twins, by_four_1, by_four_3};
}

int main() {
    long long limit;
    if (!(std::cin >> limit) || limit < 2) {
        std::cerr << "the limit must be at least 2\n";
        return 1;
    }
    Summary s = summarize(sieve(limit));
    std::cout << "primes " << s.count << "\n";
    std::cout << "sum " << s.total << "\n";
    std::cout << "gap " << s.gap[0] << " " << s.gap[1] << " " << s.gap[2] << "\n";
    std::cout << "twins " << s.twins << "\n";
    std::cout << "4k+1: " << s.by_four_1 << " 4k+3: " << s.by_four_3 << "\n";
    return 0;
}
