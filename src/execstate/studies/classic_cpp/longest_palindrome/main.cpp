// Longest palindromic substring by expanding around every center.
//
// Input: one line of lowercase letters. Output: the leftmost longest palindromic substring, its
// 0-based start, and the number of palindromic substrings of length at least 2 (counted by
// position, so repeats count).
#include <cctype>
#include <iostream>
#include <string>
#include <tuple>

std::tuple<long long, long long, long long> palindromes(const std::string& text) {
    long long n = static_cast<long long>(text.size());
    long long best_start = 0, best_len = n ? 1 : 0;
    long long count = 0;
    for (long long center = 0; center < 2 * n - 1; center++) {
        // Even centers sit on a letter, odd centers between two letters.
        long long lo = center / 2;
        long long hi = lo + center % 2;
        while (lo >= 0 && hi < n && text[lo] == text[hi]) {
            if (hi > lo) {
                count += 1;
            }
            lo -= 1;
            hi += 1;
        }
        long long length = hi - lo - 1;
        if (length > best_len) {
            best_start = lo + 1;
            best_len = length;
        }
    }
    return {best_start, best_len, count};
}

int main() {
    std::string text;
    std::getline(std::cin, text);
    const char* blank = " \t\n\r\f\v";
    std::size_t first = text.find_first_not_of(blank);
    text = first == std::string::npos ? "" : text.substr(first, text.find_last_not_of(blank) - first + 1);
    bool letters = !text.empty();
    for (char ch : text) {
        letters = letters && std::isalpha(static_cast<unsigned char>(ch));
    }
    if (!letters) {
        std::cerr << "expected one line of letters\n";
        return 1;
    }
    auto [start, length, count] = palindromes(text);
    if (length < 2) {
        std::cout << "no palindrome longer than one letter\n";
        return 0;
    }
    std::cout << text.substr(start, length) << "\n";
    std::cout << start << "\n";
    std::cout << count << "\n";
    return 0;
}
