// Single-source shortest paths with Dijkstra's algorithm and a binary heap.
//
// Input: n and m, then m directed edges "u v w" (nodes 1..n, w >= 0), then a source and a target
// node. Output: the distances from the source to nodes 1..n on one line ("-" for unreachable
// nodes), then a shortest path to the target (the one recorded by the first strict improvement of
// each node's distance), or "no path".
#include <algorithm>
#include <cstddef>
#include <functional>
#include <iostream>
#include <queue>
#include <string>
#include <utility>
#include <vector>

using Edge = std::pair<long long, long long>;  // (to, weight)

struct Paths {
    std::vector<long long> dist;    // -1: unreachable
    std::vector<long long> parent;  // -1: none
};

Paths shortest_paths(const std::vector<std::vector<Edge>>& adjacency, long long source) {
    std::vector<long long> dist(adjacency.size(), -1);
    std::vector<long long> parent(adjacency.size(), -1);
    dist[source] = 0;
    // A min-heap of (distance, node), like Python's heapq of tuples.
    std::priority_queue<std::pair<long long, long long>, std::vector<std::pair<long long, long long>>,
                        std::greater<>>
        heap;
    heap.emplace(0, source);
    long long settled = 0;
    long long stale = 0;
    while (!heap.empty()) {
        auto [d, u] = heap.top();
        heap.pop();
        if (d > dist[u]) {
            stale += 1;  // an outdated entry: u was reached more cheaply later
            continue;
        }
        settled += 1;
        for (const auto& [v, w] : adjacency[u]) {
            if (dist[v] < 0 || d + w < dist[v]) {
                dist[v] = d + w;
                parent[v] = u;
                heap.emplace(d + w, v);
            }
        }
    }
    return {dist, parent};
}

std::vector<long long> path_to(const std::vector<long long>& parent, long long source, long long target) {
    std::vector<long long> path = {target};
    while (path.back() != source) {
        path.push_back(parent[path.back()]);
    }
    std::reverse(path.begin(), path.end());
    return path;
}

int main() {
    long long n, m;
    std::cin >> n >> m;
    std::vector<std::vector<Edge>> adjacency(n + 1);
    for (long long e = 0; e < m; e++) {
        long long u, v, w;
        std::cin >> u >> v >> w;
        if (w < 0) {
            std::cerr << "edge " << u << "->" << v << " has negative weight " << w << "; Dijkstra needs w >= 0\n";
            return 1;
        }
        adjacency[u].emplace_back(v, w);
    }
    long long source, target;
    std::cin >> source >> target;
    if (!(1 <= source && source <= n && 1 <= target && target <= n)) {
        std::cerr << "source and target must be nodes 1.." << n << "\n";
        return 1;
    }
    Paths paths = shortest_paths(adjacency, source);
    std::string line;
    for (long long v = 1; v <= n; v++) {
        if (v > 1) line += ' ';
        line += paths.dist[v] < 0 ? "-" : std::to_string(paths.dist[v]);
    }
    std::cout << line << "\n";
    if (paths.dist[target] < 0) {
        std::cout << "no path\n";
    } else {
        std::cout << "path";
        for (long long v : path_to(paths.parent, source, target)) {
            std::cout << " " << v;
        }
        std::cout << "\n";
    }
    return 0;
}
