// Root finding by bisection on polynomials.
//
// Input: a tolerance, then q, then q lines "lo hi c_d ... c_1 c_0" giving an interval and the
// polynomial's coefficients from the highest degree down. Output, per line: a root in [lo, hi] to 6
// decimals, found by halving the interval until it is at most the tolerance wide, and the number of
// halvings; or "no sign change" when the endpoints do not bracket a root.
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

// Horner's rule.
double evaluate(const std::vector<double>& coeffs, double x) {
    double value = 0.0;
    for (double c : coeffs) {
        value = value * x + c;
    }
    return value;
}

// The root and the number of halvings; found is false when the endpoints do not bracket a root.
struct Root {
    bool found;
    double root;
    long long halvings;
};

Root bisect_root(const std::vector<double>& coeffs, double lo, double hi, double tol) {
    double f_lo = evaluate(coeffs, lo);
    if (f_lo * evaluate(coeffs, hi) > 0) {
        return {false, 0.0, 0};
    }
    long long halvings = 0;
    while (hi - lo > tol) {
        double mid = (lo + hi) / 2;
        double f_mid = evaluate(coeffs, mid);
        if (f_mid == 0) {
            return {true, mid, halvings};
        }
        if ((f_mid < 0) == (f_lo < 0)) {
            lo = mid;  // the sign change is in the right half
            f_lo = f_mid;
        } else {
            hi = mid;
        }
        halvings += 1;
    }
    return {true, (lo + hi) / 2, halvings};
}

int main() {
    std::string line;
    std::getline(std::cin, line);
    double tol = std::stod(line);
    std::getline(std::cin, line);
    long long q = std::stoll(line);
    for (long long problem = 0; problem < q && std::getline(std::cin, line); problem++) {
        std::istringstream fields(line);
        std::vector<double> numbers;
        std::string field;
        while (fields >> field) {
            numbers.push_back(std::stod(field));
        }
        std::vector<double> coeffs(numbers.begin() + 2, numbers.end());
        Root result = bisect_root(coeffs, numbers[0], numbers[1], tol);
        if (!result.found) {
            std::cout << "no sign change\n";
        } else {
            char text[64];
            std::snprintf(text, sizeof text, "%.6f", result.root);
            std::cout << text << " after " << result.halvings << " halvings\n";
        }
    }
    return 0;
}
