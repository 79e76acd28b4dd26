// Frog: N, then N heights. The frog jumps from stone i to i+1 or i+2 at cost |h_i - h_j|. Print the least
// total cost from the first stone to the last.
#include <bits/stdc++.h>
using namespace std;
#define rep(i, n) for (int i = 0; i < (int)(n); i++)
using ll = long long;

int main() {
    int n;
    scanf("%d", &n);
    vector<ll> h(n);
    rep(i, n) cin >> h[i];
    vector<ll> dp(n, LLONG_MAX / 2);
    dp[0] = 0;
    for (int i = 1; i < n; i++) {
        dp[i] = dp[i - 1] + llabs(h[i] - h[i - 1]);
        if (i >= 2) dp[i] = min(dp[i], dp[i - 2] + llabs(h[i] - h[i - 2]));
    }
    cout << dp[n - 1] << '\n';
}
