// The Josephus problem, simulated.
//
// Input: n and k: people 1..n stand in a circle and, counting from person 1, every k-th remaining
// person leaves. Output: the survivor, the last three to leave (in order), and the position in
// which person 1 left.
#include <algorithm>
#include <cstddef>
#include <iostream>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

// The survivor and the order in which the others leave.
std::pair<long long, std::vector<long long>> eliminate(long long n, long long k) {
    std::vector<long long> circle(n);
    std::iota(circle.begin(), circle.end(), 1);
    std::vector<long long> order;
    long long idx = 0;
    std::optional<long long> last;  // the person who left last; none while nobody has
    while (circle.size() > 1) {
        idx = (idx + k - 1) % static_cast<long long>(circle.size());
        last = circle[idx];
        circle.erase(circle.begin() + idx);  // the next count starts at whoever now holds seat idx
        order.push_back(*last);
    }
    return {circle[0], order};
}

int main() {
    long long n, k;
    std::cin >> n >> k;
    if (n < 1 || k < 1) {
        std::cerr << "n and k must be positive\n";
        return 1;
    }
    auto [survivor, order] = eliminate(n, k);
    std::cout << "survivor " << survivor << "\n";
    std::cout << "last out";
    for (std::size_t i = order.size() > 3 ? order.size() - 3 : 0; i < order.size(); i++) {
        std::cout << " " << order[i];
    }
    std::cout << "\n";
    if (survivor == 1) {
        std::cout << "person 1 survives\n";
    } else {
        std::cout << "person 1 left at turn " << std::find(order.begin(), order.end(), 1) - order.begin() + 1 << "\n";
    }
    return 0;
}
