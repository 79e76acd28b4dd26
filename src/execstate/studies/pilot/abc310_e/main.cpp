// AtCoder abc310_e (the SPEC's worked example, Figure 1 of the paper), in C++.
#include <iostream>
#include <string>

int main() {
    long long N;
    std::string S;
    std::cin >> N >> S;
    long long cnt0 = 0, cnt1 = 0;
    long long dp0 = 0, dp1 = 0;
    long long ans = 0;
    for (char ch : S) {
        if (ch == '0') {
            dp0 = 1;
            dp1 = cnt0 + cnt1;
        } else {
            dp0 = cnt1;
            dp1 = cnt0 + 1;
        }
        ans += dp1;
        cnt0 = dp0;
        cnt1 = dp1;
    }
    std::cout << ans << std::endl;
    return 0;
}
