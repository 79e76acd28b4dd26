"""One build serves a C++ loop's inside, post, trace and observe copies (issue 53): ``instrument.every_mode_cpp``.

The copy written back out of the every-mode text is the copy byte for byte (``universal.every_mode_written_back``);
its runs print what the copy's own build prints, and its measured (``--coverage``) build counts what the copy's
own measured build counts when the two have the same program lines."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from execstate.languages._protocol import Endpoint
from execstate.languages.cpp.budget import counted_cpp
from execstate.languages.cpp.instrument import every_mode_cpp, instrument_cpp
from execstate.languages.cpp.language import CppLanguage
from execstate.languages.cpp.protocol import HEADER_PATH, parse_slots
from execstate.languages.cpp.universal import MODE_ENV, MadeCopy, every_mode_copies, every_mode_written_back
from execstate.metrics.cpp import Compiled, Compiler, compile_cpp, measure_cpp, run_binary

KNAPSACK = (Path(__file__).resolve().parents[2] / "benchmarks/pools/contest_cpp/knapsack_01/main.cpp").read_text()
INNER, OUTER = 14, 10
STDIN = b"3 7\n2 3\n3 4\n4 5\n"
SHARED_LINE = (
    "#include <cstdio>\nint s = 0;\nvoid add(int n) { for (int i = 0; i < n; i++) s += i; }\nint main() { add(4); }\n"
)


def test_every_copy_is_written_back_out_of_the_every_mode_text_byte_for_byte():
    for source, line, wide in ((KNAPSACK, INNER, ("c", "dp")), (KNAPSACK, OUTER, ("i", "dp", "n"))):
        moving = every_mode_cpp(source, line, wide)
        unmoved = every_mode_cpp(source, line, wide, move=False)
        assert moving.moved and not unmoved.moved  # `c` (`i` of `rep(i, n)`) moves in front of the loop
        for mode in ("inside", "post", "trace", "observe", "count"):
            for variables in ((wide[1],), (wide[0],), tuple(reversed(wide))):
                for k, active in ((1, True), (4, False)) if mode not in ("observe", "count") else ((1, True),):
                    made = MadeCopy(source, line, variables, mode, k, active, 3 if mode == "trace" else 1)
                    copy = instrument_cpp(source, line, variables, mode, k, active=active, steps=made.steps)
                    assert every_mode_written_back(moving, made, wide, unmoved) == copy.source, (mode, variables)
        inside = MadeCopy(source, line, (wide[1],), "inside", 2, True)
        assert every_mode_written_back(moving, inside, wide) is None  # not moved back without the unmoved text
    # a loop that shares its line: the every-mode text splits it, the inside copy does not: no shared build
    copy = instrument_cpp(SHARED_LINE, 3, ("s",), "inside", 2).source
    assert every_mode_copies(copy, MadeCopy(SHARED_LINE, 3, ("s",), "inside", 2, True)) == ()


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ (Debian package g++)")
def test_one_build_runs_and_one_measured_build_measures_every_copy_of_a_loop(tmp_path, cpp_cache_with_headers):
    lang = CppLanguage(compiler=Compiler(cache_dir=cpp_cache_with_headers(tmp_path / "cache")))
    includes = (HEADER_PATH.parent,)
    source = KNAPSACK.replace("// 0/1 knapsack", "// 0/1 knapsack, every mode")  # a text no other test builds
    programs = lambda: len(list((tmp_path / "cache" / "bin").glob("*/*")))  # compiled programs (headers aside)
    before = programs()
    for mode in ("inside", "post"):  # construct's probe of the candidates: the loop's candidate set, whose `c`
        # moves in front of the loop: the copies of `dp` alone have it back in the header (counted alike)
        assert lang.run(lang.instrument(source, INNER, ("c", "dp"), mode, 2).source, STDIN, tmp_path).ok
    copies = [lang.instrument(source, INNER, ("dp",), mode, k) for mode in ("inside", "post") for k in (1, 5)]
    copies.append(lang.trace_copy(source, INNER, ("dp",), 5, 2))
    count = lang.instrument(source, INNER, ("dp",), "count")  # the builder's iterations check: the loop's K
    assert programs() - before == 1  # the probe's copies ran as the loop's measured build: its one compile
    before = programs()
    texts = [text for c in copies for text in (c.source, lang.disabled(c))]
    runs = [lang.run(text, STDIN, tmp_path) for text in texts]
    counted = lang.run(count.source, STDIN, tmp_path)
    ends = {"inside": copies[1], "post": copies[3]}  # k = 5
    measured = {
        mode: lang.measure(source, STDIN, Endpoint(INNER, ("dp",), mode, 5, c), state=True) for mode, c in ends.items()
    }
    assert programs() == before  # the runs and the measured copies: the same build, no compile
    assert all(every_mode_copies(c.source)[0].settings[MODE_ENV] for c in copies)
    shared = every_mode_copies(copies[1].source)[0]
    assert shared.same_lines and "moved here from the loop's header" in shared.source  # measured as the text
    assert every_mode_copies(count.source)[0].settings[MODE_ENV] == "5"
    built = compile_cpp(count.source, include_dirs=includes, compiler=lang.compiler, first_header=HEADER_PATH)
    assert isinstance(built, Compiled)
    own = run_binary(built, STDIN, lang.limits)  # the count copy's own build: the program's output, then its K
    assert (counted.status, counted.stdout, lang.iterations(counted)) == (own.status, own.stdout, lang.iterations(own))
    assert (lang.iterations(counted) or 0) >= 2 and own.stdout != b""
    for i in (2, 7, 8):  # inside k = 5, post k = 1 disabled, trace: each as its own build prints
        built = compile_cpp(texts[i], include_dirs=includes, compiler=lang.compiler, first_header=HEADER_PATH)
        assert isinstance(built, Compiled)
        res = run_binary(built, STDIN, lang.limits)
        assert (runs[i].status, runs[i].stdout, runs[i].exit_code) == (res.status, res.stdout, res.exit_code)
    observe = instrument_cpp(source, INNER, ("dp",), "observe")
    built = compile_cpp(observe.source, include_dirs=includes, compiler=lang.compiler, first_header=HEADER_PATH)
    assert isinstance(built, Compiled)
    slots = parse_slots(run_binary(built, STDIN, lang.limits).stderr)
    for mode, c in ends.items():
        counted = counted_cpp(c.source)
        ref = measure_cpp(
            counted.source,
            STDIN,
            inserted_lines=c.inserted_lines,
            limits=lang.measure_limits(),
            compiler=lang.compiler,
            include_dirs=includes,
            first_header=HEADER_PATH,
            counter_from=counted.counter_from,
        )
        m = measured[mode]
        assert m.status == "ok" and (m.trace_length, m.stdout) == (ref.trace_length, ref.stdout), mode
        assert (m.peak_state, m.state_load) == slots.metrics(mode, 5), mode


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ (Debian package g++)")
def test_a_copy_runs_as_its_measured_build_unless_the_program_asks_for_optimisation(tmp_path, cpp_cache_with_headers):
    lang = CppLanguage(compiler=Compiler(cache_dir=cpp_cache_with_headers(tmp_path / "cache")))
    built = lambda: sorted(  # the flags of each compiled program, headers aside
        "coverage" if "--coverage" in (d / "meta.json").read_text() else "optimised"
        for d in (tmp_path / "cache" / "bin").glob("*/*")
    )
    source = KNAPSACK.replace("// 0/1 knapsack", "// 0/1 knapsack, run as measured")
    copy = lang.instrument(source, INNER, ("dp",), "inside", 3)
    plain = lang.run(copy.source, STDIN, tmp_path)
    assert plain.ok and built() == ["coverage"]  # the loop's every-mode text, measured build only
    assert lang.measure(source, STDIN, Endpoint(INNER, ("dp",), "inside", 3, copy), state=True).ok
    assert built() == ["coverage"]  # the run and the measurement: one build
    pragma = '#pragma GCC optimize("O3")\n' + source
    copy = lang.instrument(pragma, INNER + 1, ("dp",), "inside", 3)
    optimised = lang.run(copy.source, STDIN, tmp_path)
    assert optimised.ok and optimised.stdout == plain.stdout
    assert built() == ["coverage", "optimised"]  # the copy runs optimised, as the program does


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ (Debian package g++)")
def test_a_count_copy_no_every_mode_build_measures_runs_as_the_clean_measured_build(tmp_path, cpp_cache_with_headers):
    """A loop sharing its line with its function's header has no every-mode build for its copies; its ``count``
    copy then runs as the clean program's measured build, whose counter writes that loop's K as the copy does:
    the same output and K as the copy's own build, and no compile after the clean program's measurement."""
    lang = CppLanguage(compiler=Compiler(cache_dir=cpp_cache_with_headers(tmp_path / "cache")))
    source = SHARED_LINE.replace("int main() { add(4); }", 'int main() { add(4); add(3); std::printf("%d\\n", s); }')
    source += "int twice(int n) { int t = 0; while (n-- > 0) t += 2; return t; }\n"  # a second loop, never run
    programs = lambda: len(list((tmp_path / "cache" / "bin").glob("*/*")))  # compiled programs (headers aside)
    assert lang.measure(source, b"", None, state=False).status == "ok"  # the clean program's measured build
    before = programs()
    count = lang.instrument(source, 3, ("s",), "count")
    shared = lang.run(count.source, b"", tmp_path)
    assert programs() == before  # no compile: the measured build counted the loop
    own = compile_cpp(
        count.source, include_dirs=(HEADER_PATH.parent,), compiler=lang.compiler, first_header=HEADER_PATH
    )
    assert isinstance(own, Compiled)
    alone = run_binary(own, b"", lang.limits)
    assert (shared.status, shared.stdout) == (alone.status, alone.stdout) == ("ok", b"9\n")  # 0+1+2+3 + 0+1+2
    assert lang.iterations(shared) == lang.iterations(alone) == 7
    assert b"__execstate_loop_iterations__" not in shared.stderr  # only the asked loop, in the copy's words
    optimised = '#pragma GCC optimize("O3")\n' + source  # such a copy runs optimised, as the program does
    lang.measure(optimised, b"", None, state=False)
    before = programs()
    lang.run(lang.instrument(optimised, 4, ("s",), "count").source, b"", tmp_path)
    assert programs() == before + 1


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ (Debian package g++)")
def test_copies_no_every_mode_build_measures_run_and_are_measured_as_one_universal_build(
    tmp_path, cpp_cache_with_headers
):
    """A loop sharing its line with its function's header: the every-mode text splits that line, so it does not
    count the copies' lines. Its inside copies (every k), their preservation variants and the measurement then
    share one measured build of the copy's universal text, whose lines differ from the copy's only on inserted
    lines: the same outputs as each copy's own build and the same trace length as the copy's own measured build."""
    lang = CppLanguage(compiler=Compiler(cache_dir=cpp_cache_with_headers(tmp_path / "cache")))
    includes = (HEADER_PATH.parent,)
    source = SHARED_LINE.replace("int main() { add(4); }", 'int main() { add(4); add(5); std::printf("%d\\n", s); }')
    programs = lambda: len(list((tmp_path / "cache" / "bin").glob("*/*")))  # compiled programs (headers aside)
    copies = [lang.instrument(source, 3, ("s",), "inside", k) for k in (2, 3, 6)]
    assert not any(c.same_lines for c in every_mode_copies(copies[0].source))
    before = programs()
    texts = [text for c in copies for text in (c.source, lang.disabled(c))]
    runs = [lang.run(text, b"", tmp_path) for text in texts]
    measured = lang.measure(source, b"", Endpoint(3, ("s",), "inside", 3, copies[1]), state=False)
    assert programs() == before + 1  # every run and the measurement: one measured build
    # the top of iteration k over the run (add(4), then add(5)); a variant prints the program's 6 + 10
    assert [r.stdout for r in runs] == [b'{"s":0}\n', b"16\n", b'{"s":1}\n', b"16\n", b'{"s":6}\n', b"16\n"]
    for text, res in zip(texts, runs, strict=True):  # each as its own build prints
        built = compile_cpp(text, include_dirs=includes, compiler=lang.compiler, first_header=HEADER_PATH)
        assert isinstance(built, Compiled)
        own = run_binary(built, b"", lang.limits)
        assert (res.status, res.stdout) == (own.status, own.stdout)
    counted = counted_cpp(copies[1].source)
    ref = measure_cpp(
        counted.source,
        b"",
        inserted_lines=copies[1].inserted_lines,
        limits=lang.measure_limits(),
        compiler=lang.compiler,
        include_dirs=includes,
        first_header=HEADER_PATH,
        counter_from=counted.counter_from,
    )
    assert measured.status == ref.status == "ok"
    assert (measured.trace_length, measured.stdout) == (ref.trace_length, ref.stdout)
    assert (measured.trace_length or 0) > 0
