"""Benchmark of C++ compile and measure: compile throughput with and without the precompiled header,
the share of a build spent compiling, and the cost of a gcov measurement against a plain run.

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/cpp.py [--programs N] [--repeat R] [--library-checker DIR] [--smoke]

Prints, measured side by side in one run:
(a) compile throughput in programs per minute with 2 compiles at a time (the builder's thread
    pool on 2 cores), for typical contest programs that include ``<bits/stdc++.h>``, with and
    without the precompiled header, for run builds (-O2) and coverage builds (-O0 --coverage);
    every compile is a cache miss (a fresh cache per configuration; each program is made distinct).
    The one-off cost of building each precompiled header is printed apart.
(b) for the library-checker programs (``shared/data/library-checker``; skipped when absent):
    compile time (run build + coverage build) against run time (one plain run and one gcov
    measurement of each of the problem's inputs), and compiling's share of the two.
(c) gcov measurement cost on a 10^7-iteration loop: the coverage run alone, and the whole
    ``measure_cpp`` (coverage run + reading the .gcda + gcov), each divided by a plain -O2 run of
    the same program (best of ``--repeat``; all runs in the sandbox).
--smoke: (a) one program, run builds only; (b) one problem, one input; (c) the <cstdio> loop, 10^4 iterations, once.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

from execstate.metrics import Compiled, Compiler, compile_cpp, measure_cpp, run_binary
from execstate.sandbox import Limits

LIBRARY_CHECKER = Path(__file__).resolve().parents[2] / "shared" / "data" / "library-checker"
LIMITS = Limits(wall_s=600, cpu_s=600)

CONTEST = {
    "sort-map": """#include <bits/stdc++.h>
using namespace std;
int main() {
    ios::sync_with_stdio(false); cin.tie(nullptr);
    int n; cin >> n;
    vector<long long> a(n);
    for (auto &x : a) cin >> x;
    sort(a.begin(), a.end());
    map<long long, int> cnt;
    for (auto x : a) cnt[x]++;
    int best = 0;
    for (auto [k, v] : cnt) best = max(best, v);
    cout << best << "\\n";
}
""",
    "grid-bfs": """#include <bits/stdc++.h>
using namespace std;
int main() {
    int h, w; cin >> h >> w;
    vector<string> g(h);
    for (auto &r : g) cin >> r;
    vector<vector<int>> d(h, vector<int>(w, -1));
    queue<pair<int, int>> q; q.push({0, 0}); d[0][0] = 0;
    int dx[] = {1, -1, 0, 0}, dy[] = {0, 0, 1, -1};
    while (!q.empty()) {
        auto [x, y] = q.front(); q.pop();
        for (int k = 0; k < 4; k++) {
            int nx = x + dx[k], ny = y + dy[k];
            if (nx < 0 || ny < 0 || nx >= h || ny >= w || g[nx][ny] == '#' || d[nx][ny] >= 0) continue;
            d[nx][ny] = d[x][y] + 1; q.push({nx, ny});
        }
    }
    cout << d[h - 1][w - 1] << endl;
}
""",
    "knapsack": """#include <bits/stdc++.h>
using namespace std;
typedef long long ll;
int main() {
    int n, W; cin >> n >> W;
    vector<ll> dp(W + 1, 0);
    for (int i = 0; i < n; i++) {
        int w; ll v; cin >> w >> v;
        for (int c = W; c >= w; c--) dp[c] = max(dp[c], dp[c - w] + v);
    }
    cout << *max_element(dp.begin(), dp.end()) << '\\n';
}
""",
    "segment-tree": """#include <bits/stdc++.h>
using namespace std;
struct Seg {
    int n; vector<long long> t;
    Seg(int n) : n(n), t(2 * n) {}
    void add(int i, long long v) { for (t[i += n] += v; i > 1; i >>= 1) t[i >> 1] = t[i] + t[i ^ 1]; }
    long long sum(int l, int r) {
        long long s = 0;
        for (l += n, r += n; l < r; l >>= 1, r >>= 1) { if (l & 1) s += t[l++]; if (r & 1) s += t[--r]; }
        return s;
    }
};
int main() {
    int n, q; cin >> n >> q; Seg s(n);
    while (q--) { int op, a, b; cin >> op >> a >> b; if (op == 0) s.add(a, b); else cout << s.sum(a, b) << '\\n'; }
}
""",
    "dijkstra": """#include <bits/stdc++.h>
using namespace std;
using ll = long long;
const ll INF = LLONG_MAX / 4;
int main() {
    int n, m; cin >> n >> m;
    vector<vector<pair<int, ll>>> g(n);
    for (int i = 0; i < m; i++) { int a, b; ll c; cin >> a >> b >> c; g[a].push_back({b, c}); }
    vector<ll> d(n, INF); d[0] = 0;
    priority_queue<pair<ll, int>, vector<pair<ll, int>>, greater<>> pq; pq.push({0, 0});
    while (!pq.empty()) {
        auto [du, u] = pq.top(); pq.pop();
        if (du != d[u]) continue;
        for (auto [v, c] : g[u]) if (d[v] > du + c) { d[v] = du + c; pq.push({d[v], v}); }
    }
    for (int i = 0; i < n; i++) cout << (d[i] == INF ? -1 : d[i]) << " \\n"[i == n - 1];
}
""",
    "kmp": """#include <bits/stdc++.h>
using namespace std;
int main() {
    string s, p; cin >> s >> p;
    string t = p + '#' + s;
    vector<int> pi(t.size());
    for (size_t i = 1; i < t.size(); i++) {
        int j = pi[i - 1];
        while (j > 0 && t[i] != t[j]) j = pi[j - 1];
        if (t[i] == t[j]) j++;
        pi[i] = j;
    }
    cout << count(pi.begin(), pi.end(), (int)p.size()) << endl;
}
""",
}

LOOPS = {}
LOOPS["arithmetic chain"] = """#include <cstdio>
int main() {
    long long n, s = 0;
    if (scanf("%lld", &n) != 1) return 1;
    for (long long i = 0; i < n; i++) {
        s = s * 31 + (i ^ (s >> 7));
    }
    printf("%lld\\n", s);
    return 0;
}
"""
LOOPS["vector + branch (STL)"] = """#include <bits/stdc++.h>
using namespace std;
int main() {
    long long n, s = 0;
    cin >> n;
    vector<long long> a(1000);
    for (long long i = 0; i < n; i++) {
        if (i & 1) a[i % 1000] += i;
        else s += a[(i * 7 + 1) % 1000];
    }
    cout << s << endl;
}
"""


def compiled(source: str, compiler: Compiler, coverage: bool = False, include_dirs=()) -> Compiled:
    result = compile_cpp(source, coverage=coverage, compiler=compiler, include_dirs=include_dirs)
    if not isinstance(result, Compiled):
        raise SystemExit(f"does not compile: {result.errors}")
    return result


def throughput(count: int, tmp: Path, coverages: tuple[bool, ...] = (False, True)) -> None:
    programs = list(CONTEST.values())
    sources = [programs[i % len(programs)] + f"// variant {i}\n" for i in range(count)]
    for coverage in coverages:
        label = "coverage (-O0 --coverage)" if coverage else "run build (-O2)"
        rates = {}
        for pch in (False, True):
            compiler = Compiler(cache_dir=tmp / f"cache-{coverage}-{pch}", precompiled_header=pch)
            if pch:  # the one-off header build, timed apart
                start = time.perf_counter()
                compiled("#include <bits/stdc++.h>\nint main() {}\n", compiler, coverage)
                header_s = time.perf_counter() - start
                print(f"    precompiled header build for {label}: {header_s:5.1f} s (once per cache)")
            start = time.perf_counter()
            with ThreadPoolExecutor(2) as pool:
                results = list(pool.map(compiled, sources, [compiler] * len(sources), [coverage] * len(sources)))
            wall = time.perf_counter() - start
            assert all(not r.cached for r in results) and all(r.precompiled_header == pch for r in results)
            rates[pch] = 60 * len(sources) / wall
            mean = sum(r.compile_s for r in results) / len(results)
            print(
                f"  {label:26s} pch={pch!s:5s}: {len(sources)} programs in {wall:5.1f} s = "
                f"{rates[pch]:6.1f} programs/min (mean {mean:4.2f} s each)"
            )
        print(f"  {label:26s} precompiled header speed-up: {rates[True] / rates[False]:4.2f}x")


def build_share(root: Path, tmp: Path, limit: int | None = None, inputs: int | None = None) -> None:
    problems = sorted(p for p in root.iterdir() if (p / "main.cpp").is_file())[:limit] if root.is_dir() else []
    if not problems:
        print(f"  skipped: no library-checker programs under {root}")
        return
    compiler = Compiler(cache_dir=tmp / "cache-lc")
    total_compile = total_run = 0.0
    for problem in problems:
        source = (problem / "main.cpp").read_text()
        includes = (problem,) if '#include "' in source else ()
        plain, cover = compiled(source, compiler, False, includes), compiled(source, compiler, True, includes)
        compile_s = plain.compile_s + cover.compile_s
        run_s = 0.0
        for test in sorted((problem / "tests").glob("*.in"))[:inputs]:
            data = test.read_bytes()
            start = time.perf_counter()
            ran = run_binary(plain, data, LIMITS)
            m = measure_cpp(source, data, limits=LIMITS, compiler=compiler, include_dirs=includes)
            run_s += time.perf_counter() - start
            assert ran.ok and m.ok and m.stdout == ran.stdout, (problem.name, test.name, m.detail)
        total_compile, total_run = total_compile + compile_s, total_run + run_s
        print(
            f"  {problem.name:26s} compile {compile_s:5.2f} s | run + measure {run_s:5.2f} s | "
            f"compile share {compile_s / (compile_s + run_s):4.0%}"
        )
    share = total_compile / (total_compile + total_run)
    print(
        f"  {'all ' + str(len(problems)):26s} compile {total_compile:5.1f} s | run + measure {total_run:5.1f} s | "
        f"compile share {share:4.0%}"
    )


def best(fn, repeat: int):
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def gcov_cost(repeat: int, tmp: Path, iterations: int = 10**7, loops: int | None = None) -> None:
    compiler = Compiler(cache_dir=tmp / "cache-loop")
    stdin = f"{iterations}\n".encode()
    empty = compiled("int main() {}\n", compiler)
    start_s, _ = best(lambda: run_binary(empty, b"", LIMITS), repeat)
    print(f"  sandbox start-up (an empty program): {start_s:6.3f} s; 'net' ratios subtract it from both sides")
    for name, source in list(LOOPS.items())[:loops]:
        plain, cover = compiled(source, compiler), compiled(source, compiler, True)
        plain_s, ran = best(partial(run_binary, plain, stdin, LIMITS), repeat)
        cover_s, _ = best(partial(run_binary, cover, stdin, LIMITS), repeat)
        measure_s, m = best(partial(measure_cpp, source, stdin, limits=LIMITS, compiler=compiler), repeat)
        assert ran.ok and m.ok and m.stdout == ran.stdout, m.detail
        net = max(plain_s - start_s, 1e-3)
        print(
            f"  {name}: plain -O2 {plain_s:6.3f} s | coverage run {cover_s:6.3f} s = {cover_s / plain_s:5.2f}x "
            f"(net {(cover_s - start_s) / net:5.2f}x) | measure_cpp {measure_s:6.3f} s = {measure_s / plain_s:5.2f}x "
            f"(net {(measure_s - start_s) / net:5.2f}x) | trace_length {m.trace_length}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--programs", type=int, default=12, help="programs compiled per configuration in (a)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--library-checker", type=Path, default=LIBRARY_CHECKER)
    parser.add_argument("--library-problems", type=int, help="only the first N library-checker problems in (b)")
    parser.add_argument("--library-inputs", type=int, help="only the first N inputs of each problem in (b)")
    parser.add_argument("--iterations", type=int, default=10**7, help="iterations of the loops in (c)")
    parser.add_argument("--smoke", action="store_true", help="the smallest sizes: does it still run?")
    args = parser.parse_args()
    if args.smoke:  # smaller defaults; options given on the command line still win
        parser.set_defaults(programs=1, repeat=1, library_problems=1, library_inputs=1, iterations=10**4)
        args = parser.parse_args()
    # smoke: no coverage build of <bits/stdc++.h> (its precompiled header alone takes ~25 s); the coverage
    # builds of (b) and (c) still go through the same compile path
    coverages, loops = ((False,), 1) if args.smoke else ((False, True), None)
    print(f"{Compiler().version()}")
    with tempfile.TemporaryDirectory(prefix="execstate-bench-cpp-") as tmp:
        print("(a) compile throughput, 2 compiles at a time, every compile a cache miss")
        throughput(args.programs, Path(tmp), coverages)
        print("(b) library-checker: compile vs run time (one plain run + one measurement per input)")
        build_share(args.library_checker, Path(tmp), args.library_problems, args.library_inputs)
        print(f"(c) gcov measurement cost, {args.iterations:,}-iteration loop, best of", args.repeat)
        gcov_cost(args.repeat, Path(tmp), args.iterations, loops)
    return 0


if __name__ == "__main__":
    sys.exit(main())
