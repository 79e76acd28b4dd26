// Run-length encoding of a line of text.
//
// Input: one line of letters. Output: the encoding, where each maximal run of a letter becomes its
// length followed by the letter ("aaab" -> "3a1b"); then the first longest run as "<letter>
// <length>"; then the encoded length over the original length as a reduced fraction.
#include <iostream>
#include <iterator>
#include <numeric>
#include <string>
#include <tuple>

// The encoding and the first longest run as (letter, length).
std::tuple<std::string, std::string, long long> encode(const std::string& text) {
    std::string pieces;
    std::string current;
    long long run = 0;
    std::string best;
    long long best_run = 0;
    for (char ch : text) {
        std::string letter(1, ch);
        if (letter == current) {
            run += 1;
        } else {
            if (run) {
                pieces += std::to_string(run) + current;
            }
            current = letter;
            run = 1;
        }
        if (run > best_run) {
            best = current;
            best_run = run;
        }
    }
    if (run) {
        pieces += std::to_string(run) + current;
    }
    return {pieces, best, best_run};
}

int main() {
    std::string text(std::istreambuf_iterator<char>(std::cin), {});
    const char* blank = " \t\n\r\f\v";
    std::size_t first = text.find_first_not_of(blank);
    text = first == std::string::npos ? "" : text.substr(first, text.find_last_not_of(blank) - first + 1);
    if (text.empty()) {
        std::cout << "empty input\n";
        return 0;
    }
    auto [encoded, letter, length] = encode(text);
    std::cout << encoded << "\n";
    std::cout << letter << " " << length << "\n";
    std::size_t common = std::gcd(encoded.size(), text.size());
    std::cout << encoded.size() / common << "/" << text.size() / common << "\n";
    return 0;
}
