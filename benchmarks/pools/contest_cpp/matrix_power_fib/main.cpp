// Fibonacci queries: Q, then Q integers n (0 <= n <= 10^18). Print F(n) mod 10^9+7 for each.
#include <bits/stdc++.h>
using namespace std;
using ll = long long;
const ll MOD = 1000000007;
using M = array<array<ll, 2>, 2>;
M mul(const M& a, const M& b) {
    M c{};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) c[i][j] = (a[i][0] * b[0][j] + a[i][1] * b[1][j]) % MOD;
    return c;
}
int main() {
    int q;
    cin >> q;
    while (q--) {
        ll n;
        cin >> n;
        n = max(0LL, n);
        M r{{{1, 0}, {0, 1}}}, b{{{1, 1}, {1, 0}}};
        while (n > 0) {
            if (n & 1) r = mul(r, b);
            b = mul(b, b);
            n >>= 1;
        }
        cout << r[0][1] << '\n';
    }
}
