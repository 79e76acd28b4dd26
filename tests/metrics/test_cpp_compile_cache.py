"""The C++ compile cache counts its compiler runs, never repeats one (in a process or across processes), and
precompiles the emit header after ``<bits/stdc++.h>`` for the instrumented copies of contest programs."""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from execstate.metrics.cpp import Compiled, CompileFailure, Compiler, compile_cpp, run_binary
from execstate.metrics.cpp._compile import COMPILE_LIMITS, cache_stats, compile_stats

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ (Debian package g++)")

HELLO = '#include <cstdio>\nint main() { std::puts("counted"); }\n'

# One process compiling HELLO into the cache its argument names, printing its own compiler runs.
CHILD = """
import sys
from pathlib import Path
from execstate.metrics.cpp import Compiler, compile_cpp
from execstate.metrics.cpp._compile import compile_stats
compile_cpp(sys.argv[2], compiler=Compiler(cache_dir=Path(sys.argv[1]), precompiled_header=False))
print(compile_stats().runs)
"""


def _child(cache: Path, source: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", CHILD, str(cache), source], stdout=subprocess.PIPE, text=True)


def test_a_second_compile_of_the_same_source_and_flags_runs_no_compiler(tmp_path):
    compiler = Compiler(cache_dir=tmp_path, precompiled_header=False)
    compile_stats(reset=True)
    first = compile_cpp(HELLO, compiler=compiler)
    after_first = compile_stats()
    second = compile_cpp(HELLO, compiler=compiler)
    after_second = compile_stats()
    assert isinstance(first, Compiled) and isinstance(second, Compiled)
    assert (after_first.runs, after_first.hits) == (1, 0) and after_first.seconds > 0
    assert (after_second.runs, after_second.hits) == (1, 1)  # answered from the cache
    compile_cpp(HELLO, coverage=True, compiler=compiler)
    both = compile_stats(reset=True)
    assert both.runs == 2  # other flags: a compiler run of their own
    assert compile_stats().runs == 0
    held = cache_stats(tmp_path)  # what the cache's entries record: the same runs and seconds
    assert held.runs == 2 and held.hits == 0 and held.seconds == pytest.approx(both.seconds)


def test_another_process_finds_the_compile_in_the_cache(tmp_path):
    assert isinstance(compile_cpp(HELLO, compiler=Compiler(cache_dir=tmp_path, precompiled_header=False)), Compiled)
    child = _child(tmp_path, HELLO)
    out, _ = child.communicate(timeout=300)
    assert child.returncode == 0 and out.strip() == "0"
    assert cache_stats(tmp_path).runs == 1


def test_processes_racing_for_one_source_compile_it_once(tmp_path):
    """The workers of a pool that meet the same source: one compiles, the others wait for it (a file lock)."""
    source = HELLO.replace("counted", "raced")
    children = [_child(tmp_path, source) for _ in range(3)]
    runs = []
    for child in children:
        out, _ = child.communicate(timeout=300)
        assert child.returncode == 0
        runs.append(int(out))
    assert sorted(runs) == [0, 0, 1]
    assert cache_stats(tmp_path).runs == 1 and list((tmp_path / "tmp").iterdir()) == []


REFUSED = "int main() { return undeclared_name; }\n"


def test_a_refused_source_is_compiled_once_and_counted_as_a_run(tmp_path):
    """A compile error is as deterministic as a binary: kept in the cache, answered again without a compiler run
    (here and in another process), with the same errors, and counted by ``cache_stats`` among the runs."""
    compiler = Compiler(cache_dir=tmp_path, precompiled_header=False)
    compile_stats(reset=True)
    first = compile_cpp(REFUSED, compiler=compiler)
    second = compile_cpp(REFUSED, compiler=compiler)
    assert isinstance(first, CompileFailure) and isinstance(second, CompileFailure)
    assert first.status == second.status == "compile-error" and "undeclared_name" in first.first_error
    assert second == first
    mine = compile_stats()
    assert (mine.runs, mine.hits) == (1, 1)
    child = _child(tmp_path, REFUSED)
    out, _ = child.communicate(timeout=300)
    assert child.returncode == 0 and out.strip() == "0"
    held = cache_stats(tmp_path)
    assert (held.runs, held.failures) == (1, 1) and held.seconds == pytest.approx(mine.seconds)
    assert isinstance(compile_cpp(REFUSED, coverage=True, compiler=compiler), CompileFailure)
    assert cache_stats(tmp_path).failures == 2  # other flags: a run of their own


def test_a_compile_stopped_by_a_limit_is_not_kept(tmp_path):
    """A compiler run that hit a limit may pass another time: it leaves nothing, so the next call compiles."""
    tight = Compiler(cache_dir=tmp_path, precompiled_header=False, limits=replace(COMPILE_LIMITS, output_bytes=16))
    compile_stats(reset=True)
    stopped = compile_cpp(REFUSED, compiler=tight)  # its diagnostics pass the output limit
    assert isinstance(stopped, CompileFailure) and stopped.status == "output-limit"
    assert cache_stats(tmp_path).runs == 0
    refused = compile_cpp(REFUSED, compiler=replace(tight, limits=COMPILE_LIMITS))
    assert isinstance(refused, CompileFailure) and refused.status == "compile-error"
    assert compile_stats().runs == 2 and cache_stats(tmp_path).failures == 1


def test_an_empty_cache_counts_nothing(tmp_path):
    assert cache_stats(tmp_path / "none").runs == 0


CONTEST = """#include <bits/stdc++.h>
using namespace std;
int main() {
    int n;
    cin >> n;
    long long s = 0;
    for (int i = 0; i < n; i++) {
        s += i;
    }
    cout << s << endl;
}
"""


def _copy(program: str) -> str:
    """An instrumented copy's shape: the emit header first, declarations of its own, then the program."""
    return '#include "execstate_emit.hpp"\n[[maybe_unused]] static const bool inserted = true;\n' + program


def _first_header_read(source: str, includes: list[Path]) -> str:
    """GCC's first ``-H`` line for ``source`` (from stdin) with these include directories."""
    command = ["g++", "-std=c++20", "-O2", "-H", "-fsyntax-only", *(f"-I{d}" for d in includes), "-x", "c++", "-"]
    return subprocess.run(command, input=source, capture_output=True, text=True).stderr.splitlines()[0]


def test_the_emit_header_is_precompiled_after_bits_stdcpp_and_means_the_same(tmp_path):
    from execstate.languages.cpp.protocol import HEADER_PATH

    include = (HEADER_PATH.parent,)
    copy = _copy(CONTEST)
    plain = compile_cpp(
        copy, include_dirs=include, compiler=Compiler(cache_dir=tmp_path / "a", precompiled_header=False)
    )
    fast = compile_cpp(
        copy, include_dirs=include, compiler=Compiler(cache_dir=tmp_path / "b"), first_header=HEADER_PATH
    )
    assert isinstance(plain, Compiled) and isinstance(fast, Compiled) and fast.precompiled_header
    assert run_binary(fast, b"9\n").stdout == run_binary(plain, b"9\n").stdout == b"36\n"
    (pch,) = (tmp_path / "b" / "pch").iterdir()
    assert (pch / "execstate_emit.hpp").read_bytes() == b"#include <bits/stdc++.h>\n" + HEADER_PATH.read_bytes()
    assert _first_header_read(copy, [pch, HEADER_PATH.parent]) == f"! {pch}/execstate_emit.hpp.gch"  # "!": loaded


def test_a_directive_before_bits_stdcpp_keeps_the_header_alone(tmp_path):
    """``#define _GLIBCXX_DEBUG`` before ``<bits/stdc++.h>`` changes what it means: no combined header then."""
    from execstate.languages.cpp.protocol import HEADER_PATH

    copy = _copy(CONTEST.replace("#include <bits/stdc++.h>", "#define LOCAL 1\n#include <bits/stdc++.h>", 1))
    compiler = Compiler(cache_dir=tmp_path)
    fast = compile_cpp(copy, include_dirs=(HEADER_PATH.parent,), compiler=compiler, first_header=HEADER_PATH)
    assert isinstance(fast, Compiled) and fast.precompiled_header
    (pch,) = (tmp_path / "pch").iterdir()
    assert (pch / "execstate_emit.hpp").read_bytes() == HEADER_PATH.read_bytes()
