// Levenshtein edit distance with a single rolling row.
//
// Input: q, then q lines each holding two words. Output, per pair: the minimum number of
// single-character insertions, deletions and substitutions that turn the first word into the
// second.
#include <algorithm>
#include <cstddef>
#include <iostream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

long long edit_distance(const std::string& a, const std::string& b) {
    std::vector<long long> row(b.size() + 1);  // row[j]: distance from a[:i] to b[:j]
    std::iota(row.begin(), row.end(), 0);
    long long diag = 0;
    std::size_t j = 0;  // the column; like a Python loop variable it keeps its last value
    for (std::size_t i = 1; i <= a.size(); i++) {
        char ca = a[i - 1];
        diag = row[0];  // diag holds the old row[j-1] (a[:i-1] vs b[:j-1])
        row[0] = static_cast<long long>(i);
        for (std::size_t at = 1; at <= b.size() && ((j = at), true); at++) {
            char cb = b[j - 1];
            long long cost = ca == cb ? 0 : 1;
            long long above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + cost});
            diag = above;
        }
    }
    return row.back();
}

int main() {
    std::string line;
    std::getline(std::cin, line);
    long long q = std::stoll(line);
    for (long long pair = 0; pair < q && std::getline(std::cin, line); pair++) {
        std::istringstream fields(line);
        std::vector<std::string> words;
        std::string word;
        while (fields >> word) {
            words.push_back(word);
        }
        if (words.size() != 2) {
            std::cerr << "expected two words per line, got '" << line << "'\n";
            return 1;
        }
        std::cout << edit_distance(words[0], words[1]) << "\n";
    }
    return 0;
}
