// Point add, range sum: N Q, then N integers, then Q lines "t a b": t = 0 adds b to a_a (1-based),
// t = 1 prints a_a + ... + a_b. Out-of-range indices are clamped into 1..N; l > r prints 0.
#line 1 "main.cpp"
#include <bits/stdc++.h>
#line 1 "lib/bit.hpp"
struct BIT {
    int n;
    std::vector<long long> t;
    explicit BIT(int n) : n(n), t(n + 1, 0) {}
    void add(int i, long long v) { for (; i <= n; i += i & -i) t[i] += v; }
    long long pre(int i) const { long long s = 0; for (; i > 0; i -= i & -i) s += t[i]; return s; }
};
#line 3 "main.cpp"
using namespace std;
#define rep(i, n) for (int i = 0; i < (int)(n); i++)
int main() {
    int n, q;
    cin >> n >> q;
    BIT bit(n);
    rep(i, n) {
        long long x;
        cin >> x;
        bit.add(i + 1, x);
    }
    auto clampi = [&](int i) { return max(1, min(i, n)); };
    rep(j, q) {
        int t, a;
        long long b;
        cin >> t >> a >> b;
        if (t == 0) bit.add(clampi(a), b);
        else {
            int l = clampi(a), r = clampi((int)b);
            cout << (l <= r ? bit.pre(r) - bit.pre(l - 1) : 0) << '\n';
        }
    }
}
