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
    long long sum = 1;
    long long best = 0;
    for (long long x : values) {
        sum += x;
        if (sum - 1 > best) {
            best = sum - 1;
        }
    }
    std::cout << sum - 1 << " " << best << std::endl;
    return 0;
}
