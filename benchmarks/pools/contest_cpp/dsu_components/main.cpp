// Components: N M, then M lines u v (1 <= u, v <= N; others ignored). After each road print the number
// of connected components.
#line 1 "main.cpp"
#include <bits/stdc++.h>
#line 1 "lib/dsu.hpp"
struct DSU {
    std::vector<int> p;
    int groups;
    explicit DSU(int n) : p(n, -1), groups(n) {}
    int find(int x) { return p[x] < 0 ? x : p[x] = find(p[x]); }
    bool unite(int a, int b) {
        a = find(a), b = find(b);
        if (a == b) return false;
        if (p[a] > p[b]) std::swap(a, b);
        p[a] += p[b], p[b] = a, --groups;
        return true;
    }
};
#line 3 "main.cpp"
using namespace std;
#define rep(i, n) for (int i = 0; i < (int)(n); i++)
int main() {
    int n, m;
    cin >> n >> m;
    DSU d(max(n, 1));
    rep(i, m) {
        int u, v;
        cin >> u >> v;
        if (1 <= u && u <= n && 1 <= v && v <= n) d.unite(u - 1, v - 1);
        cout << d.groups << '\n';
    }
}
