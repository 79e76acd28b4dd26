// Composite Simpson's rule against the exact integral of a polynomial.
//
// Input: an even number of subintervals n, then q, then q lines "a b c_d ... c_1 c_0" (integer
// bounds and coefficients, highest degree first). Output, per line: Simpson's estimate of the
// integral over [a, b] to 10 decimals, the exact integral as a fraction, and the absolute error.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

// Horner's rule at a real point.
double horner(const std::vector<long long>& coeffs, double x) {
    double value = 0;
    for (long long c : coeffs) {
        value = value * x + static_cast<double>(c);
    }
    return value;
}

// Horner's rule at an integer point, exactly.
long long horner(const std::vector<long long>& coeffs, long long x) {
    long long value = 0;
    for (long long c : coeffs) {
        value = value * x + c;
    }
    return value;
}

double simpson(const std::vector<long long>& coeffs, long long a, long long b, long long n) {
    double h = static_cast<double>(b - a) / static_cast<double>(n);
    double odd_sum = 0.0;
    double even_sum = 0.0;
    long long i = 0;  // the sample point; like a Python loop variable it keeps its last value
    for (long long at = 1; at < n && ((i = at), true); at++) {
        double x = static_cast<double>(a) + static_cast<double>(i) * h;
        if (i % 2) {
            odd_sum += horner(coeffs, x);
        } else {
            even_sum += horner(coeffs, x);
        }
    }
    return h / 3 *
           (static_cast<double>(horner(coeffs, a)) + 4 * odd_sum + 2 * even_sum + static_cast<double>(horner(coeffs, b)));
}

// An exact fraction num/den in lowest terms, den > 0.
struct Fraction {
    long long num = 0, den = 1;

    Fraction(long long n = 0, long long d = 1) : num(n), den(d) {
        long long g = std::gcd(num, den);
        if (den < 0) g = -g;
        num /= g;
        den /= g;
    }
};

Fraction operator+(Fraction x, Fraction y) { return {x.num * y.den + y.num * x.den, x.den * y.den}; }
Fraction operator*(Fraction x, Fraction y) { return {x.num * y.num, x.den * y.den}; }

long long power_of(long long base, long long exponent) {
    long long result = 1;
    for (long long e = 0; e < exponent; e++) {
        result *= base;
    }
    return result;
}

// Integrate term by term: c x^k -> c x^(k+1) / (k+1), evaluated exactly.
Fraction exact_integral(const std::vector<long long>& coeffs, long long a, long long b) {
    long long degree = static_cast<long long>(coeffs.size()) - 1;
    Fraction total(0);
    for (long long k = 0; k <= degree; k++) {
        long long power = degree - k + 1;
        total = total + Fraction(coeffs[k], power) * Fraction(power_of(b, power) - power_of(a, power));
    }
    return total;
}

int main() {
    std::string line;
    std::getline(std::cin, line);
    long long n = std::stoll(line);
    if (n <= 0 || n % 2) {
        std::cerr << "Simpson's rule needs a positive even n, got " << n << "\n";
        return 1;
    }
    std::getline(std::cin, line);
    long long q = std::stoll(line);
    for (long long problem = 0; problem < q && std::getline(std::cin, line); problem++) {
        std::istringstream fields(line);
        long long a, b, c;
        fields >> a >> b;
        std::vector<long long> coeffs;
        while (fields >> c) {
            coeffs.push_back(c);
        }
        double estimate = simpson(coeffs, a, b, n);
        Fraction exact = exact_integral(coeffs, a, b);
        std::string exact_text = std::to_string(exact.num);
        if (exact.den != 1) {
            exact_text += "/" + std::to_string(exact.den);
        }
        double error = std::fabs(estimate - static_cast<double>(exact.num) / static_cast<double>(exact.den));
        char text[128];
        std::snprintf(text, sizeof text, "%.10f exact %s error %.3e", estimate, exact_text.c_str(), error);
        std::cout << text << "\n";
    }
    return 0;
}
