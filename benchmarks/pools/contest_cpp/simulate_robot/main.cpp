// Robot: a string of moves over L, R, U, D. Print the final position and how many distinct cells were
// visited (the start included).
#include <bits/stdc++.h>
using namespace std;
int main() {
    string s;
    cin >> s;
    long long x = 0, y = 0;
    set<pair<long long, long long>> seen{{0, 0}};
    for (size_t i = 0; i < s.size(); i++) {
        char c = s[i];
        if (c == 'L') x--;
        else if (c == 'R') x++;
        else if (c == 'U') y++;
        else if (c == 'D') y--;
        seen.insert({x, y});
    }
    cout << x << ' ' << y << ' ' << seen.size() << '\n';
}
