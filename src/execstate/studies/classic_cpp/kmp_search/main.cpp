// Find every occurrence of a pattern in a text with Knuth-Morris-Pratt.
//
// Input: the pattern on the first line, the text on the second. Output: the number of (possibly
// overlapping) occurrences, then their 0-based starting positions (at most the first ten), or
// "none".
#include <cstddef>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

// fail[i]: length of the longest proper border of pattern[:i + 1].
std::vector<std::size_t> prefix_function(const std::string& pattern) {
    std::vector<std::size_t> fail(pattern.size(), 0);
    std::size_t k = 0;
    for (std::size_t i = 1; i < pattern.size(); i++) {
        while (k > 0 && pattern[i] != pattern[k]) {
            k = fail[k - 1];
        }
        if (pattern[i] == pattern[k]) {
            k += 1;
        }
        fail[i] = k;
    }
    return fail;
}

std::pair<long long, std::vector<std::size_t>> occurrences(const std::string& text, const std::string& pattern) {
    std::vector<std::size_t> fail = prefix_function(pattern);
    std::vector<std::size_t> found;
    long long count = 0;
    std::size_t matched = 0;
    for (std::size_t pos = 0; pos < text.size(); pos++) {
        char ch = text[pos];
        while (matched > 0 && ch != pattern[matched]) {
            matched = fail[matched - 1];
        }
        if (ch == pattern[matched]) {
            matched += 1;
        }
        if (matched == pattern.size()) {
            count += 1;
            found.push_back(pos - matched + 1);
            matched = fail[matched - 1];
        }
    }
    return {count, found};
}

int main() {
    std::string pattern, text;
    std::cin >> pattern >> text;
    auto [count, found] = occurrences(text, pattern);
    std::cout << count << "\n";
    if (found.empty()) {
        std::cout << "none\n";
        return 0;
    }
    std::string line;
    for (std::size_t i = 0; i < found.size() && i < 10; i++) {
        if (i > 0) line += ' ';
        line += std::to_string(found[i]);
    }
    std::cout << line << "\n";
    return 0;
}
