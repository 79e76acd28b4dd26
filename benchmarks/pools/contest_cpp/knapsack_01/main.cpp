// 0/1 knapsack: N W, then N lines w v (1 <= w <= W <= 10^4). Print the best total value.
#include <bits/stdc++.h>
using namespace std;
#define rep(i, n) for (int i = 0; i < (int)(n); i++)
using ll = long long;
int main() {
    int n, cap;
    cin >> n >> cap;
    vector<ll> dp(cap + 1, 0);
    rep(i, n) {
        int w;
        ll v;
        cin >> w >> v;
        for (int c = cap; c >= w; c--) dp[c] = max(dp[c], dp[c - w] + v);
    }
    cout << dp[cap] << '\n';
}
