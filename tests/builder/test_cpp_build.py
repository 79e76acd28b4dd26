"""C++ cases through the real builder: the SPEC worked example in C++, and the C++ exclusions by name."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from execstate.builder import BuildOptions, build
from execstate.languages.cpp.options import CppOptions
from execstate.sandbox import Limits

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ (Debian package g++)")
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "abc310_e_cpp"
LOOP = (
    "int main() {\n    int n; std::cin >> n;\n    long long total = 0;\n    for (int i = 0; i < n; i++) {\n"
    "        total += i;\n    }\n    std::cout << total << std::endl;\n}\n"
)


def _case(root: Path, name: str, program: str, variables: str = '["total"]') -> Path:
    folder = root / name
    folder.mkdir()
    (folder / "main.cpp").write_text("#include <iostream>\n#include <unordered_map>\n#include <unistd.h>\n" + program)
    (folder / "short.txt").write_text("3\n")
    (folder / "long.txt").write_text("50\n")
    (folder / "case.toml").write_text(
        f'id = "mine/{name}"\nstudy = "mine"\nlanguage = "cpp"\nprogram = "main.cpp"\nshort_input = "short.txt"\n'
        f'long_input = "long.txt"\n[checkpoint]\nloop_text = "for (int i = 0; i < n; i++) {{"\nvariables = {variables}\n'
    )
    return folder


def test_the_spec_worked_example_in_cpp():
    result = build([EXAMPLE])
    assert result.exclusions == []
    by_arm = {t.arm: t for t in result.tasks}
    assert by_arm["short-trace-final"].oracle == "9\n"
    assert by_arm["long-trace-final"].oracle == "251502\n"
    assert by_arm["inside-loop-state"].oracle == '{"ans":63250,"cnt1":500,"dp1":500}\n'
    assert by_arm["post-loop-state"].oracle == '{"ans":251502,"cnt1":2,"dp1":2}\n'
    for task in result.tasks:
        assert task.language == "cpp" and task.meta["K"] == 1002 and task.meta["k"] == 502
        assert task.meta["compiler"].startswith("g++") and "-std=c++20" in task.meta["flags"]
        m = task.metrics
        assert None not in (m.trace_length, m.peak_state, m.state_load, m.cyclomatic), task.arm
    assert by_arm["short-trace-final"].metrics.trace_length < by_arm["long-trace-final"].metrics.trace_length
    assert by_arm["inside-loop-state"].metrics.state_load < by_arm["post-loop-state"].metrics.state_load


def test_cpp_exclusions_are_named(tmp_path):
    _case(tmp_path, "good", LOOP)
    _case(tmp_path, "does_not_compile", LOOP.replace("total += i;", "total += undeclared_function(i);"))
    _case(
        tmp_path,
        "unordered",
        LOOP.replace("long long total = 0;", "std::unordered_map<int, int> total;")
        .replace("total += i;", "total[i] = i;")
        .replace("std::cout << total", "std::cout << total.size()"),
    )
    _case(tmp_path, "forks", LOOP.replace("int n;", "int n; fork();"))
    # -O2 drops a side-effect-free loop (-ffinite-loops), so only the measured (-O0) build spins, and its counter
    # stops it at the trace budget; a loop made of `goto` is no loop statement: the CPU limit stops it
    _case(tmp_path, "spins", LOOP.replace("total += i;", "total += i; while (n > 10) {}"))
    _case(tmp_path, "jumps", LOOP.replace("total += i;", "total += i; again: if (n > 10) goto again;"))
    result = build([tmp_path], jobs=2, options=BuildOptions(limits=Limits(wall_s=3, cpu_s=3)))
    assert {t.case_id for t in result.tasks} == {"mine/good", "mine/forks"}  # fork() fails; the program goes on
    check = {e.case_id: (e.check, e.reason) for e in result.exclusions}
    assert check["mine/does_not_compile"][0] == "run" and "undeclared_function" in check["mine/does_not_compile"][1]
    assert check["mine/unordered"][0] == "fields" and "total" in check["mine/unordered"][1]
    # refused when the checkpoint prints it (the loop's shared build compiles): the variable and its type named
    assert "cannot serialize variable 'total': its type std::unordered_map<int, int>" in check["mine/unordered"][1]
    assert check["mine/spins"][0] == "budget" and "over the trace budget of 20000000" in check["mine/spins"][1]
    assert "its counter passed 20000000 loop iterations" in check["mine/spins"][1]
    assert check["mine/jumps"][0] == "run" and "timeout" in check["mine/jumps"][1]


def test_the_compiler_and_its_flags_are_configurable_and_recorded(tmp_path):
    """``--cxxflags`` reach the running binaries and are recorded in every task and in the manifest."""
    _case(
        tmp_path,
        "good",
        LOOP.replace("total += i;", "total += i;\n#if __cplusplus >= 202002L\n        total += 1;\n#endif"),
    )
    cpp = CppOptions(cxxflags=("-std=c++17", "-O1"))
    assert cpp.compiler().coverage_flags == ("-std=c++17", "-O0", "--coverage")
    opts = BuildOptions(language_options=(cpp,))
    result = build([tmp_path], options=opts)
    assert result.exclusions == []
    long = next(t for t in result.tasks if t.arm == "long-trace-final")
    assert long.oracle == f"{sum(range(50))}\n"  # C++17: the C++20-only line is compiled out
    assert {tuple(t.meta["flags"]) for t in result.tasks} == {("-std=c++17", "-O1")}
    assert result.manifest.compiler is not None and result.manifest.compiler.startswith("g++")
    assert result.manifest.compiler_flags == ["-std=c++17", "-O1"]
    assert build([tmp_path]).tasks[1].oracle == f"{sum(range(50)) + 50}\n"  # the default is C++20


def test_a_missing_compiler_names_the_debian_package(tmp_path):
    _case(tmp_path, "good", LOOP)
    result = build([tmp_path], options=BuildOptions(language_options=(CppOptions(cxx="g++-not-installed"),)))
    assert result.tasks == [] and result.manifest.compiler is None
    (excluded,) = result.exclusions
    assert "Debian package g++" in excluded.reason and "apt-get install g++" in excluded.reason
