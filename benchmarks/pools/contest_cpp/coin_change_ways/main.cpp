// Coin change: N X, then N coin values (1..X). Print the number of multisets of coins summing to X,
// modulo 998244353.
#include <bits/stdc++.h>
using namespace std;
const long long MOD = 998244353;
int main() {
    int n, x;
    cin >> n >> x;
    vector<long long> ways(x + 1, 0);
    ways[0] = 1;
    for (int i = 0; i < n; i++) {
        int c;
        cin >> c;
        for (int s = c; s <= x; s++) ways[s] = (ways[s] + ways[s - c]) % MOD;
    }
    cout << ways[x] << '\n';
}
