// Shortest paths with negative edge weights: Bellman-Ford with early exit.
//
// Input: n and m, then m directed edges "u v w", one per line (nodes 1..n, w may be negative), then
// the source. Output: the number of rounds that changed something and the total number of
// successful relaxations, then the distance to each node ("inf" if unreachable), or "negative
// cycle" if one is reachable from the source.
#include <climits>
#include <cstddef>
#include <iostream>
#include <string>
#include <tuple>
#include <vector>

const long long INF = LLONG_MAX;  // not reached (yet)

struct Result {
    bool negative_cycle;
    std::vector<long long> dist;
    long long rounds, relaxations;
};

Result bellman_ford(long long n, const std::vector<std::tuple<long long, long long, long long>>& edges,
                    long long source) {
    std::vector<long long> dist(n + 1, INF);
    dist[source] = 0;
    long long rounds = 0;
    long long relaxations = 0;
    for (long long round_no = 1; round_no <= n; round_no++) {
        bool changed = false;
        for (const auto& [u, v, w] : edges) {
            if (dist[u] != INF && dist[u] + w < dist[v]) {
                dist[v] = dist[u] + w;
                relaxations += 1;
                changed = true;
            }
        }
        if (!changed) {
            return {false, dist, rounds, relaxations};
        }
        if (round_no == n) {
            // Still improving after n - 1 full rounds: some cycle is negative.
            return {true, dist, rounds, relaxations};
        }
        rounds = round_no;
    }
    return {false, dist, rounds, relaxations};
}

int main() {
    long long n, m;
    std::cin >> n >> m;
    std::vector<std::tuple<long long, long long, long long>> edges;
    for (long long e = 0; e < m; e++) {
        long long u, v, w;
        std::cin >> u >> v >> w;
        edges.emplace_back(u, v, w);
    }
    long long source;
    std::cin >> source;
    Result result = bellman_ford(n, edges, source);
    std::cout << "rounds " << result.rounds << " relaxations " << result.relaxations << "\n";
    if (result.negative_cycle) {
        std::cout << "negative cycle\n";
        return 0;
    }
    std::string line;
    for (long long v = 1; v <= n; v++) {
        if (v > 1) line += ' ';
        line += result.dist[v] == INF ? "inf" : std::to_string(result.dist[v]);
    }
    std::cout << line << "\n";
    return 0;
}
