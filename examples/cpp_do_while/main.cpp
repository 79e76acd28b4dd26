// Follow x -> (a*x + c) mod m from a seed until x is back at the seed; print the cycle's length and a
// checksum of the values visited. The do-while takes its first step before comparing with the seed.
#include <iostream>

int main() {
    long long m, a, c, seed;
    std::cin >> m >> a >> c >> seed;
    long long x = seed;
    long long steps = 0;
    long long checksum = 0;
    do {
        x = (a * x + c) % m;
        steps++;
        checksum = (checksum * 31 + x) % 1000003;
    } while (x != seed);
    std::cout << steps << " " << checksum << std::endl;
    return 0;
}
