// Shortest roads: N M, then M lines u v c (1-based towns, c >= 0; a road naming no town is ignored).
// Print the distance from town 1 to every town, -1 when unreachable.
#line 1 "main.cpp"
#include <bits/stdc++.h>
#line 1 "lib/graph.hpp"
struct Edge { int to; long long cost; };
using Graph = std::vector<std::vector<Edge>>;
#line 1 "lib/dijkstra.hpp"
std::vector<long long> dijkstra(const Graph& g, int s) {
    std::vector<long long> d(g.size(), -1);
    std::priority_queue<std::pair<long long, int>, std::vector<std::pair<long long, int>>, std::greater<>> pq;
    d[s] = 0;
    pq.push({0, s});
    while (!pq.empty()) {
        auto [du, u] = pq.top();
        pq.pop();
        if (du != d[u]) continue;
        for (const Edge& e : g[u])
            if (d[e.to] < 0 || d[e.to] > du + e.cost) d[e.to] = du + e.cost, pq.push({d[e.to], e.to});
    }
    return d;
}
#line 3 "main.cpp"
using namespace std;
int main() {
    int n, m;
    cin >> n >> m;
    Graph g(max(n, 1));
    for (int i = 0; i < m; i++) {
        int u, v;
        long long c;
        cin >> u >> v >> c;
        if (u < 1 || v < 1 || u > n || v > n) continue;
        g[u - 1].push_back({v - 1, llabs(c)});
        g[v - 1].push_back({u - 1, llabs(c)});
    }
    auto d = dijkstra(g, 0);
    for (int i = 0; i < n; i++) cout << d[i] << (i + 1 == n ? '\n' : ' ');
}
