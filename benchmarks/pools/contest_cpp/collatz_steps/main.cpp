// Collatz: Q, then Q positive integers x (<= 10^12). For each, print the steps to reach 1.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int q;
    cin >> q;
    for (int k = 0; k < q; k++) {
        long long x;
        cin >> x;
        x = max(1LL, x);
        int steps = 0;
        while (x != 1) {
            x = x % 2 ? 3 * x + 1 : x / 2;
            steps++;
        }
        cout << steps << '\n';
    }
}
