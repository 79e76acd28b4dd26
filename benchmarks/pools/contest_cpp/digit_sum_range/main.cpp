// Digit sums: N A B. Print the sum of the integers in 1..N whose digit sum lies in A..B.
#include <bits/stdc++.h>
using namespace std;
int main() {
    long long n, a, b;
    cin >> n >> a >> b;
    n = min(n, 2000000LL);
    long long total = 0;
    for (long long i = 1; i <= n; i++) {
        long long s = 0;
        for (long long x = i; x > 0; x /= 10) s += x % 10;
        if (a <= s && s <= b) total += i;
    }
    cout << total << '\n';
}
