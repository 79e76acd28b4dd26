"""One C++ build counts every loop (issue 53): each loop's K equals what its own ``count`` copy reports."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from execstate.languages.cpp.budget import counted_cpp
from execstate.languages.cpp.instrument import count_all_cpp
from execstate.languages.cpp.language import CppLanguage
from execstate.languages.cpp.protocol import loop_iterations_cpp
from execstate.languages.cpp.universal import clean_stand_in, only_added
from execstate.metrics.cpp import Compiler
from execstate.metrics.cpp._compile import compile_stats

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ (Debian package g++)")
ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
LIBRARY = ROOT / "src" / "execstate" / "studies" / "library_cpp" / "pool"
PROGRAMS = [
    # the examples with more than one loop (nested, in a function, range-for) and a library program without
    # <bits/stdc++.h>: each per-loop copy is a compile of its own, so the rest would add only compile time
    *(
        EXAMPLES / name / "main.cpp"
        for name in ("cpp_function_loop", "cpp_nested_inner", "cpp_range_for", "cpp_string_vector")
    ),
    LIBRARY / "zalgorithm" / "main.cpp",
]


@pytest.fixture(scope="module")
def lang(tmp_path_factory, cpp_cache_with_headers) -> CppLanguage:
    """-O0 builds: the counts do not depend on the optimisation level, and these compile faster. A compile cache of
    this module's own (it counts its compiles), given the precompiled headers already made."""
    flags = ("-std=c++20", "-O0")
    cache = cpp_cache_with_headers(tmp_path_factory.mktemp("cpp-cache"))
    return CppLanguage(compiler=Compiler(flags=flags, cache_dir=cache))


def _input(program: Path) -> bytes:
    short = program.parent / "short.txt"
    return short.read_bytes() if short.is_file() else (program.parent / "tests" / "1.in").read_bytes()


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.parent.name)
def test_every_loop_counted_by_one_build_as_by_its_own_count_copy(lang, program):
    source, _ = lang.program_text(program)
    stdin = _input(program)
    lines = lang.loops(source)
    assert lines, "each program here has loops"
    # each loop's own copy first: counted afterwards, a count copy runs as the shared build (count_all_for)
    own = {
        line: lang.iterations(lang.run(lang.instrument(source, line, (), "count").source, stdin, Path(".")))
        for line in lines
    }
    before = compile_stats().runs
    shared = lang.loop_iterations(source, lines, stdin, Path("."))
    assert compile_stats().runs - before <= 2  # one program (and at most its precompiled header)
    assert sorted(shared) == lines
    assert shared == own
    assert any(k > 1 for k in own.values())


def test_the_report_names_every_loop_once_or_it_is_not_used():
    assert loop_iterations_cpp(b"\n__execstate_loop_iterations__=0:5\n\n__execstate_loop_iterations__=1:0\n", 2) == [
        5,
        0,
    ]
    assert loop_iterations_cpp(b"\n__execstate_loop_iterations__=0:5\n", 2) is None  # loop 1 never reported
    assert loop_iterations_cpp(b"out\n__execstate_loop_iterations__=0:5\n", 1) == [5]
    assert loop_iterations_cpp(b"", 1) is None


def test_nested_brace_less_loops_each_get_their_counter_and_braces():
    source = '#include <cstdio>\nint main() {\n    int s = 0;\n    for (int i = 0; i < 3; i++)\n        for (int j = 0; j < i; j++) s++;\n    printf("%d\\n", s);\n}\n'
    copy = count_all_cpp(source, [4, 5]).source
    assert "++_es_counts[0];" in copy and "++_es_counts[1];" in copy
    assert copy.count("{") - source.count("{") == copy.count("}") - source.count("}") >= 2
    with pytest.raises(ValueError, match="distinct loop lines"):
        count_all_cpp(source, [4, 4])


def test_a_program_whose_shared_copy_fails_falls_back_to_nothing(lang):
    source = '#include <cstdio>\nint main() {\n    for (int i = 0; i < 3; i++) puts("x");\n    return *(volatile int*)0;\n}\n'
    assert lang.loop_iterations(source, [3], b"", Path(".")) == {}  # the run crashes: the caller counts per loop


DO_AT_END = """\
#include <cstdio>
int main() {
    int n = 0, s = 0;
    if (std::scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++) s += j;
    int k = n;
    do { k--; if (k == 2) break; } while (k > 0);
    std::printf("%d %d\\n", s, k);
}
"""


def test_a_loop_s_own_count_copy_runs_as_the_build_that_counted_every_loop(lang):
    # a do loop that the measured build counts before its closing brace: the copy counting every loop counts
    source, stdin = DO_AT_END, b"6\n"
    lines = lang.loops(source)
    assert lines == [5, 6, 8] and counted_cpp(source).at_top == {5, 6}
    assert lang.loop_iterations(source, lines, stdin, Path(".")) == {5: 6, 6: 15, 8: 4}
    for line in lines:
        copy = lang.instrument(source, line, (), "count").source
        before = compile_stats().runs
        res = lang.run(copy, stdin, Path("."))
        assert compile_stats().runs == before  # the shared build, not the copy's own
        own = lang.run(copy + "\n", stdin, Path("."))  # a text not made here: its own build
        assert (res.status, res.stdout, res.stderr, res.exit_code) == (
            own.status,
            own.stdout,
            own.stderr,
            own.exit_code,
        )


def test_the_clean_program_runs_as_written_and_one_build_counts_every_loop(lang):
    source = '#include <cstdio>\nint main() {\n    int s = 0;\n    for (int i = 0; i < 3; i++)\n        for (int j = 0; j < i; j++) s++;\n    printf("%d\\n", s);\n}\n'
    stand_in = clean_stand_in(source)
    assert stand_in is not None and stand_in.loop_lines == (4, 5)  # braces and whole lines added only
    tampered = count_all_cpp(source, [4, 5])
    assert not only_added(source, replace(tampered, source=tampered.source.replace("j < i", "j <= i")))
    before = compile_stats().runs
    res = lang.run(source, b"", Path("."))
    assert (res.status, res.stdout, res.stderr) == ("ok", b"3\n", b"")
    assert lang.loop_iterations(source, [5], b"", Path(".")) == {5: 3}
    assert lang.loop_iterations(source, [4], b"", Path(".")) == {4: 3}  # the same build, asked again
    assert compile_stats().runs - before <= 2  # the program as written, and its measured build that counts them
    silent = lang.run(stand_in.source, b"", Path("."))  # asked nothing, the counting build reports nothing
    assert (silent.status, silent.stdout, silent.stderr) == ("ok", b"3\n", b"")
