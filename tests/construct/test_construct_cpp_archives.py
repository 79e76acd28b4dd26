"""Construct on C++ from contest archives: a bundled program (``#line`` directives) is constructed like its
plain twin, and an input whose trace cannot be measured is rejected with what failed, not "the limits"."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from execstate.builder import BuildOptions, build, load_spec
from execstate.construct import ConstructOptions, construct, construct_problem, read_pool
from execstate.sandbox import Limits

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ (Debian package g++)")

# The example (with <iostream> for <bits/stdc++.h>: each of construct's copies compiles faster):
# oj-bundle's directives name main.cpp and a library header.
BUNDLED = """#line 1 "main.cpp"
#include <iostream>
#line 1 "lib/util.hpp"
template <class T> bool chmax(T& a, T b) { return a < b ? (a = b, true) : false; }
#line 4 "main.cpp"
int main() { int n; std::cin >> n; long long s = 0, best = 0;
  for (int i = 0; i < n; ++i) { long long x; std::cin >> x; s += x; chmax(best, s); }
  std::cout << best << "\\n"; }
"""
SIZES = (3, 40, 400)


def _values(n: int) -> list[int]:
    return [(j * 37 + 11) % 101 - 50 for j in range(n)]


def _best(n: int) -> int:
    s = best = 0
    for x in _values(n):
        s += x
        best = max(best, s)
    return best


def _problem(pool: Path, name: str, program: str, answer=_best) -> Path:
    d = pool / name
    (d / "tests").mkdir(parents=True)
    (d / "main.cpp").write_text(program)
    for i, n in enumerate(SIZES, 1):
        (d / "tests" / f"{i}.in").write_text(f"{n}\n" + " ".join(map(str, _values(n))) + "\n")
        (d / "tests" / f"{i}.out").write_text(f"{answer(n)}\n")
    return d


def test_a_bundled_problem_is_constructed_like_its_plain_twin(tmp_path):
    _problem(tmp_path / "pool", "bundled", BUNDLED)
    _problem(tmp_path / "pool", "plain", re.sub(r"(?m)^#line .*$", "", BUNDLED))
    result = construct(read_pool(tmp_path / "pool"), tmp_path / "specs", ConstructOptions(study="mine"), jobs=2)
    assert [(o.problem, o.check, o.reason) for o in result.outcomes] == [("bundled", None, None), ("plain", None, None)]
    records = {
        o.problem: json.loads((tmp_path / "specs" / o.problem / "construct.json").read_text()) for o in result.outcomes
    }
    specs = {o.problem: load_spec(tmp_path / "specs" / o.problem / "case.toml") for o in result.outcomes}
    for key in ("inputs", "short", "long", "loops"):
        assert records["bundled"][key] == records["plain"][key], key
    traces = [row["trace"] for row in records["bundled"]["inputs"] if row["origin"] == "test"]
    assert len(traces) == 3 and traces[0] < traces[1] < traces[2]  # every test measured, none rejected
    assert specs["bundled"].checkpoint == specs["plain"].checkpoint
    bundled, plain = specs["bundled"].provenance, specs["plain"].provenance
    assert (bundled["short_trace"], bundled["long_trace"]) == (plain["short_trace"], plain["long_trace"])
    result = build([tmp_path / "specs"], jobs=2)
    assert result.exclusions == []
    by_case: dict[str, dict[str, tuple]] = {}
    for t in result.tasks:
        by_case.setdefault(t.case_id.split("/")[1], {})[t.arm] = (t.oracle, t.metrics)
    assert by_case["bundled"] == by_case["plain"] and len(by_case["bundled"]) >= 4


# Each measured build (-O0: no __OPTIMIZE__) fails in its own way; the runs (-O2) pass their tests.
SUM = """#include <bits/stdc++.h>
using namespace std;
{before}
int main() {{
    int n;
    cin >> n;
    long long s = 0, best = 0;
    for (int i = 0; i < n; i++) {{
        long long x;
        cin >> x;
        s += x;
        best = max(best, s);{inside}
    }}
    cout << best << '\\n';
}}
"""
FAILING = {
    "compile_error": SUM.format(before='#ifndef __OPTIMIZE__\n#error "built without optimisation"\n#endif', inside=""),
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
    "compile_error": "(error): the measured build (g++ -std=c++20 -O0 --coverage) does not compile: "
    'main.cpp:4:2: error: #error "built without optimisation"',
    "crash": "(crash): the measured build (g++ -std=c++20 -O0 --coverage) crashed: exit code 3; stderr: boom at -O0",
    "no_covered_line": "(error): gcov counted no line of main.cpp",
    "limit": "within the limits (the measured build (g++ -std=c++20 -O0 --coverage) stopped at a limit: "
    "killed by signal SIGXCPU; CPU limit of 1 s reached)",
}


@pytest.mark.parametrize("name", sorted(FAILING))
def test_an_input_whose_trace_cannot_be_measured_is_rejected_with_what_failed(tmp_path, name):
    _problem(tmp_path / "pool", name, FAILING[name])
    (problem,) = read_pool(tmp_path / "pool")
    quick = BuildOptions(limits=Limits(wall_s=10, cpu_s=1), measure_factor=1.0)
    outcome = construct_problem(problem, tmp_path / "specs", ConstructOptions(build=quick, synthesize=False))
    assert outcome.check == "inputs"
    record = json.loads((tmp_path / "specs" / name / "construct.json").read_text())
    reasons = [row["rejected"] for row in record["inputs"]]
    assert len(reasons) == 3  # each test passed its run and was then refused by its measurement
    for reason in reasons:
        assert reason.startswith("its trace length could not be measured " + EVIDENCE[name]), reason
        assert ("limit" in reason) == (name == "limit")
