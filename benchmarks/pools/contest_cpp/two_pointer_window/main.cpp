// Longest window: N K, then N non-negative integers. Print the length of the longest contiguous block
// whose sum is at most K.
#include <bits/stdc++.h>
using namespace std;
using ll = long long;
int main() {
    int n;
    ll k;
    cin >> n >> k;
    vector<ll> a(n);
    for (auto& x : a) cin >> x, x = llabs(x);
    int best = 0, l = 0;
    ll sum = 0;
    for (int r = 0; r < n; r++) {
        sum += a[r];
        while (l <= r && sum > k) sum -= a[l++];
        best = max(best, r - l + 1);
    }
    cout << best << '\n';
}
