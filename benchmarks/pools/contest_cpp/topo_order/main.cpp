// Task order: N M, then M lines a b ("a before b", 1-based; others ignored). Print the smallest order
// in dictionary order that keeps every rule, or -1 when there is none.
#line 1 "main.cpp"
#include <bits/stdc++.h>
#line 1 "lib/macros.hpp"
#define rep(i, n) for (int i = 0; i < (int)(n); i++)
#define all(v) (v).begin(), (v).end()
using ll = long long;
#line 3 "main.cpp"
using namespace std;
int main() {
    int n, m;
    cin >> n >> m;
    vector<vector<int>> g(n);
    vector<int> indeg(n, 0);
    rep(i, m) {
        int a, b;
        cin >> a >> b;
        if (a < 1 || b < 1 || a > n || b > n) continue;
        g[a - 1].push_back(b - 1);
        indeg[b - 1]++;
    }
    priority_queue<int, vector<int>, greater<int>> pq;
    rep(i, n) if (indeg[i] == 0) pq.push(i);
    vector<int> order;
    while (!pq.empty()) {
        int u = pq.top();
        pq.pop();
        order.push_back(u + 1);
        for (int v : g[u])
            if (--indeg[v] == 0) pq.push(v);
    }
    if ((int)order.size() < n) {
        cout << -1 << '\n';
        return 0;
    }
    rep(i, n) cout << order[i] << (i + 1 == n ? '\n' : ' ');
}
