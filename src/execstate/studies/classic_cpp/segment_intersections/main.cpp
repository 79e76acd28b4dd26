// Classify how pairs of line segments meet, using orientation tests.
//
// Input: n, then n segments "x1 y1 x2 y2" with integer endpoints, one per line. Every pair of
// segments is either disjoint, or they "cross" (a single point inside both), "touch" (a single
// point that is an endpoint of at least one), or "overlap" (collinear and sharing more than one
// point). Output: the number of pairs of each kind, then for each segment the number of others it
// meets.
#include <algorithm>
#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

using Point = std::pair<long long, long long>;
using Segment = std::pair<Point, Point>;

// Sign of the turn p -> q -> r: 1 left, -1 right, 0 collinear.
int orientation(const Point& p, const Point& q, const Point& r) {
    long long value = (q.first - p.first) * (r.second - p.second) - (q.second - p.second) * (r.first - p.first);
    return (value > 0) - (value < 0);
}

// For segments on one line: compare their extents along it (point order follows the line).
std::string collinear_kind(const Segment& s, const Segment& t) {
    Point lo1 = std::min(s.first, s.second), hi1 = std::max(s.first, s.second);
    Point lo2 = std::min(t.first, t.second), hi2 = std::max(t.first, t.second);
    Point start = std::max(lo1, lo2), end = std::min(hi1, hi2);
    if (start > end) {
        return "";
    }
    if (start == end) {
        return "touch";
    }
    return "overlap";
}

// "cross", "touch", "overlap", or "" when the segments are disjoint.
std::string classify(const Segment& s, const Segment& t) {
    const auto& [a, b] = s;
    const auto& [c, d] = t;
    int o1 = orientation(a, b, c), o2 = orientation(a, b, d);
    int o3 = orientation(c, d, a), o4 = orientation(c, d, b);
    if (o1 == 0 && o2 == 0 && o3 == 0 && o4 == 0) {
        return collinear_kind(s, t);
    }
    if (o1 * o2 < 0 && o3 * o4 < 0) {
        return "cross";
    }
    if (o1 * o2 <= 0 && o3 * o4 <= 0) {
        return "touch";  // an endpoint lies on the other segment
    }
    return "";
}

int main() {
    long long n;
    std::cin >> n;
    std::vector<Segment> segments;
    for (long long s = 0; s < n; s++) {
        long long x1, y1, x2, y2;
        std::cin >> x1 >> y1 >> x2 >> y2;
        segments.push_back({{x1, y1}, {x2, y2}});
    }
    std::vector<long long> degree(n, 0);
    std::map<std::string, long long> kinds = {{"cross", 0}, {"touch", 0}, {"overlap", 0}};
    long long j = 0;  // the second segment; like a Python loop variable it keeps its last value
    for (long long i = 0; i < n; i++) {
        for (long long at = i + 1; at < n && ((j = at), true); at++) {
            std::string kind = classify(segments[i], segments[j]);
            if (!kind.empty()) {
                kinds[kind] += 1;
                degree[i] += 1;
                degree[j] += 1;
            }
        }
    }
    std::cout << "cross " << kinds["cross"] << " touch " << kinds["touch"] << " overlap " << kinds["overlap"] << "\n";
    std::string line;
    for (long long count : degree) {
        if (!line.empty()) line += ' ';
        line += std::to_string(count);
    }
    std::cout << line << "\n";
    return 0;
}
