// Primes: Q, then Q integers x (x <= 10^6). For each print the number of primes <= x.
#include <bits/stdc++.h>
using namespace std;
#define rep(i, n) for (int i = 0; i < (int)(n); i++)
int main() {
    int q;
    cin >> q;
    vector<int> xs(q);
    int top = 2;
    rep(i, q) cin >> xs[i], xs[i] = max(0, min(xs[i], 1000000)), top = max(top, xs[i]);
    vector<char> composite(top + 1, 0);
    vector<int> count(top + 1, 0);
    for (int p = 2; p <= top; p++) {
        count[p] = count[p - 1] + !composite[p];
        if (!composite[p])
            for (long long m = 1LL * p * p; m <= top; m += p) composite[m] = 1;
    }
    rep(i, q) cout << count[xs[i]] << '\n';
}
