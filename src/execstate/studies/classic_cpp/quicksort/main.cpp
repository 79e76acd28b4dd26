// Iterative quicksort (Lomuto partition), then a few order statistics.
//
// Input: n, then the n integers on one line. Output: the sorted values, then the median (the mean
// of the two middle values when n is even, printed as a fraction if it is not whole) and the number
// of distinct values.
#include <cstddef>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

// Partition a[lo..hi] around its middle element; return the pivot's final index.
long long partition(std::vector<long long>& a, long long lo, long long hi) {
    long long mid = (lo + hi) / 2;
    std::swap(a[mid], a[hi]);
    long long pivot = a[hi];
    long long store = lo;
    long long j = 0;  // the position scanned; like a Python loop variable it keeps its last value
    for (long long at = lo; at < hi && ((j = at), true); at++) {
        if (a[j] < pivot) {
            std::swap(a[j], a[store]);
            store += 1;
        }
    }
    std::swap(a[store], a[hi]);
    return store;
}

void quicksort(std::vector<long long>& a) {
    std::vector<std::pair<long long, long long>> stack = {{0, static_cast<long long>(a.size()) - 1}};
    while (!stack.empty()) {
        auto [lo, hi] = stack.back();
        stack.pop_back();
        if (lo >= hi) {
            continue;
        }
        long long p = partition(a, lo, hi);
        stack.emplace_back(p + 1, hi);
        stack.emplace_back(lo, p - 1);
    }
}

std::string median_text(const std::vector<long long>& ordered) {
    std::size_t n = ordered.size();
    if (n % 2) {
        return std::to_string(ordered[n / 2]);
    }
    long long total = ordered[n / 2 - 1] + ordered[n / 2];
    return total % 2 == 0 ? std::to_string(total / 2) : std::to_string(total) + "/2";
}

int main() {
    std::size_t n;
    std::cin >> n;  // n: the values that follow are all there is
    std::vector<long long> values;
    long long v;
    while (std::cin >> v) {
        values.push_back(v);
    }
    quicksort(values);
    long long distinct = 0;
    for (std::size_t i = 0; i < values.size(); i++) {
        if (i == 0 || values[i] != values[i - 1]) {
            distinct += 1;
        }
    }
    std::string line;
    for (long long value : values) {
        if (!line.empty()) line += ' ';
        line += std::to_string(value);
    }
    std::cout << line << "\n";
    std::cout << "median " << median_text(values) << "\n";
    std::cout << "distinct " << distinct << "\n";
    return 0;
}
