// Insertion sort that reports how much work it did.
//
// Input: n, then the n integers on one line. Output: the sorted values, then the number of element
// shifts (which equals the number of inversions) and the number of elements that were already in
// place when reached.
#include <cstddef>
#include <iostream>
#include <string>
#include <tuple>
#include <vector>

std::tuple<std::vector<long long>, long long, long long> insertion_sort(const std::vector<long long>& values) {
    std::vector<long long> a = values;
    long long shifts = 0;
    long long in_place = 0;
    for (long long i = 1; i < static_cast<long long>(a.size()); i++) {
        long long key = a[i];
        long long j = i - 1;
        while (j >= 0 && a[j] > key) {
            a[j + 1] = a[j];  // slide the larger element one slot right
            j -= 1;
            shifts += 1;
        }
        if (j == i - 1) {
            in_place += 1;
        }
        a[j + 1] = key;
    }
    return {a, shifts, in_place};
}

int main() {
    std::size_t n;
    std::cin >> n;
    std::vector<long long> values;
    long long v;
    while (std::cin >> v) {
        values.push_back(v);
    }
    if (values.size() != n) {
        std::cerr << "expected " << n << " values, got " << values.size() << "\n";
        return 1;
    }
    auto [ordered, shifts, in_place] = insertion_sort(values);
    std::string line;
    for (long long value : ordered) {
        if (!line.empty()) line += ' ';
        line += std::to_string(value);
    }
    std::cout << line << "\n";
    std::cout << "shifts " << shifts << "\n";
    std::cout << "in place " << in_place << "\n";
    return 0;
}
