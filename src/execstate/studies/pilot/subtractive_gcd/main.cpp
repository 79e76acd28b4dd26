// Greatest common divisor by repeated subtraction (Euclid's original method), counting the subtractions.
#include <iostream>

int main() {
    long long a, b;
    std::cin >> a >> b;
    long long steps = 0;
    while (true) {
        if (a == b) {
            break;  // a (= b) is the greatest common divisor
        }
        if (a > b) {
            a -= b;
        } else {
            b -= a;
        }
        steps++;
    }
    std::cout << a << " " << steps << std::endl;
    return 0;
}
