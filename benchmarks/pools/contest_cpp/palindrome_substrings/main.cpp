// Palindromic substrings: a string S. Print how many (start, end) pairs give a palindrome.
#include <bits/stdc++.h>
using namespace std;
#define rep(i, n) for (int i = 0; i < (int)(n); i++)
int main() {
    string s;
    cin >> s;
    int n = s.size();
    long long total = 0;
    rep(c, 2 * n - 1) {
        int l = c / 2, r = l + c % 2;
        while (l >= 0 && r < n && s[l] == s[r]) total++, l--, r++;
    }
    cout << total << '\n';
}
