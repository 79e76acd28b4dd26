// Area and lattice-point counts of a simple lattice polygon (shoelace + Pick).
//
// Input: n, then the n vertices "x y" of a simple polygon in order, one per line. Output: the
// orientation ("counter-clockwise" or "clockwise"), the area, the number of lattice points on the
// boundary and the number strictly inside.
#include <cstdlib>
#include <iostream>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

// (twice the signed area, lattice points on the boundary).
std::pair<long long, long long> measure(const std::vector<std::pair<long long, long long>>& vertices) {
    long long n = static_cast<long long>(vertices.size());
    long long twice_area = 0;
    long long boundary = 0;
    for (long long i = 0; i < n; i++) {
        auto [x1, y1] = vertices[i];
        auto [x2, y2] = vertices[(i + 1) % n];
        if (x1 == x2 && y1 == y2) {
            std::cerr << "vertex " << i + 1 << " repeats: (" << x1 << ", " << y1 << ")\n";
            std::exit(1);
        }
        twice_area += x1 * y2 - x2 * y1;
        // An edge from (x1, y1) to (x2, y2) passes gcd(|dx|, |dy|) lattice steps.
        boundary += std::gcd(std::llabs(x2 - x1), std::llabs(y2 - y1));
    }
    return {twice_area, boundary};
}

// Python's floor division (rounds towards minus infinity).
long long floor_div(long long a, long long b) {
    long long q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

// twice / 2 as text: an integer or a number ending in .5.
std::string format_half(long long twice) {
    return twice % 2 == 0 ? std::to_string(floor_div(twice, 2)) : std::to_string(floor_div(twice, 2)) + ".5";
}

int main() {
    long long n;
    std::cin >> n;
    std::vector<std::pair<long long, long long>> vertices(n);
    for (auto& [x, y] : vertices) {
        std::cin >> x >> y;
    }
    if (n < 3) {
        std::cerr << "a polygon needs at least 3 vertices\n";
        return 1;
    }
    auto [twice_area, boundary] = measure(vertices);
    std::cout << (twice_area > 0 ? "counter-clockwise" : "clockwise") << "\n";
    twice_area = std::llabs(twice_area);
    // Pick's theorem: A = I + B/2 - 1, so 2I = 2A - B + 2.
    long long interior = floor_div(twice_area - boundary + 2, 2);
    std::cout << "area " << format_half(twice_area) << "\n";
    std::cout << "boundary " << boundary << "\n";
    std::cout << "interior " << interior << "\n";
    return 0;
}
