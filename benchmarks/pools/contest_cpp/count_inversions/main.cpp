// Inversions: N, then N integers. Print the number of pairs i < j with a_i > a_j (Fenwick tree).
#line 1 "main.cpp"
#include <bits/stdc++.h>
#line 1 "lib/fenwick.hpp"
template <class T> struct Fenwick {
    int n;
    std::vector<T> d;
    explicit Fenwick(int n) : n(n), d(n + 1) {}
    void add(int i, T v) { for (++i; i <= n; i += i & -i) d[i] += v; }
    T sum(int i) const { T s = 0; for (; i > 0; i -= i & -i) s += d[i]; return s; }
};
#line 3 "main.cpp"
using namespace std;
int main() {
    int n;
    cin >> n;
    vector<long long> a(n);
    for (auto& x : a) cin >> x;
    vector<long long> v = a;
    sort(v.begin(), v.end());
    v.erase(unique(v.begin(), v.end()), v.end());
    Fenwick<long long> fw(v.size());
    long long inv = 0;
    for (int i = 0; i < n; i++) {
        int r = lower_bound(v.begin(), v.end(), a[i]) - v.begin();
        inv += i - fw.sum(r + 1);
        fw.add(r, 1);
    }
    cout << inv << '\n';
}
