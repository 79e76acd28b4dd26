"""The C++ ``loop-trace`` copy (``CppLanguage.trace_copy``, ``instrument_cpp`` mode ``trace``), checked against the
inside copies: at iteration k it must print ``[`` + the inside copies' lines at the first ``min(steps, j)`` iterations
of k's loop execution, joined by ``,`` + ``]`` (j: k's place in that execution). Each program's executions and their
lengths are worked out here from what the program does (not from any copy), so the first iteration of k's
execution is an independent number. Every copy is compiled with g++ and run in the sandbox (``CppLanguage.run``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from cpp_differential.toolchain import needs_gxx

from execstate.languages._protocol import LoopTracing
from execstate.languages.cpp.instrument import disabled_cpp, instrument_cpp
from execstate.languages.cpp.language import CppLanguage
from execstate.languages.cpp.protocol import REFUSAL_MARKER, REFUSED_EXIT_CODE

LANG = CppLanguage()


def _collatz(v: int) -> int:
    steps = 0
    while v != 1:
        v = v // 2 if v % 2 == 0 else 3 * v + 1
        steps += 1
    return steps


def _first_break(a: list[int], t: int) -> int:
    """Iterations of ``for (i = 0; i < n; i++) { if (a[i] > t) break; ... }``: the breaking one starts too."""
    return next((i + 1 for i, x in enumerate(a) if x > t), len(a))


@dataclass(frozen=True)
class Case:
    source: str
    loop_line: int
    variables: tuple[str, ...]
    stdin: bytes
    lengths: tuple[int, ...]
    """Iterations of each execution of the selected loop, in order of entry (from the program's logic)."""
    ks: tuple[int, ...]
    steps: int


SINGLE = """#include <iostream>
int main() {
    int n;
    std::cin >> n;
    long long s = 0;
    int last = -1;
    for (int i = 0; i < n; i++) {
        s += i * i;
        last = i;
    }
    std::cout << s << ' ' << last << "\\n";
}
"""

NESTED = """#include <iostream>
#include <vector>
int main() {
    int n;
    std::cin >> n;
    std::vector<int> seen;
    long long s = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j <= i; j++) {
            s += i * j;
            seen.push_back(j);
        }
    }
    std::cout << s << ' ' << seen.size() << "\\n";
}
"""

WHILE_IN_A_FUNCTION = """#include <cstdio>
static int collatz(long long x) {
    int c = 0;
    while (x != 1) {
        x = x % 2 == 0 ? x / 2 : 3 * x + 1;
        c++;
    }
    return c;
}
int main() {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    long long total = 0;
    for (int v = 1; v <= n; v++) total += collatz(v);
    printf("%lld\\n", total);
}
"""

MACROS = """#include <iostream>
#include <string>
#define rep(i, n) for (int i = 0; i < (n); ++i)
int main() {
    std::string t;
    std::cin >> t;
    std::string acc;
    rep(i, (int)t.size()) {
        rep(j, i % 3 + 1) {
            acc += t[i];
        }
    }
    std::cout << acc << "\\n";
}
"""

BREAK = """#include <iostream>
#include <vector>
int main() {
    int n, q;
    std::cin >> n >> q;
    std::vector<int> a(n);
    for (int& x : a) std::cin >> x;
    long long out = 0;
    while (q--) {
        int t;
        std::cin >> t;
        long long sum = 0;
        for (int i = 0; i < n; i++) {
            if (a[i] > t) break;
            sum += a[i];
        }
        out += sum;
    }
    std::cout << out << "\\n";
}
"""
A, QUERIES = [1, 2, 3, 4, 5, 6, 7, 8], [3, 10, 0, 5]
WORD = "abcdefg"

CASES = {
    # one execution of 6 iterations: k at its start, at j < steps, j = steps, j > steps
    "single loop": Case(SINGLE, 7, ("i", "s", "last"), b"6\n", (6,), (1, 2, 3, 5), 3),
    # executions of 1..6 iterations; the 5th starts at 1+1+2+3+4 = 11
    "nested inner loop": Case(NESTED, 9, ("i", "j", "s", "seen"), b"6\n", (1, 2, 3, 4, 5, 6), (1, 12, 13, 15), 3),
    # one execution per call; collatz(1) runs none, collatz(6)'s starts at 1+0+1+7+2+5 = 16
    "while loop in a function": Case(
        WHILE_IN_A_FUNCTION, 4, ("x", "c"), b"7\n", tuple(_collatz(v) for v in range(1, 8)), (6, 17, 21), 3
    ),
    # i % 3 + 1 iterations per i; the 6th execution starts at 1+1+2+3+1+2 = 10
    "rep macro, inner loop": Case(
        MACROS, 9, ("i", "j", "acc"), WORD.encode() + b"\n", tuple(i % 3 + 1 for i in range(len(WORD))), (11, 12), 2
    ),
    "rep macro, outer loop": Case(MACROS, 8, ("i", "acc"), WORD.encode() + b"\n", (len(WORD),), (4,), 2),
    # the breaking iteration starts too: 4, 8, 1 and 6 iterations; the 4th execution starts at 14
    "loop left by break": Case(
        BREAK,
        13,
        ("t", "i", "sum"),
        f"{len(A)} {len(QUERIES)}\n{' '.join(map(str, A))}\n{' '.join(map(str, QUERIES))}\n".encode(),
        tuple(_first_break(A, t) for t in QUERIES),
        (12, 15, 19),
        3,
    ),
    "CRLF source": Case(SINGLE.replace("\n", "\r\n"), 7, ("i", "s", "last"), b"5\n", (5,), (2, 4), 3),
}


def _execution_start(lengths: tuple[int, ...], k: int) -> int:
    """The first iteration (cumulative, 1-based) of the execution that holds iteration ``k``."""
    first = 1
    for n in lengths:
        if k < first + n:
            return first
        first += n
    raise AssertionError(f"iteration {k} is past the last execution")


def _inside_line(case: Case, i: int, tmp_path: Path) -> bytes:
    """What the inside copy at iteration ``i`` prints, without its newline."""
    res = LANG.run(
        instrument_cpp(case.source, case.loop_line, case.variables, "inside", i).source, case.stdin, tmp_path
    )
    assert res.ok, res.describe()
    assert res.stdout.endswith(b"\n") and res.stdout.count(b"\n") == 1, res.stdout
    return res.stdout[:-1]


def test_the_cpp_adapter_offers_loop_traces():
    assert isinstance(LANG, LoopTracing)


@needs_gxx
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_trace_is_the_inside_states_of_ks_execution(tmp_path, name):
    case = CASES[name]
    assert LANG.locate_loop(case.source, case.loop_line, None, case.variables) == case.loop_line
    for k in case.ks:
        first = _execution_start(case.lengths, k)
        kept = range(first, first + min(case.steps, k - first + 1))
        expected = b"[" + b",".join(_inside_line(case, i, tmp_path) for i in kept) + b"]\n"
        trace = LANG.trace_copy(case.source, case.loop_line, case.variables, k, case.steps)
        res = LANG.run(trace.source, case.stdin, tmp_path)
        assert (res.ok, res.stdout) == (True, expected), f"k={k}: {res.describe()}"


@needs_gxx
@pytest.mark.parametrize("name", ["nested inner loop", "rep macro, inner loop", "CRLF source"])
def test_the_disabled_trace_copy_is_the_clean_program(tmp_path, name):
    case = CASES[name]
    k = case.ks[-1]
    trace = LANG.trace_copy(case.source, case.loop_line, case.variables, k, case.steps)
    off = disabled_cpp(trace)
    assert off == LANG.trace_copy(case.source, case.loop_line, case.variables, k, case.steps, active=False).source
    changed = [(a, b) for a, b in zip(trace.source.splitlines(), off.splitlines()) if a != b]
    p = trace.prefix
    assert changed == [(f"static const bool {p}active = true;", f"static const bool {p}active = false;")]
    clean = LANG.run(case.source, case.stdin, tmp_path)
    res = LANG.run(off, case.stdin, tmp_path)
    assert clean.ok and clean.stdout.strip()
    assert (res.ok, res.stdout) == (True, clean.stdout)


def test_the_copy_is_the_clean_source_plus_readable_inserted_lines():
    for name, case in CASES.items():
        trace = LANG.trace_copy(case.source, case.loop_line, case.variables, case.ks[-1], case.steps)
        lines = trace.source.split("\n")
        kept = [text for n, text in enumerate(lines, 1) if n not in trace.inserted_lines]
        assert "\n".join(kept) == case.source, name
        steps_line = next(line for line in lines if f"std::vector<std::string> {trace.prefix}steps;" in line)
        assert f"keeps the states at the top of its first {case.steps} iterations" in steps_line
        assert f"printed at iteration {case.ks[-1]}" in steps_line


def test_steps_must_be_positive():
    with pytest.raises(ValueError, match="at least 1 step"):
        LANG.trace_copy(SINGLE, 7, ("s",), 1, 0)


@needs_gxx
def test_a_projection_that_cannot_be_serialized_is_refused_like_the_inside_copy(tmp_path):
    source = SINGLE.replace("#include <iostream>", "#include <iostream>\n#include <unordered_map>").replace(
        "    int last = -1;\n", "    int last = -1;\n    std::unordered_map<int, int> m;\n"
    )
    faults = []
    for copy in (instrument_cpp(source, 9, ("s", "m"), "inside", 2), LANG.trace_copy(source, 9, ("s", "m"), 2, 3)):
        res = LANG.run(copy.source, b"4\n", tmp_path)
        assert res.status == "crash" and res.stdout == b""
        fault = LANG.checkpoint_fault(res.stderr)
        assert fault is not None and fault[0] == "refused", res.stderr
        faults.append(fault[1])
    # each runs as its shared (universal) build, which refuses the variable when the checkpoint shows it
    assert faults[0] == faults[1]
    assert (
        faults[0]
        == f"{REFUSAL_MARKER}m': its type std::unordered_map<int, int> is not one the header serializes (execstate_emit.hpp)"
    )


NAN_AT_THE_SECOND = """#include <cstdio>
#include <cmath>
int main() {
    double d = 0.0;
    for (int i = 0; i < 5; i++) {
        d = i == 1 ? NAN : i;
    }
    printf("%f\\n", d);
}
"""


@needs_gxx
def test_a_value_refused_at_a_kept_step_fails_the_run(tmp_path):
    # d is NaN at the top of iteration 3 only (set by the 2nd): the inside copy there refuses it, and so does a
    # trace that keeps it, though the checkpoint is later
    inside = LANG.run(instrument_cpp(NAN_AT_THE_SECOND, 5, ("d",), "inside", 3).source, b"", tmp_path)
    assert inside.exit_code == REFUSED_EXIT_CODE and REFUSAL_MARKER.encode() in inside.stderr
    for k, steps, refused in ((5, 3, True), (5, 2, False), (2, 8, False)):
        res = LANG.run(LANG.trace_copy(NAN_AT_THE_SECOND, 5, ("d",), k, steps).source, b"", tmp_path)
        if refused:
            assert (res.exit_code, res.stdout) == (REFUSED_EXIT_CODE, b"")
            assert REFUSAL_MARKER.encode() + b"d'" in res.stderr
        else:
            assert res.ok, res.describe()
            assert res.stdout == b'[{"d":0.0},{"d":0.0}]\n'  # the tops of iterations 1 and 2
