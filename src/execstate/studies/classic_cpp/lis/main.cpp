// Longest strictly increasing subsequence by patience sorting.
//
// Input: n, then the n integers on one line. Output: the length of the longest strictly
// increasing subsequence, then one such subsequence: the one rebuilt from the last pile, following
// each element back to the pile top it landed on.
#include <algorithm>
#include <cstddef>
#include <iostream>
#include <string>
#include <vector>

std::vector<long long> longest_increasing(const std::vector<long long>& seq) {
    std::vector<long long> tail_values;  // tail_values[L]: smallest last value of an increasing run of length L+1
    std::vector<long long> tail_index;   // the position in seq of that last value
    std::vector<long long> parent;       // parent[i]: position of the element before seq[i] in its run
    long long length = 0;
    long long x = 0;  // the element read; like a Python loop variable it keeps its last value
    for (std::size_t i = 0; i < seq.size() && ((x = seq[i]), true); i++) {
        long long pos = std::lower_bound(tail_values.begin(), tail_values.end(), x) - tail_values.begin();
        parent.push_back(pos > 0 ? tail_index[pos - 1] : -1);
        if (pos == length) {
            tail_values.push_back(x);
            tail_index.push_back(static_cast<long long>(i));
            length += 1;
        } else {
            tail_values[pos] = x;
            tail_index[pos] = static_cast<long long>(i);
        }
    }
    std::vector<long long> run;
    long long k = tail_index.empty() ? -1 : tail_index.back();
    while (k != -1) {
        run.push_back(seq[k]);
        k = parent[k];
    }
    std::reverse(run.begin(), run.end());
    return run;
}

int main() {
    std::size_t n;
    std::cin >> n;  // n: the values that follow are all there is
    std::vector<long long> seq;
    long long v;
    while (std::cin >> v) {
        seq.push_back(v);
    }
    std::vector<long long> run = longest_increasing(seq);
    std::cout << run.size() << "\n";
    std::string line;
    for (long long value : run) {
        if (!line.empty()) line += ' ';
        line += std::to_string(value);
    }
    std::cout << line << "\n";
    return 0;
}
