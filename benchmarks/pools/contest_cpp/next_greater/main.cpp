// Next greater element: N, then N integers. For each position print the index (1-based) of the first
// later element that is strictly greater, or 0.
#include <bits/stdc++.h>
using namespace std;
#define rep(i, n) for (int i = 0; i < (int)(n); i++)
int main() {
    int n;
    cin >> n;
    vector<long long> a(n);
    rep(i, n) cin >> a[i];
    vector<int> ans(n, 0), st;
    rep(i, n) {
        while (!st.empty() && a[st.back()] < a[i]) {
            ans[st.back()] = i + 1;
            st.pop_back();
        }
        st.push_back(i);
    }
    rep(i, n) cout << ans[i] << (i + 1 == n ? '\n' : ' ');
    if (n == 0) cout << '\n';
}
