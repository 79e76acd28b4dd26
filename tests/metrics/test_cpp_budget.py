"""C++ trace budgets stop the measured run: the counted copy's loop iterations, a bound from below of its trace."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from execstate.languages.cpp.budget import counted_cpp
from execstate.languages.cpp.candidates import cpp_loops
from execstate.languages.cpp.instrument import instrument_cpp
from execstate.languages.cpp.language import CppLanguage
from execstate.languages.cpp.protocol import HEADER_PATH, iterations_cpp
from execstate.metrics import Budget
from execstate.metrics.cpp import BUDGET_EXIT_CODE, BUDGET_MARKER, Compiler, measure_cpp
from execstate.metrics.cpp._compile import cache_stats, compile_cpp, run_binary
from execstate.sandbox import Limits

pytestmark = pytest.mark.skipif(shutil.which("g++") is None or shutil.which("gcov") is None, reason="needs g++, gcov")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

FOREVER = """\
#include <iostream>
int main() {
    long long n;
    std::cin >> n;
    std::cout << n << std::endl;
    while (true) {
        n = (n * 3 + 1) % 1000003;
    }
}
"""

SUM = """\
#include <bits/stdc++.h>
#define int long long
using namespace std;
constexpr int table(int k) { int s = 0; for (int i = 0; i < k; i++) s += i; return s; }
static_assert(table(4) == 6);
signed main() {
    int n; cin >> n;
    vector<int> v(n);
    for (int i = 0; i < n; i++) v[i] = i * i;
    int total = 0;
    for (int x : v)
        total += x;
    int k = 0;
    do { k++; } while (k < n);
    cout << total + k + table(3) << endl;
}
"""


@pytest.fixture(scope="module")
def cxx(tmp_path_factory) -> Compiler:
    return Compiler(cache_dir=tmp_path_factory.mktemp("cpp-cache"))


def _lang(cxx: Compiler, trace_events: int | None) -> CppLanguage:
    # a CPU limit far above what the budget costs: a run that reached it would say `timeout`, not `budget`
    return CppLanguage(Limits(cpu_s=30.0, wall_s=60.0), 1.0, cxx, budget=Budget(trace_events=trace_events))


def test_a_program_that_loops_for_ever_after_reading_its_input_is_refused_at_its_trace_budget(cxx):
    m = _lang(cxx, 5_000).measure(FOREVER, b"7\n", None, state=False)
    assert (m.status, m.exceeded) == ("budget", "trace")
    assert "over the trace budget of 5000" in m.detail
    assert "its counter passed 5000 loop iterations" in m.detail  # ended by the counter, not a limit
    assert m.trace_length is None


def test_the_counter_ends_the_measured_run_with_its_own_exit_status_and_marker(cxx):
    counted = counted_cpp(FOREVER)
    m = measure_cpp(counted.source, b"7\n", compiler=cxx, limits=Limits(cpu_s=30.0, wall_s=60.0), trace_budget=100)
    assert m.status == "budget" and "over the trace budget of 100" in m.detail
    # the same binary run without a budget would run to the CPU limit: the stop is the counter's
    binary = measure_cpp(counted.source, b"7\n", compiler=cxx, limits=Limits(cpu_s=1.0, wall_s=5.0))
    assert binary.status == "timeout"
    assert f"exit({BUDGET_EXIT_CODE})" in counted.source and BUDGET_MARKER in counted.source


def test_a_run_within_the_budget_counts_as_the_clean_program_does(cxx):
    counted = counted_cpp(SUM)
    assert counted.loops == 3  # the constexpr function's loop is not counted: it runs while compiling
    clean = measure_cpp(SUM, b"50\n", compiler=cxx, include_dirs=(HEADER_PATH.parent,), first_header=HEADER_PATH)
    within = _lang(cxx, 1_000_000).measure(SUM, b"50\n", None, state=False)
    assert clean.ok and within.status == "ok"
    assert (within.trace_length, within.stdout) == (clean.trace_length, clean.stdout)
    # 50 + 50 + 50 iterations pass a budget of 149: the counter stops the run; at 150 it runs to its end,
    # where its exact trace (longer than its iterations) is judged over the budget
    stopped = _lang(cxx, 149).measure(SUM, b"50\n", None, state=False)
    judged = _lang(cxx, 150).measure(SUM, b"50\n", None, state=False)
    assert stopped.status == judged.status == "budget"
    assert "its counter passed 149 loop iterations" in stopped.detail
    assert f"{clean.trace_length} line executions counted, over the trace budget of 150" in judged.detail


def test_the_counted_copy_keeps_every_line_of_the_program(cxx):
    counted = counted_cpp(SUM)
    lines = counted.source.split("\n")
    assert counted.counter_from == SUM.count("\n") + 1
    inserted = re.compile(
        r'void __execstate_tick\(decltype\(0\)\) noexcept __asm__\("\w+"\);|__execstate_tick\(\d+\);|[{}\s]'
    )
    for mine, theirs in zip(lines, SUM.split("\n")[:-1], strict=False):  # the same line, braces aside
        assert inserted.sub("", mine) == re.sub(r"[{}\s]", "", theirs)
    assert re.findall(r"__execstate_tick\((\d+)\);", "".join(lines)) == ["0", "1", "2"]  # each loop its number
    assert all("__execstate" in line or line.startswith(("#", "//", "}")) or line.strip() == ""
               for line in lines[counted.counter_from - 1 :] if not line.startswith("    "))  # fmt: skip


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.iterdir() if p.name.startswith("cpp_")))
def test_gcov_counts_every_line_of_an_example_as_in_the_clean_program(cxx, example):
    source = (EXAMPLES / example / "main.cpp").read_text()
    stdin = (EXAMPLES / example / "short.txt").read_bytes()
    lang = _lang(cxx, None)
    clean = measure_cpp(source, stdin, compiler=cxx, limits=lang.measure_limits())
    counted = lang.line_counts(source, stdin, Path("."))
    assert clean.ok and counted_cpp(source).loops >= 1
    assert counted == dict(clean.line_counts)
    assert lang.branch_outcomes(source, stdin, Path(".")) == clean.branches


LOOPS = """\
#include <bits/stdc++.h>
#define rep(i, n) for (int i = 0; i < (n); ++i)
using namespace std;
int main() {
    int n; cin >> n;
    long long s = 0;
    rep(i, n) {
        if (i % 3 == 0) continue;
        s += i;
    }
    for (int j = 0; j < n; ++j)
        if (j > n / 2) break; else s ^= j;
    int k = 0;
    while (k < n) { k += 2; if (k == 6) continue; s++; }
    do { k--; if (k == 3) break; } while (k > 0);
    cout << s << ' ' << k << endl;
}
"""


def _own_count(cxx: Compiler, source: str, line: int, stdin: bytes) -> int | None:
    """K as the loop's own ``count`` copy reports it, compiled and run by itself."""
    built = compile_cpp(instrument_cpp(source, line, (), "count").source, compiler=cxx, first_header=HEADER_PATH)
    assert not hasattr(built, "errors"), built
    return iterations_cpp(run_binary(built, stdin).stderr)  # type: ignore[arg-type]


def test_the_measured_build_counts_each_loop_as_its_own_count_copy_does_and_compiles_nothing_more(cxx):
    lang = _lang(cxx, None)
    loops = cpp_loops(LOOPS)
    assert loops == [7, 11, 14, 15]
    counted = counted_cpp(LOOPS)
    assert counted.loop_lines == (7, 11, 14, 15)
    assert counted.at_top == {7, 11, 14}  # the do loop is counted before its closing brace: a break skips that
    stdin = b"20\n"
    assert lang.measure(LOOPS, stdin, None, state=False).ok  # construct measures the long input first
    before = cache_stats(cxx.cache_root()).runs
    found = lang.loop_iterations(LOOPS, loops[:3], stdin, Path("."))
    assert cache_stats(cxx.cache_root()).runs == before  # the measured build counted them: no compile
    assert found == {line: _own_count(cxx, LOOPS, line, stdin) for line in loops[:3]}
    assert found == {7: 20, 11: 12, 14: 10}
    # the do loop is not counted at the top by the measured build: the copy counting every loop does it
    before = cache_stats(cxx.cache_root()).runs
    every = lang.loop_iterations(LOOPS, loops, stdin, Path("."))
    assert cache_stats(cxx.cache_root()).runs == before + 1
    assert every == {**found, 15: _own_count(cxx, LOOPS, 15, stdin)}


def test_a_counted_run_reports_nothing_unless_asked(cxx):
    counted = counted_cpp(LOOPS)
    asked = measure_cpp(counted.source, b"9\n", compiler=cxx, env={"EXECSTATE_COUNT_ALL": "1"})
    plain = measure_cpp(counted.source, b"9\n", compiler=cxx)
    assert asked.ok and plain.ok and asked.stdout == plain.stdout and asked.trace_length == plain.trace_length
    assert b"__execstate_loop_iterations__=3:" in asked.stderr and b"__execstate" not in plain.stderr
