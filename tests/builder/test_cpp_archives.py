"""C++ from contest archives through the builder: bundled sources with ``#line`` directives are measured like
their plain twins, a measurement that fails says what failed (a limit only when one was reached), and the
archives' habits (pragmas, ``<bits/stdc++.h>``, ``using namespace std``, ``#define int long long``, reading
to end of file) either build or are excluded with a reason that names them."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from execstate.builder import BuildOptions, build
from execstate.languages.cpp.protocol import HEADER_PATH
from execstate.metrics.cpp import Compiled, Compiler, compile_cpp, measure_cpp
from execstate.metrics.cpp._source import compiled_text, line_directives
from execstate.sandbox import Limits

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ (Debian package g++)")

# As oj-bundle writes it: each file's text after a `#line 1 "path"`, and `#line N "main.cpp"` where main.cpp resumes.
BUNDLED = """#line 1 "/home/user/contest/a.cpp"
#include <bits/stdc++.h>
#line 2 "/home/user/library/template.hpp"
using namespace std;
using ll = long long;
template <class T> bool chmax(T& a, const T& b) { return a < b ? (a = b, true) : false; }
#line 1 "/home/user/library/ds/fenwick.hpp"
struct Fenwick {
    vector<ll> t;
    explicit Fenwick(int n) : t(n + 1) {}
    void add(int i, ll v) { for (++i; i < (int)t.size(); i += i & -i) t[i] += v; }
    ll sum(int i) const { ll s = 0; for (; i > 0; i -= i & -i) s += t[i]; return s; }
};
#line 4 "/home/user/contest/a.cpp"

int main() {
    int n;
    cin >> n;
    Fenwick fw(n);
    ll best = 0, run = 0;
    for (int i = 0; i < n; i++) {
        ll x;
        cin >> x;
        fw.add(i, x);
        run = max(run + x, x);
        chmax(best, run);
    }
    cout << best << ' ' << fw.sum(n) << '\\n';
}
"""


def _twin(source: str) -> str:
    """The same program without its directives: each `#line` line left empty, every other line where it was."""
    return re.sub(r"(?m)^#line .*$", "", source)


def _numbers(n: int) -> str:
    return f"{n}\n" + " ".join(str((j * 37 + 11) % 101 - 50) for j in range(n)) + "\n"


def _case(root: Path, name: str, program: str, loop_text: str, variables: str, short: str, long: str) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "main.cpp").write_text(program)
    (folder / "short.txt").write_text(short)
    (folder / "long.txt").write_text(long)
    (folder / "case.toml").write_text(
        f'id = "archive/{name}"\nstudy = "archive"\nlanguage = "cpp"\nprogram = "main.cpp"\n'
        f'short_input = "short.txt"\nlong_input = "long.txt"\n'
        f"[checkpoint]\nloop_text = {json.dumps(loop_text)}\nvariables = {variables}\n"
    )
    return folder


def _by_arm(tasks: list) -> dict[str, object]:
    return {t.arm: t for t in tasks}


# ---------------------------------------------------------------- #line directives


def test_a_bundled_source_builds_tasks_equal_to_its_plain_twins(tmp_path):
    loop = "for (int i = 0; i < n; i++) {"
    _case(tmp_path, "bundled", BUNDLED, loop, '["run", "best"]', _numbers(4), _numbers(60))
    _case(tmp_path, "plain", _twin(BUNDLED), loop, '["run", "best"]', _numbers(4), _numbers(60))
    result = build([tmp_path], jobs=2)
    assert result.exclusions == []
    bundled = _by_arm([t for t in result.tasks if t.case_id == "archive/bundled"])
    plain = _by_arm([t for t in result.tasks if t.case_id == "archive/plain"])
    assert sorted(bundled) == sorted(plain) and len(bundled) >= 4
    for arm, task in bundled.items():
        twin = plain[arm]
        assert (task.oracle, task.metrics, task.meta["K"], task.meta["k"]) == (
            twin.oracle,
            twin.metrics,
            twin.meta["K"],
            twin.meta["k"],
        ), arm
        assert '#line 1 "/home/user/library/ds/fenwick.hpp"' in task.source  # the task shows the file as it is
    long = bundled["long-trace-final"].metrics.trace_length
    assert long is not None and long > 60 * 4  # the loop body and the library's lines are counted


def test_the_bundled_programs_own_lines_get_the_counts(tmp_path):
    """gcov counts the lines of the file as shown: the library's `add` (line 11) once per element, the
    loop's body lines (21-26) once per iteration, not lines of the names in the directives."""
    compiler = Compiler(cache_dir=tmp_path, precompiled_header=False)
    m = measure_cpp(BUNDLED, _numbers(7).encode(), compiler=compiler)
    twin = measure_cpp(_twin(BUNDLED), _numbers(7).encode(), compiler=compiler)
    assert m.ok, m.detail
    counts = dict(m.line_counts)
    assert counts[11] >= 7 and counts[23] == 7 and counts[26] == 7
    assert (m.trace_length, m.line_counts, m.stdout) == (twin.trace_length, twin.line_counts, twin.stdout)
    assert not set(counts) & set(line_directives(BUNDLED))


def test_line_directives_are_blanked_only_where_the_preprocessor_sees_them():
    source = (
        '#line 10 "x.cpp"\n'  # 1: blanked
        "  #  line 3\n"  # 2: blanked (blanks around the #)
        '# 7 "pre.i" 2\n'  # 3: a GNU linemarker: blanked
        '#line 20 \\\n "y.cpp"\n'  # 4-5: continued: both lines blanked, both breaks kept
        '/* a comment\n#line 1 "in-comment"\n*/\n'  # 6-8: inside a comment: kept
        'const char* s = "\\\n#line 2 \\"in a string\\"";\n'  # 9-10: inside a spliced string: kept
        'auto r = R"(\n#line 3 "in a raw string"\n)";\n'  # 11-13: inside a raw string: kept
        "int big = 1'000'000; char c = '#';\n"  # 14: digit separators and a char literal
        '#line 30 "z.cpp"\r\n'  # 15: CRLF: blanked, its \r\n kept
        '#pragma GCC optimize("O3")\n'  # 16: kept in the runs, blanked in the measured build
        '#pragma GCC target("avx2")\n'  # 17: kept everywhere
        "#define LINE_OK 1\n#include <cstdio>\nint main() { return 0; }\n"
    )
    run = compiled_text(source, coverage=False)
    measured = compiled_text(source, coverage=True)
    assert run.count("\n") == source.count("\n") == measured.count("\n")
    lines, run_lines, measured_lines = source.split("\n"), run.split("\n"), measured.split("\n")
    blanked = {1, 2, 3, 4, 5}
    assert [i for i, (a, b) in enumerate(zip(lines, run_lines), 1) if a != b] == [*sorted(blanked), 15]
    assert run_lines[14] == "\r" and all(run_lines[i - 1] == "" for i in blanked)
    assert [i for i, (a, b) in enumerate(zip(run_lines, measured_lines), 1) if a != b] == [16]
    assert line_directives(source) == [1, 2, 3, 4, 15]
    assert compiled_text("int main() {}\n", coverage=True) == "int main() {}\n"


# ---------------------------------------------------------------- what failed, not "a limit"

LOOP = "for (int i = 0; i < n; i++) {"
SUM = """#include <bits/stdc++.h>
using namespace std;
{before}
int main() {{
    int n;
    cin >> n;
    long long total = 0;
    for (int i = 0; i < n; i++) {{
        long long x;
        cin >> x;
        total += x;{inside}
    }}
    cout << total << '\\n';
}}
"""
# Each fails only in the measured build (-O0: __OPTIMIZE__ is not defined), so the runs pass and the
# measurement is the first thing to fail.
FAILING = {
    "compile_error": (
        SUM.format(before='#ifndef __OPTIMIZE__\n#error "built without optimisation"\n#endif', inside="")
    ),
    "crash": SUM.format(
        before="",
        inside='\n#ifndef __OPTIMIZE__\n        if (i == 1) { cerr << "boom at -O0" << endl; return 3; }\n#endif',
    ),
    "no_covered_line": SUM.format(before="", inside="").replace(
        "int main() {", "__attribute__((no_profile_instrument_function)) int main() {"
    ),
    "limit": SUM.format(before="", inside="\n#ifndef __OPTIMIZE__\n        for (;;) {}\n#endif"),
}
EVIDENCE = {
    "compile_error": ("does not compile", "error: #error", "built without optimisation", "-O0 --coverage"),
    "crash": ("crashed", "exit code 3", "boom at -O0"),
    "no_covered_line": ("gcov counted no line of main.cpp", "none of its functions was instrumented"),
    "limit": ("timeout", "CPU limit of 1 s reached"),
}
QUICK = BuildOptions(limits=Limits(wall_s=10, cpu_s=1), measure_factor=1.0)


def test_a_measurement_that_fails_says_what_failed(tmp_path):
    for name, program in FAILING.items():
        _case(tmp_path, name, program, LOOP, '["total"]', _numbers(3), _numbers(40))
    result = build([tmp_path], jobs=2, options=QUICK)
    assert result.tasks == []
    reasons = {e.case_id.split("/")[1]: (e.check, e.reason) for e in result.exclusions}
    assert set(reasons) == set(FAILING)
    for name, (check, reason) in reasons.items():
        assert check == "run" and "measuring the trace length on the short input" in reason, reason
        assert all(part in reason for part in EVIDENCE[name]), (name, reason)
        assert ("limit" in reason) == (name == "limit"), reason


def test_a_compile_error_names_the_compilers_first_error_line(tmp_path):
    """`using namespace std` with a global that a system header already declares: the compiler's first
    error line, with the name, is in the reason (the stderr tail alone would show only notes)."""
    program = SUM.format(before="int y1;", inside="\n        y1 += 1;")
    _case(tmp_path, "shadows_y1", program, LOOP, '["total"]', _numbers(3), _numbers(40))
    (excluded,) = build([tmp_path]).exclusions
    assert excluded.check == "run"
    assert "does not compile" in excluded.reason and "main.cpp:3:5: error:" in excluded.reason
    assert "y1" in excluded.reason.split("; stderr:")[0] and "limit" not in excluded.reason


# ---------------------------------------------------------------- the archives' habits

HABITS = """#pragma GCC optimize("O3,unroll-loops")
#pragma GCC target("avx2,bmi,bmi2,popcnt,lzcnt")
#include <bits/stdc++.h>
using namespace std;
#define int long long
#define all(v) (v).begin(), (v).end()

int count_bits(int x) { return __builtin_popcountll(x); }

signed main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    vector<int> data;
    int x, count = 0, next = 1;
    while (cin >> x) {
        data.push_back(x * 1000000007LL);
        count += count_bits(x);
        next = next * 3 % 998244353;
    }
    sort(all(data));
    cout << data.size() << ' ' << count << ' ' << next << ' ' << data.back() << '\\n';
}
"""


def _habits_twin() -> str:
    """The same program without the pragmas (their lines left empty)."""
    return re.sub(r"(?m)^#pragma .*$", "", HABITS)


def test_the_archives_habits_build_and_measure_like_the_plain_program(tmp_path):
    """Pragmas before <bits/stdc++.h>, `#define int long long` with `signed main`, names that a
    `using namespace std` also brings (count, next, data), reading to end of file: the case builds, its
    values need 64 bits, and every task's oracle and metrics are the plain twin's."""
    short = "5 3 8\n"
    long = " ".join(str(j * 7919 % 100003) for j in range(1, 80)) + "\n"
    loop = "while (cin >> x) {"
    _case(tmp_path, "habits", HABITS, loop, '["count", "next"]', short, long)
    _case(tmp_path, "plain", _habits_twin(), loop, '["count", "next"]', short, long)
    result = build([tmp_path], jobs=2)
    assert result.exclusions == []
    habits = _by_arm([t for t in result.tasks if t.case_id == "archive/habits"])
    plain = _by_arm([t for t in result.tasks if t.case_id == "archive/plain"])
    assert sorted(habits) == sorted(plain)
    for arm, task in habits.items():
        assert (task.oracle, task.metrics) == (plain[arm].oracle, plain[arm].metrics), arm
    assert habits["long-trace-final"].meta["K"] == 79  # every value read to end of file
    values = long.split()
    assert habits["long-trace-final"].oracle.split()[0] == str(len(values))
    biggest = max(int(v) for v in values) * 1000000007
    assert habits["long-trace-final"].oracle.split()[3] == str(biggest) and biggest > 2**31  # long long


def test_ofast_arithmetic_that_differs_when_measured_is_excluded_naming_the_pragma(tmp_path):
    """A float sum under `#pragma GCC optimize("Ofast")` is vectorised (reassociated) in the runs, not in
    the -O0 measured build: its printed sum differs, and the exclusion names the pragma."""
    program = """#pragma GCC optimize("Ofast")
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n;
    cin >> n;
    vector<float> v(n);
    for (int i = 0; i < n; i++) {
        v[i] = 1.0f / (i + 1) + 1e-3f * (i % 7);
    }
    float s = 0;
    for (int i = 0; i < n; i++) s += v[i];
    printf("%.9g\\n", s);
}
"""
    _case(tmp_path, "ofast", program, "for (int i = 0; i < n; i++) {", '["i"]', "100000\n", "400000\n")
    (excluded,) = build([tmp_path]).exclusions
    assert excluded.check == "measurement", excluded.reason
    assert '`#pragma GCC optimize("Ofast")` optimises the runs, not the measured build' in excluded.reason


def test_bits_stdcpp_gets_the_precompiled_header_beside_the_emitters_folder(tmp_path, cpp_cache_with_headers):
    """A clean program that includes <bits/stdc++.h> is compiled with the emitter's folder on the include
    path (as every C++ case is): it is offered the precompiled header, and the binary is the same. (Cache ``a``
    starts with the headers already made, ``b`` with nothing.)"""
    source = _habits_twin()
    include = (HEADER_PATH.parent,)
    cpp_cache_with_headers(tmp_path / "a")
    fast = compile_cpp(
        source, include_dirs=include, compiler=Compiler(cache_dir=tmp_path / "a"), first_header=HEADER_PATH
    )
    slow = compile_cpp(
        source,
        include_dirs=include,
        compiler=Compiler(cache_dir=tmp_path / "b", precompiled_header=False),
        first_header=HEADER_PATH,
    )
    assert isinstance(fast, Compiled) and isinstance(slow, Compiled)
    assert fast.precompiled_header and not slow.precompiled_header
    assert fast.binary.read_bytes() == slow.binary.read_bytes()
    small = "#include <bits/stdc++.h>\nint main() { std::cout << 1; }\n"
    own = tmp_path / "own" / "bits"
    own.mkdir(parents=True)
    (own / "stdc++.h").write_text("#include <iostream>\n")  # an include directory's own bits/stdc++.h wins
    system = compile_cpp(small, include_dirs=include, compiler=Compiler(cache_dir=tmp_path / "a"))
    mine = compile_cpp(small, include_dirs=(own.parent,), compiler=Compiler(cache_dir=tmp_path / "a"))
    assert isinstance(system, Compiled) and isinstance(mine, Compiled)
    assert system.precompiled_header and not mine.precompiled_header


def test_an_illegal_instruction_under_a_target_pragma_names_the_pragma(tmp_path):
    """SIGILL in a run of a program that sets `#pragma GCC target`: the reason names the pragma (here the
    instruction is `__builtin_trap`'s ud2, which raises SIGILL on every CPU)."""
    program = SUM.format(before='#pragma GCC target("avx2")', inside="\n        if (i == 2) __builtin_trap();")
    _case(tmp_path, "sigill", program, LOOP, '["total"]', _numbers(3), _numbers(40))
    (excluded,) = build([tmp_path]).exclusions
    assert excluded.check == "run" and "signal SIGILL" in excluded.reason
    assert 'the program\'s `#pragma GCC target("avx2")` may ask for instructions this CPU lacks' in excluded.reason


# The example shape: a bundled source whose loop is a macro call, and its twin with neither habit.
BUNDLED_MACRO = """#line 1 "main.cpp"
#include <bits/stdc++.h>
#line 1 "lib/util.hpp"
template <class T> bool chmax(T& a, T b) { return a < b ? (a = b, true) : false; }
#line 4 "main.cpp"
#define rep(i, n) for (int i = 0; i < (int)(n); ++i)
int main() { int n; std::cin >> n; long long s = 0, best = 0;
  rep(i, n) { long long x; std::cin >> x; s += x; chmax(best, s); }
  std::cout << best << "\\n"; }
"""
PLAIN_TWIN = (
    _twin(BUNDLED_MACRO)
    .replace("#define rep(i, n) for (int i = 0; i < (int)(n); ++i)", "")
    .replace("rep(i, n) {", "for (int i = 0; i < (int)(n); ++i) {")
)


def test_a_bundled_source_with_a_macro_loop_builds_like_its_plain_twin(tmp_path):
    """Both habits at once, on the same line layout: every task's oracle, metrics, k and K equal the twin's."""
    assert BUNDLED_MACRO.count("\n") == PLAIN_TWIN.count("\n")
    body = " long long x; std::cin >> x; s += x; chmax(best, s); }"
    _case(tmp_path, "both", BUNDLED_MACRO, "rep(i, n) {" + body, '["s", "best"]', _numbers(4), _numbers(60))
    loop = "for (int i = 0; i < (int)(n); ++i) {" + body
    _case(tmp_path, "twin", PLAIN_TWIN, loop, '["s", "best"]', _numbers(4), _numbers(60))
    result = build([tmp_path], jobs=2)
    assert result.exclusions == []
    both = _by_arm([t for t in result.tasks if t.case_id == "archive/both"])
    twin = _by_arm([t for t in result.tasks if t.case_id == "archive/twin"])
    assert sorted(both) == sorted(twin) and len(both) >= 4
    for arm, task in both.items():
        other = twin[arm]
        assert (task.oracle, task.metrics, task.meta["K"], task.meta["k"]) == (
            other.oracle,
            other.metrics,
            other.meta["K"],
            other.meta["k"],
        ), arm
    assert (
        "rep(i, n)" in both["short-trace-final"].source and '#line 1 "lib/util.hpp"' in both["long-trace-final"].source
    )
