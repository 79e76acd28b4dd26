// Painted cells: N, then N lines l r (cells l..r inclusive, any order). Print how many distinct cells are painted.
#include <bits/stdc++.h>
using namespace std;
#define rep(i, n) for (int i = 0; i < (int)(n); i++)
typedef long long ll;

int main() {
    int n;
    cin >> n;
    vector<pair<ll, ll>> iv(n);
    rep(i, n) {
        cin >> iv[i].first >> iv[i].second;
        if (iv[i].first > iv[i].second) swap(iv[i].first, iv[i].second);
    }
    sort(iv.begin(), iv.end());
    ll total = 0, end = LLONG_MIN;
    rep(i, n) {
        auto [l, r] = iv[i];
        if (r <= end) continue;
        total += r - max(l, end + 1) + 1;
        end = r;
    }
    cout << total << '\n';
}
