// Maximum subarray sum with Kadane's algorithm.
//
// Input: n, then the n integers on one line. Output: the largest sum of a non-empty contiguous run,
// then the 1-based first and last positions of the run that ends earliest (and, among those, the
// shortest one).
#include <cstddef>
#include <iostream>
#include <vector>

struct Run {
    long long sum;
    std::size_t start, end;
};

Run max_subarray(const std::vector<long long>& values) {
    long long best = values[0];
    std::size_t best_start = 0, best_end = 0;
    long long cur = 0;
    std::size_t cur_start = 0;
    for (std::size_t i = 0; i < values.size(); i++) {
        long long x = values[i];
        if (cur <= 0) {
            // A non-positive prefix never helps: start a new run here.
            cur = x;
            cur_start = i;
        } else {
            cur += x;
        }
        if (cur > best) {
            best = cur;
            best_start = cur_start;
            best_end = i;
        }
    }
    return {best, best_start, best_end};
}

int main() {
    std::size_t n;
    std::cin >> n;  // n: the values that follow are all there is
    std::vector<long long> values;
    long long v;
    while (std::cin >> v) {
        values.push_back(v);
    }
    Run run = max_subarray(values);
    std::cout << run.sum << "\n";
    std::cout << run.start + 1 << " " << run.end + 1 << "\n";
    return 0;
}
