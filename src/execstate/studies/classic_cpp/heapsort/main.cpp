// Heapsort with an explicit sift-down on a max-heap.
//
// Input: n, then the n integers on one line. Output: the values in ascending order, then the number
// of swaps made while building the heap and while extracting.
#include <cstddef>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

// Restore the max-heap property below `root` within a[0..end); return the swap count.
long long sift_down(std::vector<long long>& a, long long root, long long end) {
    long long swaps = 0;
    while (2 * root + 1 < end) {
        long long child = 2 * root + 1;
        if (child + 1 < end && a[child + 1] > a[child]) {
            child += 1;  // take the larger child
        }
        if (a[root] >= a[child]) {
            break;
        }
        std::swap(a[root], a[child]);
        root = child;
        swaps += 1;
    }
    return swaps;
}

std::pair<long long, long long> heapsort(std::vector<long long>& a) {
    long long n = static_cast<long long>(a.size());
    long long build = 0;
    for (long long start = n / 2 - 1; start >= 0; start--) {
        build += sift_down(a, start, n);
    }
    long long extract = 0;
    for (long long end = n - 1; end > 0; end--) {
        std::swap(a[0], a[end]);
        extract += sift_down(a, 0, end);
    }
    return {build, extract};
}

int main() {
    std::size_t n;
    std::cin >> n;  // n: the values that follow are all there is
    std::vector<long long> values;
    long long v;
    while (std::cin >> v) {
        values.push_back(v);
    }
    auto [build, extract] = heapsort(values);
    std::string line;
    for (long long value : values) {
        if (!line.empty()) line += ' ';
        line += std::to_string(value);
    }
    std::cout << line << "\n";
    std::cout << "build swaps " << build << "\n";
    std::cout << "extract swaps " << extract << "\n";
    return 0;
}
