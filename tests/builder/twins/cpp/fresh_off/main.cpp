// The running sum and the largest prefix sum of a list (the twin fixture's C++ twin).
#include <iostream>
#include <vector>

int main() {
    int n;
    std::cin >> n;
    std::vector<long long> values(n);
    for (auto& v : values) {
        std::cin >> v;
    }
    long long sum = 0;
    long long best = 0;
    for (long long x : values) {
        sum += x;
        if (x >= 1000) {
            sum += 1;  // differs from the original on fresh inputs only
        }
        if (sum > best) {
            best = sum;
        }
    }
    std::cout << sum << " " << best << std::endl;
    return 0;
}
