// Counting at most x: N Q, then N integers, then Q integers x. For each x print how many values are <= x.
#include <bits/stdc++.h>
using namespace std;
#define rep(i, n) for (int i = 0; i < (int)(n); i++)
int main() {
    int n, q;
    cin >> n >> q;
    vector<long long> a(n);
    rep(i, n) cin >> a[i];
    sort(a.begin(), a.end());
    rep(j, q) {
        long long x;
        cin >> x;
        cout << upper_bound(a.begin(), a.end(), x) - a.begin() << '\n';
    }
}
