// Edit distance: two lowercase strings S and T, one per line. Print the fewest single-letter inserts,
// deletes and replacements that turn S into T.
#include <bits/stdc++.h>
using namespace std;
#define rep(i, n) for (int i = 0; i < (int)(n); i++)
int main() {
    string s, t;
    cin >> s >> t;
    int n = s.size(), m = t.size();
    vector<int> prev(m + 1), cur(m + 1);
    rep(j, m + 1) prev[j] = j;
    rep(i, n) {
        cur[0] = i + 1;
        rep(j, m) cur[j + 1] = min({prev[j + 1] + 1, cur[j] + 1, prev[j] + (s[i] != t[j])});
        swap(prev, cur);
    }
    cout << prev[m] << '\n';
}
