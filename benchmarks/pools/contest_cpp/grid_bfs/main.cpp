// Grid shortest path: H W, then H rows of '.' and '#'. Print the fewest steps from the top-left to the
// bottom-right cell moving through '.', or -1.
#include <bits/stdc++.h>
using namespace std;
#define rep(i, n) for (int i = 0; i < (int)(n); i++)
int main() {
    int h, w;
    cin >> h >> w;
    vector<string> g(h);
    rep(i, h) cin >> g[i];
    vector<vector<int>> dist(h, vector<int>(w, -1));
    queue<pair<int, int>> q;
    if (g[0][0] == '.') dist[0][0] = 0, q.push({0, 0});
    const int dx[] = {1, -1, 0, 0}, dy[] = {0, 0, 1, -1};
    while (!q.empty()) {
        auto [x, y] = q.front();
        q.pop();
        rep(k, 4) {
            int nx = x + dx[k], ny = y + dy[k];
            if (nx < 0 || ny < 0 || nx >= h || ny >= w || g[nx][ny] != '.' || dist[nx][ny] >= 0) continue;
            dist[nx][ny] = dist[x][y] + 1;
            q.push({nx, ny});
        }
    }
    cout << dist[h - 1][w - 1] << '\n';
}
