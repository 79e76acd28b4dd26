// Which number from 1 to a limit has the most divisors (the smallest such number on a tie)?
// divisor_count tries every d up to the square root of n; main calls it once per number.
#include <iostream>

int divisor_count(int n) {
    int count = 0;
    for (int d = 1; d * d <= n; d++) {
        if (n % d == 0) {
            count += (d * d == n) ? 1 : 2;  // d and n / d, once if they are equal
        }
    }
    return count;
}

int main() {
    int limit;
    std::cin >> limit;
    int best = 1, most = 1;
    for (int x = 2; x <= limit; x++) {
        int c = divisor_count(x);
        if (c > most) {
            best = x;
            most = c;
        }
    }
    std::cout << best << " " << most << std::endl;
    return 0;
}
