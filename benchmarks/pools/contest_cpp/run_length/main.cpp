// Run-length encoding: a string S. Print each run as the letter and its length, e.g. aaab -> a3b1.
#include <bits/stdc++.h>
using namespace std;
int main() {
    string s;
    cin >> s;
    string out;
    size_t i = 0;
    while (i < s.size()) {
        size_t j = i;
        while (j < s.size() && s[j] == s[i]) j++;
        out += s[i];
        out += to_string(j - i);
        i = j;
    }
    cout << out << '\n';
}
