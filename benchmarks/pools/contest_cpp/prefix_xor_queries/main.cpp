// XOR ranges: N Q, then N integers, then Q lines l r (1-based, clamped into 1..N). Print a_l ^ ... ^ a_r
// for each (0 when l > r).
#line 1 "main.cpp"
#include <bits/stdc++.h>
#line 1 "lib/io.hpp"
namespace io {
template <class T> void read(T& x) { std::cin >> x; }
template <class T> void writeln(const T& x) { std::cout << x << '\n'; }
}  // namespace io
#line 3 "main.cpp"
using namespace std;
#define rep(i, n) for (int i = 0; i < (int)(n); i++)
int main() {
    int n, q;
    io::read(n), io::read(q);
    vector<long long> px(n + 1, 0);
    rep(i, n) {
        long long v;
        io::read(v);
        px[i + 1] = px[i] ^ v;
    }
    rep(j, q) {
        int l, r;
        io::read(l), io::read(r);
        l = max(1, min(l, n)), r = max(1, min(r, n));
        io::writeln(l <= r ? px[r] ^ px[l - 1] : 0LL);
    }
}
