"""Course scheduling: the lexicographically smallest topological order (Kahn).

Input: n courses and m prerequisite pairs "a b" meaning a must come before b.
Output: "order:" and the smallest valid order, plus the number of semesters
needed when every course takes a semester after all its prerequisites; or
"cycle" and the number of courses that could be scheduled before getting stuck.
"""
import sys
import heapq


def read_courses(tokens):
    n, m = int(tokens[0]), int(tokens[1])
    after = [[] for _ in range(n + 1)]
    indegree = [0] * (n + 1)
    for e in range(m):
        a, b = int(tokens[2 + 2 * e]), int(tokens[3 + 2 * e])
        if not (1 <= a <= n and 1 <= b <= n):
            raise SystemExit(f"pair {e + 1} names a course outside 1..{n}: {a} {b}")
        after[a].append(b)
        indegree[b] += 1
    return after, indegree


def schedule(after, indegree):
    """Return (order, semesters); the order is short of n courses if there is a cycle."""
    ready = [c for c in range(1, len(after)) if indegree[c] == 0]
    heapq.heapify(ready)
    semester = [1] * len(after)
    order = []
    taken = 0
    latest = 0
    while ready:
        course = heapq.heappop(ready)
        order.append(course)
        taken += 1
        latest = max(latest, semester[course])
        for nxt in after[course]:
            semester[nxt] = max(semester[nxt], semester[course] + 1)
            indegree[nxt] -= 1
            if indegree[nxt] == 0:
                heapq.heappush(ready, nxt)
    return order, latest


def main():
    after, indegree = read_courses(sys.stdin.read().split())
    order, semesters = schedule(after, indegree)
    if len(order) < len(after) - 1:
        print("cycle")
        print(len(order))
    else:
        print("order:", " ".join(map(str, order)))
        print("semesters:", semesters)


if __name__ == "__main__":
    main()
