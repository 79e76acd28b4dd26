// Count inversions with a top-down merge sort.
//
// Input: n, then the n integers on one line. Output: the number of pairs i < j with a[i] > a[j],
// then the sorted values.
#include <cstddef>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

// Merge two sorted lists; also count pairs (x in left, y in right) with x > y.
std::pair<std::vector<long long>, long long> merge(const std::vector<long long>& left,
                                                   const std::vector<long long>& right) {
    std::vector<long long> merged;
    std::size_t i = 0, j = 0;
    long long inversions = 0;
    while (i < left.size() && j < right.size()) {
        if (left[i] <= right[j]) {
            merged.push_back(left[i]);
            i += 1;
        } else {
            // right[j] jumps ahead of every element still waiting in left.
            merged.push_back(right[j]);
            inversions += static_cast<long long>(left.size() - i);
            j += 1;
        }
    }
    merged.insert(merged.end(), left.begin() + i, left.end());
    merged.insert(merged.end(), right.begin() + j, right.end());
    return {merged, inversions};
}

std::pair<std::vector<long long>, long long> sort_count(const std::vector<long long>& values) {
    if (values.size() <= 1) {
        return {values, 0};
    }
    std::size_t mid = values.size() / 2;
    auto [left, a] = sort_count(std::vector<long long>(values.begin(), values.begin() + mid));
    auto [right, b] = sort_count(std::vector<long long>(values.begin() + mid, values.end()));
    auto [merged, c] = merge(left, right);
    return {merged, a + b + c};
}

int main() {
    std::size_t n;
    std::cin >> n;  // n: the values that follow are all there is
    std::vector<long long> values;
    long long v;
    while (std::cin >> v) {
        values.push_back(v);
    }
    auto [ordered, inversions] = sort_count(values);
    std::cout << inversions << "\n";
    std::string line;
    for (long long value : ordered) {
        if (!line.empty()) line += ' ';
        line += std::to_string(value);
    }
    std::cout << line << "\n";
    return 0;
}
