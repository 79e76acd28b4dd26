// Word lengths in a line of text: how many words have 1, 2, ..., 6 and 7 or more letters, and the
// first of the longest words.
#include <algorithm>
#include <cstddef>
#include <iostream>
#include <string>
#include <vector>

int main() {
    std::string text;
    std::getline(std::cin, text);
    text += ' ';  // so the last word ends at a space like the others
    std::string word, longest;
    std::vector<int> lengths(7, 0);
    for (std::size_t i = 0; i < text.size(); i++) {
        if (text[i] != ' ') {
            word += text[i];
        } else if (!word.empty()) {
            lengths[std::min<std::size_t>(word.size(), 7) - 1]++;
            if (word.size() > longest.size()) {
                longest = word;
            }
            word.clear();
        }
    }
    for (int count : lengths) {
        std::cout << count << " ";
    }
    std::cout << longest << std::endl;
    return 0;
}
