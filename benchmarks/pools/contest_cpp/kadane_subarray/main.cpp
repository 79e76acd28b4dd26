// Maximum subarray sum: N, then N integers. Print the largest sum of a non-empty contiguous block.
#include <bits/stdc++.h>
using namespace std;
using ll = long long;
int main() {
    int n;
    cin >> n;
    vector<ll> a(n);
    for (auto& x : a) cin >> x;
    ll cur = LLONG_MIN / 4, best = LLONG_MIN / 4;
    for (int i = 0; i < n; i++) {
        cur = max(a[i], cur + a[i]);
        best = max(best, cur);
    }
    cout << (n ? best : 0) << '\n';
}
