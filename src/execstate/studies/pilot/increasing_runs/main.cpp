// The longest strictly increasing run in a list of numbers, and how many runs there are.
#include <iostream>
#include <vector>

int main() {
    int n;
    std::cin >> n;
    std::vector<long long> values(n);
    for (int i = 0; i < n; i++) {
        std::cin >> values[i];
    }
    long long prev = 0;
    int run = 0, longest = 0, runs = 0;
    for (long long x : values) {
        if (run > 0 && x > prev) {
            run++;
        } else {
            run = 1;  // x starts a new run
            runs++;
        }
        if (run > longest) {
            longest = run;
        }
        prev = x;
    }
    std::cout << longest << " " << runs << std::endl;
    return 0;
}
