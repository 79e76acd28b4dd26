// Bits: N, then N non-negative integers. Print the total number of set bits and the XOR of all values.
#include <bits/stdc++.h>
using namespace std;
#define rep(i, n) for (int i = 0; i < (int)(n); i++)
int main() {
    int n;
    cin >> n;
    long long bits = 0;
    unsigned long long x = 0;
    rep(i, n) {
        unsigned long long v;
        long long raw;
        cin >> raw;
        v = (unsigned long long)llabs(raw);
        bits += __builtin_popcountll(v);
        x ^= v;
    }
    cout << bits << ' ' << x << '\n';
}
