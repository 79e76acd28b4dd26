// Brackets: a string of '(' and ')'. Print the maximum nesting depth and the number of ')' that close
// nothing, separated by a space.
#include <bits/stdc++.h>
using namespace std;
int main() {
    string s;
    cin >> s;
    int depth = 0, best = 0, unmatched = 0;
    for (char c : s) {
        if (c == '(') best = max(best, ++depth);
        else if (depth > 0) depth--;
        else unmatched++;
    }
    cout << best << ' ' << unmatched << '\n';
}
