// Minimum spanning forest with Kruskal's algorithm and union-find.
//
// Input: n and m, then m undirected edges "u v w", one per line (nodes 1..n). Output: the total
// weight of a minimum spanning forest, the number of edges in it and the number of connected
// components.
#include <algorithm>
#include <cstddef>
#include <iostream>
#include <numeric>
#include <tuple>
#include <utility>
#include <vector>

// Union-find with path halving and union by size.
class DisjointSets {
public:
    explicit DisjointSets(long long n) : parent_(n + 1), size_(n + 1, 1) {
        std::iota(parent_.begin(), parent_.end(), 0);
    }

    long long find(long long x) {
        while (parent_[x] != x) {
            parent_[x] = parent_[parent_[x]];
            x = parent_[x];
        }
        return x;
    }

    bool unite(long long a, long long b) {
        a = find(a);
        b = find(b);
        if (a == b) {
            return false;
        }
        if (size_[a] < size_[b]) {
            std::swap(a, b);
        }
        parent_[b] = a;
        size_[a] += size_[b];
        return true;
    }

private:
    std::vector<long long> parent_;
    std::vector<long long> size_;
};

std::pair<long long, long long> spanning_forest(long long n,
                                                std::vector<std::tuple<long long, long long, long long>>& edges) {
    DisjointSets sets(n);
    long long total = 0;
    long long used = 0;
    std::sort(edges.begin(), edges.end());  // by weight; ties by endpoints, so the result never depends on input order
    for (const auto& [w, u, v] : edges) {
        if (used == n - 1) {
            break;  // a spanning tree is complete; no later edge can join anything
        }
        if (sets.unite(u, v)) {
            total += w;
            used += 1;
        }
    }
    return {total, used};
}

int main() {
    long long n, m;
    std::cin >> n >> m;
    std::vector<std::tuple<long long, long long, long long>> edges;  // (w, u, v)
    for (long long e = 0; e < m; e++) {
        long long u, v, w;
        std::cin >> u >> v >> w;
        edges.emplace_back(w, u, v);
    }
    auto [total, used] = spanning_forest(n, edges);
    std::cout << "weight " << total << "\n";
    std::cout << "edges " << used << "\n";
    std::cout << "components " << n - used << "\n";
    return 0;
}
