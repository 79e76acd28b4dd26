// Course scheduling: the lexicographically smallest topological order (Kahn).
//
// Input: n courses and m prerequisite pairs "a b" meaning a must come before b. Output: "order:"
// and the smallest valid order, plus the number of semesters needed when every course takes a
// semester after all its prerequisites; or "cycle" and the number of courses that could be
// scheduled before getting stuck.
#include <algorithm>
#include <cstddef>
#include <functional>
#include <iostream>
#include <queue>
#include <vector>

struct Schedule {
    std::vector<long long> order;  // short of n courses if there is a cycle
    long long semesters;
};

Schedule schedule(const std::vector<std::vector<long long>>& after, std::vector<long long> indegree) {
    // A min-heap of the courses whose prerequisites are all taken.
    std::priority_queue<long long, std::vector<long long>, std::greater<>> ready;
    for (std::size_t c = 1; c < after.size(); c++) {
        if (indegree[c] == 0) ready.push(static_cast<long long>(c));
    }
    std::vector<long long> semester(after.size(), 1);
    std::vector<long long> order;
    long long taken = 0;
    long long latest = 0;
    while (!ready.empty()) {
        long long course = ready.top();
        ready.pop();
        order.push_back(course);
        taken += 1;
        latest = std::max(latest, semester[course]);
        for (long long nxt : after[course]) {
            semester[nxt] = std::max(semester[nxt], semester[course] + 1);
            indegree[nxt] -= 1;
            if (indegree[nxt] == 0) {
                ready.push(nxt);
            }
        }
    }
    return {order, latest};
}

int main() {
    long long n, m;
    std::cin >> n >> m;
    std::vector<std::vector<long long>> after(n + 1);
    std::vector<long long> indegree(n + 1, 0);
    for (long long e = 0; e < m; e++) {
        long long a, b;
        std::cin >> a >> b;
        if (!(1 <= a && a <= n && 1 <= b && b <= n)) {
            std::cerr << "pair " << e + 1 << " names a course outside 1.." << n << ": " << a << " " << b << "\n";
            return 1;
        }
        after[a].push_back(b);
        indegree[b] += 1;
    }
    Schedule plan = schedule(after, indegree);
    if (static_cast<long long>(plan.order.size()) < n) {
        std::cout << "cycle\n";
        std::cout << plan.order.size() << "\n";
    } else {
        std::cout << "order:";
        for (long long course : plan.order) {
            std::cout << " " << course;
        }
        std::cout << "\n";
        std::cout << "semesters: " << plan.semesters << "\n";
    }
    return 0;
}
