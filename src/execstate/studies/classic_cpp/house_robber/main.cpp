// Circular house robber: best total from houses on a ring, no two neighbours.
//
// Input: n, then on one line the n non-negative amounts around a circle (house n is next to house
// 1). Output: the best total, then the 1-based houses of one best plan.
#include <algorithm>
#include <cstddef>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

// Best total of a non-adjacent selection from a row, and the chosen indices.
std::pair<long long, std::vector<std::size_t>> rob_line(const std::vector<long long>& values) {
    long long take = 0, skip = 0;
    std::vector<bool> robbed;
    for (long long v : values) {
        // take: best with this house robbed; skip: best with it left alone.
        long long taken = skip + v;
        skip = std::max(take, skip);
        take = taken;
        robbed.push_back(take > skip);
    }
    std::vector<std::size_t> chosen;
    bool robbing = robbed.back();
    for (std::size_t i = values.size(); i-- > 0;) {
        if (robbing) {
            chosen.push_back(i);
            robbing = false;
        } else {
            robbing = i > 0 && robbed[i - 1];
        }
    }
    std::reverse(chosen.begin(), chosen.end());
    return {std::max(take, skip), chosen};
}

std::pair<long long, std::vector<std::size_t>> rob_ring(const std::vector<long long>& values) {
    if (values.size() == 1) {
        return {values[0], {0}};
    }
    // Either the last house is left alone, or the first one is.
    auto [without_last, plan_a] = rob_line(std::vector<long long>(values.begin(), values.end() - 1));
    auto [without_first, plan_b] = rob_line(std::vector<long long>(values.begin() + 1, values.end()));
    if (without_last >= without_first) {
        return {without_last, plan_a};
    }
    for (std::size_t& i : plan_b) {
        i += 1;
    }
    return {without_first, plan_b};
}

int main() {
    std::size_t n;
    std::cin >> n;  // n: the values that follow are all there is
    std::vector<long long> values;
    long long v;
    while (std::cin >> v) {
        values.push_back(v);
    }
    auto [total, plan] = rob_ring(values);
    std::cout << total << "\n";
    std::string line;
    for (std::size_t i : plan) {
        if (!line.empty()) line += ' ';
        line += std::to_string(i + 1);
    }
    std::cout << line << "\n";
    return 0;
}
