// GCD of prefixes: N, then N positive integers. Print gcd(a_1..a_k) for every k, space-separated.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n;
    cin >> n;
    long long g = 0;
    vector<long long> out;
    for (int i = 0; i < n; i++) {
        long long x;
        cin >> x;
        g = gcd(g, llabs(x));
        out.push_back(g);
    }
    for (size_t i = 0; i < out.size(); i++) cout << out[i] << (i + 1 == out.size() ? "" : " ");
    cout << '\n';
}
