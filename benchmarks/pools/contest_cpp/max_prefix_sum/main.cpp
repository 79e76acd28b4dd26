// Max prefix sum: N, then N integers a_i (|a_i| <= 10^9). Print max(0, max over k of a_1 + ... + a_k).
#include <bits/stdc++.h>
using namespace std;
#define rep(i, n) for (int i = 0; i < (int)(n); i++)
using ll = long long;
int main() {
    int n;
    cin >> n;
    ll s = 0, best = 0;
    rep(i, n) {
        ll x;
        cin >> x;
        s += x;
        best = max(best, s);
    }
    cout << best << '\n';
}
