// Count the ways to decode digit strings where 1 -> A, ..., 26 -> Z.
//
// Input: one digit string per line. Output, per line: the number of decodings modulo 1000000007
// ("0" if the string cannot be decoded at all).
#include <cstddef>
#include <iostream>
#include <string>

const long long MOD = 1000000007;

// Ways to split `digits` into codes 1..26, modulo MOD.
long long count_decodings(const std::string& digits) {
    if (digits.empty() || digits[0] == '0') {
        return 0;
    }
    long long prev = 1, cur = 1;  // ways for the prefixes of length i-2 and i-1
    std::size_t i = 0;            // the position read; like a Python loop variable it keeps its last value
    for (std::size_t at = 1; at < digits.size() && ((i = at), true); at++) {
        long long ways = 0;
        if (digits[i] != '0') {
            ways = cur;
        }
        std::string pair = digits.substr(i - 1, 2);
        if ("10" <= pair && pair <= "26") {
            ways = (ways + prev) % MOD;
        }
        if (ways == 0) {
            return 0;
        }
        prev = cur;
        cur = ways;
    }
    return cur;
}

int main() {
    std::string line;
    while (std::cin >> line) {
        std::cout << count_decodings(line) << "\n";
    }
    return 0;
}
