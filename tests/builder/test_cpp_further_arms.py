"""The further arms on C++ cases: each line count equals gcov's count of that line in a build and run made here by
hand, and each loop trace of a loop entered once equals the inside copies of its first iterations, run one by one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from tests.builder.test_cpp_line_counts import _gcov_counts

from execstate.builder import BuildOptions, build
from execstate.languages.cpp.language import CppLanguage
from execstate.records import FURTHER_ARMS, Task

pytestmark = pytest.mark.skipif(
    shutil.which("g++") is None or shutil.which("gcov") is None, reason="needs g++ and gcov (Debian package g++)"
)
EXAMPLES = Path(__file__).parents[2] / "examples"
CASES = ("cpp_range_for", "cpp_string_vector", "cpp_while_break", "cpp_function_loop", "abc310_e_cpp")


@pytest.fixture(scope="module")
def built():
    return build([EXAMPLES / name for name in CASES], jobs=2, options=BuildOptions(add_arms=FURTHER_ARMS))


def _cases(tasks: list[Task]) -> dict[str, dict[str, Task]]:
    found: dict[str, dict[str, Task]] = {}
    for t in tasks:
        found.setdefault(t.case_id, {})[t.arm] = t
    return found


def test_line_counts_are_gcovs(built, tmp_path: Path) -> None:
    counted = 0
    for case_id, case in _cases(built.tasks).items():
        if "line-count" not in case:
            continue
        t, clean = case["line-count"], case["short-trace-final"].source
        line = t.meta["line_count"]
        by_hand = _gcov_counts(clean, t.input.encode("utf-8"), tmp_path / case_id.replace("/", "_"))
        assert t.oracle == str(by_hand[line["line"]]), case_id
        assert line["evaluated"] == by_hand[line["branch_line"]], case_id
        assert t.source.splitlines()[line["line"] - 1].endswith("// <-- count this line")
        counted += 1
    assert counted == 5


def test_loop_traces_of_loops_entered_once_are_the_inside_states(built, tmp_path: Path) -> None:
    lang = CppLanguage()
    checked = 0
    for case_id, case in _cases(built.tasks).items():
        t = case["loop-trace"]
        if case["post-loop-state"].meta["neighbours"]:  # the loop is entered more than once: its runs start later
            continue
        m = t.meta
        steps = []
        for i in range(1, m["trace_steps"] + 1):
            inside = lang.instrument(
                case["short-trace-final"].source, m["loop_line"], tuple(m["variables"]), "inside", i
            )
            res = lang.run(inside.source, t.input.encode("utf-8"), tmp_path)
            assert res.ok, res.describe()
            steps.append(json.loads(res.stdout))
        assert json.loads(t.oracle) == steps, case_id
        assert m["trace_steps"] == min(m["k"], m["trace_cap"])
        checked += 1
    assert checked >= 3
