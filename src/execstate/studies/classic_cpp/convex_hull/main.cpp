// Convex hull of integer points by Andrew's monotone chain.
//
// Input: n, then n integer points "x y", one per line. Output: the number of hull vertices; the
// vertices in counter-clockwise order starting from the smallest (x, y); twice the hull's area; and
// its perimeter to 4 decimals. Points lying on a hull edge between two vertices are not vertices.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

using Point = std::pair<long long, long long>;

// z-component of (a - o) x (b - o): positive for a left turn.
long long cross(const Point& o, const Point& a, const Point& b) {
    return (a.first - o.first) * (b.second - o.second) - (a.second - o.second) * (b.first - o.first);
}

std::vector<Point> half_hull(const std::vector<Point>& points) {
    std::vector<Point> hull;
    Point p;  // the point added; like a Python loop variable it keeps its last value
    for (std::size_t i = 0; i < points.size() && ((p = points[i]), true); i++) {
        while (hull.size() >= 2 && cross(hull[hull.size() - 2], hull.back(), p) <= 0) {
            hull.pop_back();  // the last point would make a right turn or is collinear
        }
        hull.push_back(p);
    }
    return hull;
}

std::vector<Point> convex_hull(std::vector<Point> pts) {
    std::sort(pts.begin(), pts.end());
    pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
    if (pts.size() <= 2) {
        return pts;
    }
    std::vector<Point> lower = half_hull(pts);
    std::vector<Point> upper = half_hull(std::vector<Point>(pts.rbegin(), pts.rend()));
    // Each half ends where the other starts; drop the duplicated endpoints.
    lower.pop_back();
    upper.pop_back();
    lower.insert(lower.end(), upper.begin(), upper.end());
    return lower;
}

int main() {
    std::size_t n;
    std::cin >> n;
    std::vector<Point> points(n);
    for (Point& point : points) {
        std::cin >> point.first >> point.second;
    }
    std::vector<Point> hull = convex_hull(points);
    long long twice_area = 0;
    double perimeter = 0.0;
    for (std::size_t i = 0; i < hull.size(); i++) {
        const Point& a = hull[i];
        const Point& b = hull[(i + 1) % hull.size()];
        twice_area += cross({0, 0}, a, b);
        double dx = static_cast<double>(b.first - a.first), dy = static_cast<double>(b.second - a.second);
        perimeter += std::sqrt(dx * dx + dy * dy);
    }
    std::cout << hull.size() << "\n";
    std::string line;
    for (const auto& [x, y] : hull) {
        if (!line.empty()) line += ' ';
        line += "(" + std::to_string(x) + "," + std::to_string(y) + ")";
    }
    std::cout << line << "\n";
    std::cout << "twice area " << twice_area << "\n";
    char text[64];
    std::snprintf(text, sizeof text, "perimeter %.4f", perimeter);
    std::cout << text << "\n";
    return 0;
}
