"""C++ metrics: the compile cache, sandboxed runs, gcov trace lengths by hand, forgery, limits, state, cyclomatic."""

from __future__ import annotations

import shutil
import subprocess
import threading

import pytest

from execstate.errors import ExecstateError
from execstate.metrics import (
    Compiled,
    CompileFailure,
    Compiler,
    CompilerMissing,
    compile_cpp,
    cyclomatic_cpp,
    measure_cpp,
    run_binary,
    state_metrics,
)
from execstate.metrics.cpp import _compile, function_complexities, gcda_runs, observations
from execstate.sandbox import Limits, run, scrubbed_env

pytestmark = pytest.mark.skipif(shutil.which("g++") is None or shutil.which("gcov") is None, reason="needs g++, gcov")


@pytest.fixture(scope="module")
def cxx(tmp_path_factory) -> Compiler:
    """A compiler with a cache of its own (and no precompiled header, which is tested on its own)."""
    return Compiler(cache_dir=tmp_path_factory.mktemp("cpp-cache"), precompiled_header=False)


def built(source: str, compiler: Compiler, **kwargs) -> Compiled:
    result = compile_cpp(source, compiler=compiler, **kwargs)
    assert isinstance(result, Compiled), result
    return result


# ---------------------------------------------------------------- compile cache

HELLO = '#include <cstdio>\nint main() { std::puts("hello"); }\n'


def test_second_compile_is_a_cache_hit(tmp_path):
    compiler = Compiler(cache_dir=tmp_path, precompiled_header=False)
    first, second = built(HELLO, compiler), built(HELLO, compiler)
    assert (first.cached, second.cached) == (False, True)
    assert first.compile_s > 0 and second.compile_s == 0
    assert first.directory == second.directory and first.binary.is_file()
    assert first.directory.parent.parent == tmp_path / "bin" and first.directory.name == first.key
    assert first.compiler.startswith("g++ ") and first.flags == ("-std=c++20", "-O2")
    assert built(HELLO, compiler, coverage=True).key != first.key  # other flags, other entry
    assert run_binary(first, b"").stdout == b"hello\n"


def test_the_disk_cache_serves_a_new_process(tmp_path, monkeypatch):
    compiler = Compiler(cache_dir=tmp_path, precompiled_header=False)
    first = built(HELLO, compiler)
    monkeypatch.setattr(_compile, "_MEMO", {})  # what a new process starts with
    again = built(HELLO, compiler)
    assert again.cached and again.directory == first.directory


def test_concurrent_compiles_of_one_source_make_one_binary(tmp_path):
    compiler = Compiler(cache_dir=tmp_path, precompiled_header=False)
    source = HELLO.replace("hello", "eight threads")
    barrier = threading.Barrier(8)
    results: list[object] = []
    errors: list[BaseException] = []

    def work() -> None:
        barrier.wait()
        try:
            results.append(compile_cpp(source, compiler=compiler))
        except BaseException as exc:  # reported below: a thread's exception must fail the test
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(results) == 8 and all(isinstance(r, Compiled) for r in results)
    assert len({r.directory for r in results}) == 1  # type: ignore[union-attr]
    assert sum(not r.cached for r in results) == 1  # type: ignore[union-attr]
    assert len(list((tmp_path / "bin").rglob("prog"))) == 1
    assert list((tmp_path / "tmp").iterdir()) == []


def test_a_racing_process_publishing_second_keeps_the_first(tmp_path):
    final = tmp_path / "bin" / "ab" / "abcd"
    for text in ("first", "second"):
        work = tmp_path / f"work-{text}"
        work.mkdir()
        (work / "prog").write_text(text)
        _compile._publish(work, final)
    assert (final / "prog").read_text() == "first"


def test_a_compile_error_carries_the_first_error_lines(cxx):
    broken = "int main() {\n" + "".join(f"    undeclared_{i} = {i};\n" for i in range(40)) + "}\n"
    failure = compile_cpp(broken, compiler=cxx)
    assert isinstance(failure, CompileFailure) and not failure.ok
    assert failure.status == "compile-error"
    assert "main.cpp:2:5: error:" in failure.errors and "undeclared_0" in failure.errors
    assert "undeclared_39" not in failure.errors  # bounded: the first lines only
    assert len(failure.errors.splitlines()) <= 20 and len(failure.errors) <= 2000


def test_a_missing_compiler_names_the_debian_package(tmp_path):
    with pytest.raises(CompilerMissing) as caught:
        compile_cpp(HELLO, compiler=Compiler(path=str(tmp_path / "no-g++"), cache_dir=tmp_path))
    assert isinstance(caught.value, ExecstateError)
    assert "Debian package g++" in str(caught.value) and "apt-get install g++" in str(caught.value)
    with pytest.raises(CompilerMissing, match=r"Debian package gcc\b.*apt-get install gcc"):
        measure_cpp(HELLO, b"", compiler=Compiler(gcov=str(tmp_path / "no-gcov"), cache_dir=tmp_path))


def test_the_compiler_reads_no_file_it_was_not_given(tmp_path, cxx):
    headers = tmp_path / "headers"
    headers.mkdir()
    (headers / "answer.h").write_text("inline int answer() { return 42; }\n")
    source = f'#include "{headers}/answer.h"\n#include <cstdio>\nint main() {{ std::printf("%d", answer()); }}\n'
    refused = compile_cpp(source, compiler=cxx)
    assert isinstance(refused, CompileFailure) and "No such file" in refused.errors
    allowed = built(source, cxx, include_dirs=[headers])
    assert run_binary(allowed).stdout == b"42"
    (headers / "answer.h").write_text("inline int answer() { return 43; }\n")
    edited = built(source, cxx, include_dirs=[headers])
    assert edited.key != allowed.key and run_binary(edited).stdout == b"43"


STDCPP = """#include <bits/stdc++.h>
using namespace std;
int main() {
    int n; cin >> n;
    vector<int> a(n);
    iota(a.begin(), a.end(), 1);
    cout << accumulate(a.begin(), a.end(), 0LL) << "\\n";
}
"""


def test_the_precompiled_header_is_used_and_changes_no_binary(tmp_path):
    plain = built(STDCPP, Compiler(cache_dir=tmp_path / "a", precompiled_header=False))
    fast = built(STDCPP, Compiler(cache_dir=tmp_path / "b"))
    assert fast.precompiled_header and not plain.precompiled_header
    assert fast.binary.read_bytes() == plain.binary.read_bytes()
    assert not built(HELLO, Compiler(cache_dir=tmp_path / "b")).precompiled_header  # only for bits/stdc++.h
    (pch,) = (tmp_path / "b" / "pch").iterdir()
    probe = tmp_path / "probe.cpp"
    probe.write_text(STDCPP)
    shown = subprocess.run(
        ["g++", "-std=c++20", "-O2", "-H", "-fsyntax-only", "-I", str(pch), str(probe)], capture_output=True, text=True
    )
    assert shown.stderr.splitlines()[0] == f"! {pch}/bits/stdc++.h.gch"  # "!": GCC loaded the .gch


# ---------------------------------------------------------------- running


def test_a_run_gets_a_fresh_copy_and_cannot_see_the_cache(cxx):
    source = r"""#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
int main() {
    std::string cache;
    std::cin >> cache;
    std::printf("%d %d\n", (bool)std::ifstream(cache), (bool)std::ifstream("left-behind"));
    std::ofstream("left-behind") << "x";
    std::ofstream("prog") << "overwritten";
}
"""
    binary = built(source, cxx)
    first = run_binary(binary, str(binary.binary).encode())
    second = run_binary(binary, str(binary.binary).encode())
    assert first.ok and first.stdout == second.stdout == b"0 0\n"
    assert binary.binary.read_bytes()[:4] == b"\x7fELF"


def test_the_fresh_copy_is_written_by_another_process(cxx, monkeypatch):
    """No file to be executed is ever open for writing in this (threaded) process: a child another thread forked
    would inherit the descriptor and the kernel would refuse to run the copy (Text file busy)."""
    binary = built(HELLO, cxx)

    def refused(*args, **kwargs):
        raise AssertionError("the binary was copied in the harness's own process")

    for name in ("copy", "copy2", "copyfile", "copyfileobj"):
        monkeypatch.setattr(shutil, name, refused)
    with _compile.fresh_copy(binary) as work:
        copy = work / "prog"
        assert copy.read_bytes() == binary.binary.read_bytes() and copy.stat().st_mode & 0o111
    assert run_binary(binary).ok


def test_limits_hold_for_runs_and_measurements(cxx):
    spin = "int main() { volatile unsigned x = 0; while (true) x++; }\n"
    bomb = "#include <vector>\nint main() { std::vector<long long> v; while (true) v.push_back(1); }\n"
    quick = Limits(wall_s=5, cpu_s=1, memory_mb=256)
    assert run_binary(built(spin, cxx), b"", quick).status == "timeout"
    assert measure_cpp(spin, b"", limits=quick, compiler=cxx).status == "timeout"
    # the bomb must meet the memory limit before any time limit, also on a loaded machine (the coverage
    # build at -O0 was seen to need more than 5 s of wall clock to fill 256 MiB while other jobs ran)
    roomy = Limits(wall_s=120, cpu_s=30, memory_mb=256)
    assert run_binary(built(bomb, cxx), b"", roomy).status == "memory"
    assert measure_cpp(bomb, b"", limits=roomy, compiler=cxx).status == "memory"


# ---------------------------------------------------------------- trace length by hand
# gcov counts a line each time control enters it from another line: a function's first line once
# per call, a `for` header once on entry plus once per finished iteration (its increment is entered
# from the body), a `while` header once on entry plus once per iteration, a body line once per
# iteration. A declaration without an initializer has no code and no count; a closing brace has a
# count only when it holds code (the implicit return of a function that has no `return`).

LOOP = r"""#include <cstdio>
int main() {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    long long s = 0;
    for (int i = 0; i < n; i++) {
        s += i;
    }
    printf("%lld\n", s);
    return 0;
}
"""
# lines 2, 4, 5, 9, 10 once each; line 6 n + 1 times; line 7 n times: 2n + 6.

CALLS = r"""#include <cstdio>
int sq(int x) {
    return x * x;
}
int main() {
    int n, t = 0;
    scanf("%d", &n);
    for (int i = 1; i <= n; i++)
        t += sq(i);
    printf("%d\n", t);
    return 0;
}
"""
# sq's lines 2, 3 once per call (n calls); main's 5, 6, 7, 10, 11 once; 8 n + 1 times; 9 n times: 4n + 6.

CHECKPOINT = r"""#include <cstdio>
#include <cstdlib>
int main() {
    int n;
    scanf("%d", &n);
    long long s = 0;
    for (int i = 0; i < n; i++) {
        if (i == 3) { printf("{\"s\":%lld}\n", s); std::exit(0); }
        s += i;
    }
    printf("%lld\n", s);
}
"""
# n = 10 stops at the top of iteration 4 (i == 3): 3, 5, 6 once; 7 and 8 four times; 9 three times;
# 11 and the closing brace 12 never: 14. n = 2 never stops: 3, 5, 6, 11, 12 once; 7 3x, 8 2x, 9 2x: 12.

COLLATZ = r"""#include <cstdio>
int main() {
    int n;
    scanf("%d", &n);
    int k = 0;
    while (n > 1) {
        if (n % 2 == 0)
            n /= 2;
        else
            n = 3 * n + 1;
        k++;
    }
    printf("%d\n", k);
}
"""
# 6 -> 3 -> 10 -> 5 -> 16 -> 8 -> 4 -> 2 -> 1: 8 steps, 6 halvings, 2 triplings. Lines 2, 4, 5, 13, 14 once;
# 6 nine times (entry + 8), 7 and 11 eight times, 8 six, 10 two: 5 + 9 + 8 + 6 + 2 + 8 = 38.


@pytest.mark.parametrize(
    ("source", "stdin", "stdout", "expected"),
    [
        (LOOP, b"0\n", b"0\n", 6),
        (LOOP, b"5\n", b"10\n", 16),
        (LOOP, b"1000\n", b"499500\n", 2006),
        (CALLS, b"0\n", b"0\n", 6),
        (CALLS, b"4\n", b"30\n", 22),
        (CHECKPOINT, b"2\n", b"1\n", 12),
        (CHECKPOINT, b"10\n", b'{"s":3}\n', 14),
        (COLLATZ, b"6\n", b"8\n", 38),
    ],
)
def test_trace_length_by_hand(cxx, source, stdin, stdout, expected):
    m = measure_cpp(source, stdin, compiler=cxx)
    assert (m.status, m.detail) == ("ok", "")
    assert m.stdout == stdout and m.trace_length == expected
    assert m.compiler.startswith("g++ ") and (m.peak_state, m.state_load) == (None, None)


def test_line_counts_of_the_loop_by_hand(cxx):
    m = measure_cpp(LOOP, b"5\n", compiler=cxx)
    assert dict(m.line_counts) == {2: 1, 4: 1, 5: 1, 6: 6, 7: 5, 9: 1, 10: 1}


def test_inserted_lines_are_not_counted(cxx):
    whole = measure_cpp(CHECKPOINT, b"10\n", compiler=cxx)
    checkpoint_line = measure_cpp(CHECKPOINT, b"10\n", compiler=cxx, inserted_lines=frozenset({8}))
    loop_lines = measure_cpp(LOOP, b"5\n", compiler=cxx, inserted_lines=frozenset({6, 7, 8}))
    assert whole.trace_length == 14
    assert checkpoint_line.trace_length == 14 - 4  # line 8 ran 4 times
    assert loop_lines.trace_length == 16 - 6 - 5  # line 6 ran 6 times, 7 five, 8 has no code
    assert checkpoint_line.line_counts == whole.line_counts  # the per-line report keeps every line


def test_a_run_without_exit_handlers_leaves_no_measurement(cxx):
    source = "#include <unistd.h>\nint main() { _exit(0); }\n"
    m = measure_cpp(source, b"", compiler=cxx)
    assert m.status == "error" and "no coverage data" in m.detail and m.trace_length is None


def test_a_source_that_does_not_compile_is_an_error(cxx):
    m = measure_cpp("int main() { return x; }\n", b"", compiler=cxx)
    assert m.status == "error" and "error:" in m.detail and m.trace_length is None


# ---------------------------------------------------------------- forged coverage data

FORGER = r"""#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
void plant(const std::string &dir, const std::string &data) {
    for (const char *name : {"prog-main.gcda", "main.gcda", "prog.gcda"})
        std::ofstream(dir + "/" + name, std::ios::binary) << data;
}
int main() {
    std::string mode;
    long long n;
    std::cin >> mode >> n;
    long long s = 0;
    for (long long i = 0; i < n; i++) s += i;
    std::cout << s << "\n";
    std::cin.get();
    std::string data((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    std::string dir = ".";
    if (mode == "env") { dir = std::getenv("GCOV_PREFIX"); mkdir(dir.c_str(), 0755); }
    if (mode == "link") { symlink(".", std::getenv("GCOV_PREFIX")); }
    plant(dir, data);
}
"""


@pytest.fixture(scope="module")
def forged(cxx, tmp_path_factory) -> bytes:
    """A genuine .gcda of FORGER's coverage build for n = 100000: accepted by libgcov, and huge if merged."""
    binary = built(FORGER, cxx, coverage=True)
    work = tmp_path_factory.mktemp("forge")
    shutil.copy2(binary.binary, work / "prog")
    env = scrubbed_env(extra={"GCOV_PREFIX": str(work / "out"), "GCOV_PREFIX_STRIP": "10000"})
    assert run([str(work / "prog")], b"fixed 100000\n", env=env, cwd=work).ok
    data = (work / "out" / "prog-main.gcda").read_bytes()
    assert gcda_runs(data) == 1
    return data


def test_a_forged_gcda_at_a_fixed_name_changes_nothing(cxx, forged):
    honest = measure_cpp(FORGER, b"fixed 7\n", compiler=cxx)
    planted = measure_cpp(FORGER, b"fixed 7\n" + forged, compiler=cxx)
    assert honest.ok and planted.ok and planted.stdout == b"21\n"
    assert planted.trace_length == honest.trace_length
    assert dict(planted.line_counts)[17] == 8  # the loop line: n + 1, not 100001 + 8


@pytest.mark.parametrize("mode", ["env", "link"])
def test_a_gcda_planted_at_the_random_path_is_refused(cxx, forged, mode):
    m = measure_cpp(FORGER, f"{mode} 7\n".encode() + forged, compiler=cxx)
    assert m.status == "error" and m.trace_length is None
    assert ("holds 2 runs" in m.detail) if mode == "env" else ("not a directory" in m.detail)


def test_gcda_runs_reads_the_object_summary():
    header = b"adcg" + b"*22B" + bytes(8)
    summary = (0xA1000000).to_bytes(4, "little") + (8).to_bytes(4, "little")
    assert gcda_runs(header + summary + (3).to_bytes(4, "little") + bytes(4)) == 3
    assert gcda_runs(b"not a gcda file at all, no magic") is None


# ---------------------------------------------------------------- state metrics


def marks(*sizes: int) -> bytes:
    return b"".join(b"\n__execstate_slots__=%d\n" % n for n in sizes)


@pytest.mark.parametrize(
    ("stderr", "upto", "expected"),
    [
        (marks(3, 3, 4, 2), None, (4, 12)),
        (marks(3, 3, 4, 2), 2, (3, 6)),
        (marks(3, 3, 4, 2), 0, (0, 0)),
        (marks(1, 5), 2, (5, 6)),
        (b"", None, (0, 0)),
        (b"warning: x\n" + marks(2) + b"partial" + marks(7) + b"\n" + marks(1), None, (7, 10)),
        (b"x__execstate_slots__=99\n" + marks(2), None, (2, 2)),  # not a line of its own
        (b"\n__execstate_slots__=\n\n__execstate_slots__=-4\n" + marks(6), None, (6, 6)),  # not a count
        (marks(10**12, 1), None, (10**12, 10**12 + 1)),
    ],
)
def test_state_metrics_on_synthetic_streams(stderr, upto, expected):
    assert state_metrics(stderr, upto) == expected


def test_state_metrics_refuses_an_endpoint_that_was_not_reached():
    assert observations(marks(4, 5, 6)) == [4, 5, 6]
    with pytest.raises(ValueError, match="first 4 observations, but stderr holds 3"):
        state_metrics(marks(4, 5, 6), 4)
    with pytest.raises(ValueError):
        state_metrics(marks(4), -1)


OBSERVED = r"""#include <cstdio>
#include <vector>
int main() {
    int n;
    scanf("%d", &n);
    std::vector<int> v;
    for (int i = 0; i < n; i++) {
        fprintf(stderr, "\n__execstate_slots__=%d\n", 1 + (int)v.size());
        fprintf(stderr, "noise");
        v.push_back(i);
    }
    printf("%d\n", (int)v.size());
}
"""
# Projection (i, v): |S_t| = 1 + |v| = t at the top of iteration t; n = 5 gives peak 5, load 1+2+3+4+5 = 15.


def test_measure_takes_state_from_the_observing_run(cxx):
    clean = OBSERVED.replace('        fprintf(stderr, "\\n__execstate_slots__=%d\\n", 1 + (int)v.size());\n', "")
    final = measure_cpp(clean, b"5\n", compiler=cxx, observe_source=OBSERVED)
    inside = measure_cpp(clean, b"5\n", compiler=cxx, observe_source=OBSERVED, observe_upto=3)
    assert (final.peak_state, final.state_load, final.observations) == (5, 15, 5)
    assert (inside.peak_state, inside.state_load, inside.observations) == (3, 6, 3)
    assert final.trace_length == inside.trace_length and final.stdout == b"5\n"
    beyond = measure_cpp(clean, b"5\n", compiler=cxx, observe_source=OBSERVED, observe_upto=6)
    assert beyond.status == "error" and "6 observations" in beyond.detail


# ---------------------------------------------------------------- cyclomatic complexity by hand
# Each graph's value is E - N + 2 over its basic blocks (N) and edges (E); the file's is
# 1 + sum over functions of (value - 1). Every program below is counted from its graph by hand.

STRAIGHT = """#include <cstdio>
int main() {
    int a = 1, b = 2;
    printf("%d\\n", a + b);
    return 0;
}
"""
# main: one block, no edge: 0 - 1 + 2 = 1. File: 1.

LOOP_IF = """int positive_sum(const int *a, int n) {
    int s = 0;
    for (int i = 0; i < n; i++) {
        if (a[i] > 0)
            s += a[i];
    }
    return s;
}
int main() { int a[3] = {1, -2, 3}; return positive_sum(a, 3) == 4 ? 0 : 1; }
"""
# positive_sum: blocks init, test i<n, test a[i]>0, s+=, i++, return (N = 6); edges init->test,
# test->if, test->return, if->s+=, if->i++, s+=->i++, i++->test (E = 7): 7 - 6 + 2 = 3.
# main: the conditional expression splits it into test, 0, 1, return (N = 4, E = 4): 2.
# File: 1 + (3 - 1) + (2 - 1) = 4.

SHORT_CIRCUIT = """bool inside(int x, int lo, int hi) {
    return lo <= x && x < hi;
}
int count(int n) {
    int c = 0, i = 0;
    while (i < n) {
        if (inside(i, 2, 5) || i == 9)
            c++;
        i++;
    }
    return c;
}
int main() { return count(10); }
"""
# inside: the `&&` is the one branch: test lo<=x goes to "value false" or to "value x<hi", both to
# the return (N = 4: test, false, x<hi, return; E = 4): 2. count: entry, test i<n, test inside,
# test i==9, c++, i++, return (N = 7); entry->while, while->inside, while->return, inside->c++,
# inside->i==9, i==9->c++, i==9->i++, c++->i++, i++->while (E = 9): 4. main: 1. File: 1 + 1 + 3 = 5.

SWITCH = """int grade(int score) {
    switch (score / 10) {
    case 10:
    case 9:
        return 4;
    case 8:
        return 3;
    default:
        return 0;
    }
}
int main() {
    int total = 0, n = 0;
    do {
        total += grade(n * 10);
        n++;
    } while (n <= 10);
    return total;
}
"""
# grade: the switch block jumps to one block per label: case 10, case 9 (falls into return 4),
# case 8, default, then return 4, return 3, return 0 and the exit (N = 9); switch->10, ->9, ->8,
# ->default, 10->9, 9->ret4, 8->ret3, default->ret0, each return->exit (E = 11): 4.
# main: entry, body, test n<=10, return (N = 4); entry->body, body->test, test->body,
# test->return (E = 4): 2. File: 1 + 3 + 1 = 5.

CATCH = """#include <stdexcept>
#include <string>
int parse(const std::string &s) {
    try {
        return std::stoi(s);
    } catch (const std::invalid_argument &) {
        return -1;
    } catch (const std::out_of_range &) {
        return -2;
    }
}
int main() { return parse("3"); }
"""
# parse: the call returns normally or throws to either handler: call, return its value, handler 1,
# handler 2, exit (N = 5); call->return, call->handler 1, call->handler 2, each of the three ->exit
# (E = 6): 3. (An exception of another type leaves the function: like every tool, the graph has no
# edge for it.) main: 1. File: 1 + 2 = 3.


@pytest.mark.parametrize(
    ("source", "functions", "expected"),
    [
        (STRAIGHT, {"main": 1}, 1),
        (LOOP_IF, {"positive_sum": 3, "main": 2}, 4),
        (SHORT_CIRCUIT, {"inside": 2, "count": 4, "main": 1}, 5),
        (SWITCH, {"grade": 4, "main": 2}, 5),
        (CATCH, {"parse": 3, "main": 1}, 3),
    ],
    ids=["straight", "loop-if", "short-circuit", "switch", "catch"],
)
def test_cyclomatic_by_hand(source, functions, expected):
    assert dict(function_complexities(source)) == functions
    assert cyclomatic_cpp(source) == expected


def test_cyclomatic_agrees_with_lizard_and_ignores_its_comment_directives():
    lizard = pytest.importorskip("lizard")
    for source in (LOOP_IF, SHORT_CIRCUIT, SWITCH, CATCH):
        stock = lizard.analyze_file.analyze_source_code("main.cpp", source).function_list
        assert function_complexities(source) == [(f.name, f.cyclomatic_complexity) for f in stock]
    directive = "// #lizard forgive\n" + LOOP_IF.replace("int main()", "// GENERATED CODE\nint main()")
    assert cyclomatic_cpp(directive) == cyclomatic_cpp(LOOP_IF) == 4


def test_cyclomatic_conventions_documented():
    # a lambda's decisions count in the enclosing function; `and`, `default`, `do`, `T&&`, a global
    # initializer's `?:` and a file-level `#ifdef` count nothing; `#ifdef` inside a function counts 1.
    source = """#ifdef LOCAL
int debug = 1;
#endif
int g = 1 ? 2 : 3;
template <class T> void keep(T&& t) { (void)t; }
int main(int argc, char **) {
    auto pos = [](int v) { return v > 0 ? 1 : 0; };
    int r = 0;
    do { r += pos(argc); } while (r < 3 and r > -1);
    switch (r) { default: break; }
#ifdef LOCAL
    r++;
#endif
    return r;
}
"""
    assert dict(function_complexities(source)) == {"keep": 1, "main": 4}  # ?:, while, #ifdef
    assert cyclomatic_cpp(source) == 4


def test_cache_location_and_gcov_name(tmp_path, monkeypatch):
    monkeypatch.setenv("EXECSTATE_CPP_CACHE", str(tmp_path / "env-cache"))
    assert Compiler().cache_root() == tmp_path / "env-cache"
    monkeypatch.delenv("EXECSTATE_CPP_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert Compiler().cache_root() == tmp_path / "xdg" / "execstate" / "cpp"
    assert Compiler(cache_dir=tmp_path).cache_root() == tmp_path
    if shutil.which("g++-12") and shutil.which("gcov-12"):
        assert Compiler(path="g++-12").gcov_executable().endswith("gcov-12")


def test_a_header_included_first_is_precompiled_and_changes_no_binary(tmp_path):
    """The instrumented copies include execstate_emit.hpp first: it is precompiled once per flags."""
    from execstate.languages.cpp.instrument import instrument_cpp
    from execstate.languages.cpp.protocol import HEADER_PATH

    clean = "#include <iostream>\nint main() {\n    int s = 0;\n    for (int i = 0; i < 9; i++) {\n        s += i;\n    }\n    std::cout << s;\n}\n"
    copy = instrument_cpp(clean, 4, ("s",), "inside", 3).source
    include = (HEADER_PATH.parent,)
    plain = compile_cpp(
        copy,
        include_dirs=include,
        compiler=Compiler(cache_dir=tmp_path / "a", precompiled_header=False),
        first_header=HEADER_PATH,
    )
    fast = compile_cpp(
        copy, include_dirs=include, compiler=Compiler(cache_dir=tmp_path / "b"), first_header=HEADER_PATH
    )
    assert isinstance(plain, Compiled) and isinstance(fast, Compiled)
    assert fast.precompiled_header and not plain.precompiled_header
    assert fast.binary.read_bytes() == plain.binary.read_bytes()
    assert run_binary(fast, b"").stdout == b'{"s":1}\n'  # top of iteration 3: i = 0, 1 were added
    later = "#include <vector>\n" + copy  # the header is not the first include: nothing is offered
    assert not compile_cpp(
        later, include_dirs=include, compiler=Compiler(cache_dir=tmp_path / "b"), first_header=HEADER_PATH
    ).precompiled_header  # type: ignore[union-attr]
    (pch,) = (tmp_path / "b" / "pch").iterdir()
    probe = tmp_path / "probe" / "main.cpp"
    probe.parent.mkdir()
    probe.write_text(copy)
    shown = subprocess.run(
        ["g++", "-std=c++20", "-O2", "-H", "-fsyntax-only", "-I", str(pch), "-I", str(HEADER_PATH.parent), str(probe)],
        capture_output=True,
        text=True,
    )
    assert shown.stderr.splitlines()[0] == f"! {pch}/execstate_emit.hpp.gch"  # "!": GCC loaded the .gch
