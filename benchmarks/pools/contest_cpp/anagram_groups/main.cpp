// Anagram pairs: N, then N lowercase words. Print how many pairs of words are anagrams of each other.
#line 1 "main.cpp"
#include <bits/stdc++.h>
#line 1 "lib/template.hpp"
using namespace std;
#define rep(i, n) for (int i = 0; i < (int)(n); i++)
template <class T> inline bool chmax(T& a, const T& b) { return a < b ? (a = b, true) : false; }
#line 3 "main.cpp"
int main() {
    int n;
    cin >> n;
    map<string, long long> seen;
    long long pairs = 0, biggest = 0;
    rep(i, n) {
        string w;
        cin >> w;
        sort(w.begin(), w.end());
        pairs += seen[w]++;
        chmax(biggest, seen[w]);
    }
    cout << pairs << '\n';
}
