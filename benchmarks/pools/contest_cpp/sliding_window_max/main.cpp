// Window maxima: N K, then N integers. Print the maximum of every window of K consecutive values
// (K is clamped into 1..N).
#include <bits/stdc++.h>
using namespace std;
#define rep(i, n) for (int i = 0; i < (int)(n); i++)
int main() {
    int n, k;
    cin >> n >> k;
    k = max(1, min(k, n));
    vector<long long> a(n);
    rep(i, n) cin >> a[i];
    deque<int> dq;
    vector<long long> out;
    rep(i, n) {
        while (!dq.empty() && a[dq.back()] <= a[i]) dq.pop_back();
        dq.push_back(i);
        if (dq.front() <= i - k) dq.pop_front();
        if (i >= k - 1) out.push_back(a[dq.front()]);
    }
    rep(i, (int)out.size()) cout << out[i] << (i + 1 == (int)out.size() ? '\n' : ' ');
}
