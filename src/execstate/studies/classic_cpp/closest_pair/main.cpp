// Closest pair of points with a sweep over points sorted by x.
//
// Input: n, then n integer points "x y", one per line. Output: the smallest squared distance
// between two of the points, the distance itself to 6 decimals, and the number of candidate pairs
// the sweep actually compared.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <iostream>
#include <optional>
#include <utility>
#include <vector>

using Point = std::pair<long long, long long>;

// (the smallest squared distance, the number of pairs compared).
std::pair<long long, long long> closest(std::vector<Point> pts) {
    std::sort(pts.begin(), pts.end());
    std::optional<long long> best;  // none until a first pair is compared
    std::size_t left = 0;
    long long compared = 0;
    for (std::size_t i = 0; i < pts.size(); i++) {
        auto [x, y] = pts[i];
        // Points more than sqrt(best) to the left can never beat the current best.
        while (best && left < i && (x - pts[left].first) * (x - pts[left].first) >= *best) {
            left += 1;
        }
        for (std::size_t j = left; j < i; j++) {
            auto [px, py] = pts[j];
            long long d = (x - px) * (x - px) + (y - py) * (y - py);
            compared += 1;
            if (!best || d < *best) {
                best = d;
            }
        }
    }
    return {*best, compared};
}

int main() {
    std::size_t n;
    std::cin >> n;
    if (n < 2) {
        std::cerr << "need at least two points\n";
        return 1;
    }
    std::vector<Point> points(n);
    for (Point& point : points) {
        std::cin >> point.first >> point.second;
    }
    auto [best, compared] = closest(points);
    std::cout << "squared " << best << "\n";
    char text[64];
    std::snprintf(text, sizeof text, "distance %.6f", std::sqrt(static_cast<double>(best)));
    std::cout << text << "\n";
    std::cout << "compared " << compared << "\n";
    return 0;
}
