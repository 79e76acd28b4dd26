"""Construct on a C++ program whose every loop is a macro (``rep``, ``rrep``, ``each``): the macro loops are
its candidate loops, and it is constructed as its twin that writes the loops out on the same lines."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from execstate.builder import build, load_spec
from execstate.construct import ConstructOptions, construct_problem, read_pool

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ (Debian package g++)")

PROGRAM = """#include <algorithm>
#include <iostream>
#include <vector>
#define rep(i, n) for (int i = 0; i < (n); ++i)
#define rrep(i, n) for (int i = (n) - 1; i >= 0; --i)
#define each(x, v) for (auto& x : v)
int main() {
    int n;
    std::cin >> n;
    std::vector<int> a(n);
    long long total = 0, mx = 0, back = 0;
    @rep(i, n)@ {
        std::cin >> a[i];
        total += a[i] % 7;
    }
    @each(x, a)@ mx = std::max<long long>(mx, x);
    @rrep(i, n)@ back = (back * 3 + a[i]) % 1000003;
    std::cout << total << ' ' << mx << ' ' << back << std::endl;
}
"""
WRITTEN = {"rep(i, n)": "for (int i = 0; i < n; ++i)", "each(x, a)": "for (auto& x : a)",
           "rrep(i, n)": "for (int i = n - 1; i >= 0; --i)"}  # fmt: skip
MACRO_LINES = [12, 16, 17]


def _source(written: bool) -> str:
    return "".join(WRITTEN[p] if i % 2 and written else p for i, p in enumerate(PROGRAM.split("@")))


def _answer(nums: list[int]) -> str:
    back = 0
    for x in reversed(nums):
        back = (back * 3 + x) % 1000003
    return f"{sum(x % 7 for x in nums)} {max([0, *nums])} {back}\n"


def _construct(root: Path, written: bool) -> tuple[dict, Path]:
    d = root / "pool" / "sums"
    (d / "tests").mkdir(parents=True)
    (d / "main.cpp").write_text(_source(written))
    for t, n in enumerate([3, 40, 400], 1):
        nums = [(j * 37) % 101 for j in range(n)]
        (d / "tests" / f"{t}.in").write_text(f"{n}\n{' '.join(map(str, nums))}\n")
        (d / "tests" / f"{t}.out").write_text(_answer(nums))
    (problem,) = read_pool(root / "pool")
    outcome = construct_problem(problem, root / "specs", ConstructOptions(study="mine"))
    assert outcome.check is None, outcome.reason
    return json.loads((root / "specs" / "sums" / "construct.json").read_text()), root / "specs"


def test_macro_loops_are_constructed_as_their_twin(tmp_path):
    macros, specs = _construct(tmp_path / "macros", written=False)
    twin, twin_specs = _construct(tmp_path / "twin", written=True)
    assert [(r["line"], r["header"].split(" ")[0]) for r in macros["loops"]] == [
        (12, "rep(i,"),
        (16, "each(x,"),
        (17, "rrep(i,"),
    ]  # every macro loop is a candidate loop, counted: 400 iterations each on the long input
    assert [r.get("iterations") for r in macros["loops"]] == [400, 400, 400]
    # the same iterations, candidates and their values; a candidate's first assignment is on the same line
    # (its column is where the program has it: the invocation `rep(i, n)` or the header's `++i`)
    for row in [*macros["loops"], *twin["loops"]]:
        del row["header"]
        for c in row.get("candidates", []):
            c["first"] = c["first"][0]
    assert macros["loops"] == twin["loops"]
    spec, twin_spec = load_spec(specs / "sums" / "case.toml"), load_spec(twin_specs / "sums" / "case.toml")
    assert spec.checkpoint.loop_text == "rep(i, n) {" and twin_spec.checkpoint.loop_text == WRITTEN["rep(i, n)"] + " {"
    assert spec.checkpoint.variables == twin_spec.checkpoint.variables == ("i", "total")
    built, twin_built = build([specs]), build([twin_specs])
    assert built.exclusions == [] and len(built.tasks) == len(twin_built.tasks) >= 4
    assert [t.oracle for t in built.tasks] == [t.oracle for t in twin_built.tasks]
    # Every task shows the program as written (a state arm: its instrumented copy), except where the post
    # copy moves the counter `i` in front of the loop: that one invocation is written out, as the twin's is.
    for task in built.tasks:
        assert "each(x, a) mx" in task.source and "rrep(i, n) back" in task.source, task.arm
        moved = task.arm == "post-loop-state"
        assert ("rep(i, n) {" in task.source) is not moved, task.arm
        assert ("    for (; i < (n); ++i) {" in task.source.split("\n")) is moved, task.arm
