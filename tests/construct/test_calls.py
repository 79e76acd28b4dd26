"""Function-call problems made stdin problems: the driver's output, the call's target, the tests, the refusals."""

from __future__ import annotations

import ast
import contextlib
import io
import json
import math
import sys
from pathlib import Path

import pytest
from dataset_shapes import lcb_record, lcb_tests, write_jsonl
from hypothesis import given, settings
from hypothesis import strategies as st

from execstate.construct import import_folders, import_livecodebench, read_pool
from execstate.construct._calls import call_problem, call_target, call_test, func_name_of
from execstate.construct._driver import (
    DRIVER_MARKER,
    HEADER_END,
    HEADER_MARKER,
    canonical_json,
    driven_program,
    driver,
    driver_start,
    judge_imports,
)
from execstate.construct._sources import BadRecord
from execstate.grade._rules import json_equal

SOLUTION = """class Solution:
    def best(self, nums: List[int], k: int = 1) -> int:
        total = 0
        for x in sorted(nums)[-k:]:
            total += self._grow(x)
        return total

    def _grow(self, x: int) -> int:
        return x * 2
"""
STARTER = "class Solution:\n    def best(self, nums: List[int], k: int = 1) -> int:\n        "


def _run(program: str, stdin: str) -> str:
    """What ``program`` prints on ``stdin``, run in this process (the sandbox is construct's business)."""
    out = io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(program, "main.py", "exec"), {"__name__": "__main__"})
    finally:
        sys.stdin = old
    return out.getvalue()


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None)
@given(JSON, JSON)
def test_the_driver_prints_the_canonical_json_of_what_the_call_returns(a, b):
    program = driven_program("def pair(a, b):\n    return (a, b)  # a tuple prints as a list\n", "pair")
    stdin = canonical_json(a) + "\n\n" + json.dumps(b, indent=None) + "\n"  # blank lines are not arguments
    printed = _run(program, stdin)
    assert printed == canonical_json([a, b]) + "\n"
    assert json_equal(json.loads(printed), [a, b])


def test_canonical_json_decides_tuples_bools_none_and_floats():
    assert canonical_json((1, True, None, 2.0, 0.1, 1e-07, "é", {"k": [False]})) == (
        '[1,true,null,2.0,0.1,1e-07,"é",{"k":[false]}]'
    )
    with pytest.raises(ValueError):
        canonical_json(math.nan)
    with pytest.raises(TypeError):
        canonical_json({1, 2})


def test_the_program_is_the_judges_names_the_solution_unchanged_and_the_driver():
    program = driven_program(SOLUTION, "Solution().best")
    header, rest = program.split(HEADER_END + "\n")
    assert header.splitlines() == [HEADER_MARKER, "from typing import List"]
    solution, driver = rest.split(DRIVER_MARKER)
    assert solution == SOLUTION + "\n\n"
    assert "    result = Solution().best(*args)\n" in driver
    assert driver_start(program) == program.split("\n").index(DRIVER_MARKER) + 1
    assert driver_start(SOLUTION) is None
    assert _run(program, "[5, 1, 4]\n2\n") == "18\n"


def test_a_future_import_stays_first():
    solution = '"""Doc."""\nfrom __future__ import annotations\n\nq = deque()\n'
    program = driven_program(solution, "f")
    assert program.startswith('"""Doc."""\nfrom __future__ import annotations\n' + HEADER_MARKER + "\n")
    compile(program, "main.py", "exec")


def test_judge_imports_only_what_is_used_and_never_bound():
    source = """
import heapq
from math import gcd
class deque:  # its own deque: not imported
    pass
def f(xs: List[int]) -> Optional[int]:
    best = inf
    counts = Counter(xs)
    table = collections.defaultdict(list)
    heapq.heappush(xs, 1)
    return max(best, gcd(2, 4), bisect_left(xs, 3), len(table), accumulate)
"""
    assert judge_imports(ast.parse(source)) == [
        "import collections",
        "from bisect import bisect_left",
        "from collections import Counter",
        "from itertools import accumulate",
        "from math import inf",
        "from typing import List, Optional",
    ]
    assert judge_imports(ast.parse("print(len([1]))\n")) == []


def test_the_target_is_the_starters_method_or_function():
    method = call_target(SOLUTION, "best", STARTER)
    assert (method.call, method.min_args, method.max_args) == ("Solution().best", 1, 2)
    assert call_target(SOLUTION, "best").method  # no starter code: the solution decides
    function = call_target("def f(a, *rest):\n    return a\n", "f", "def f(a, *rest):\n    ")
    assert (function.call, function.min_args, function.max_args) == ("f", 1, None)
    static = call_target("class Solution:\n    @staticmethod\n    def g(a, b):\n        return a\n", "g")
    assert (static.min_args, static.max_args) == (2, 2)


@pytest.mark.parametrize(
    ("solution", "func_name", "starter", "kind", "reason"),
    [
        ("class LRUCache:\n    def get(self, k): return k\n", "get", "class LRUCache:\n    def __init__(self, capacity: int):\n",
         "unsupported", r"a class-design problem \(class LRUCache\): each test makes several calls on one object"),
        ("class LRUCache:\n    def get(self, k): return k\n", "get", "", "unsupported", r"class-design problem \(class LRUCache\)"),
        (SOLUTION, "worst", STARTER, "unsupported", r"defines no method Solution\.worst, which the tests call"),
        ("def g():\n    pass\n", "f", "", "unsupported", r"defines neither Solution\.f nor a function f"),
        ("def f(a, *, b):\n    pass\n", "f", "", "unsupported", r"keyword-only parameters without defaults \(b\)"),
        ("def f(:\n", "f", "", "invalid", r"the solution does not parse: line 1"),
        ("def _execstate_call():\n    pass\ndef f():\n    pass\n", "f", "", "unsupported", r"uses the name _execstate_call"),
    ],
)  # fmt: skip
def test_what_cannot_be_called_is_refused_with_a_reason(solution, func_name, starter, kind, reason):
    with pytest.raises(BadRecord, match=reason) as info:
        call_target(solution, func_name, starter)
    assert info.value.kind == kind


def test_a_functional_test_becomes_argument_lines_and_canonical_json():
    target = call_target(SOLUTION, "best", STARTER)
    test = call_test("public-1", {"input": "[3, 1]\n\n2", "output": "[0, true]", "testtype": "functional"}, target)
    assert (test.name, test.input, test.output) == ("public-1", b"[3, 1]\n2\n", b"[0,true]\n")
    assert call_test("2", {"input": "[]", "output": "1.50"}, target).output == b"1.5\n"


@pytest.mark.parametrize(
    ("case", "kind", "reason"),
    [
        ({"input": "[1, 2]\nnums = 3", "output": "1"}, "unsupported", r"input line 2 \('nums = 3'\) is not a JSON value"),
        ({"input": "[1]\n2\n3", "output": "1"}, "unsupported", r"gives 3 arguments; Solution\(\)\.best takes 1 to 2"),
        ({"input": "", "output": "1"}, "unsupported", "gives 0 arguments"),
        ({"input": "[1]", "output": "NaN"}, "invalid", "is not finite JSON"),
        ({"input": "[1]", "output": "one"}, "invalid", "is not finite JSON"),
        ({"input": "1 2\n", "output": "3\n", "testtype": "stdin"}, "unsupported", "a 'stdin' test beside functional ones"),
        ({"input": 1, "output": "3"}, "invalid", r"is not \{input, output\} strings"),
    ],
)  # fmt: skip
def test_a_test_that_cannot_be_driven_is_refused(case, kind, reason):
    with pytest.raises(BadRecord, match=reason) as info:
        call_test("t", case, call_target(SOLUTION, "best", STARTER))
    assert info.value.kind == kind


def test_func_name_comes_from_metadata_text_or_object():
    assert func_name_of('{"func_name": "best"}') == func_name_of({"func_name": "best"}) == "best"
    for missing in ("{}", "", {"func_name": "not a name"}, None):
        with pytest.raises(BadRecord, match="names no func_name") as info:
            func_name_of(missing)
        assert info.value.kind == "unsupported"
    with pytest.raises(BadRecord, match="not JSON"):
        func_name_of("{")


def _functional(qid: str, pairs: list[tuple[str, str]], func_name: str | None = "best", starter: str = STARTER) -> dict:
    record = lcb_record(qid, "hard", lcb_tests(pairs, "functional"), [])
    record |= {"platform": "leetcode", "starter_code": starter}
    record["metadata"] = json.dumps({"func_name": func_name} if func_name else {})
    return record


def test_livecodebench_function_call_problems_are_driven_or_skipped_with_a_reason(tmp_path):
    design = "class LRUCache:\n    def __init__(self, capacity: int):\n        "
    records = [
        _functional("100", [("[1, 5, 3]\n2", "16")]),
        _functional("101", [("[1]", "2")], func_name=None),
        _functional("102", [("[1]\nx", "2")]),
        _functional("103", [('["LRUCache", "get"]\n[[2], [1]]', "[null, -1]")], func_name="get", starter=design),
        {**_functional("104", [("[1]", "2")]), "public_test_cases": json.dumps(lcb_tests([("[1]", "2")], "stdin")
                                                                                + lcb_tests([("[1]", "2")], "functional"))},
    ]  # fmt: skip
    write_jsonl(tmp_path / "lcb.jsonl", records)
    code = [{"question_id": r["question_id"], "code_list": [SOLUTION], "graded_list": [True]} for r in records]
    (tmp_path / "solutions.json").write_text(json.dumps(code))
    report = import_livecodebench(tmp_path / "lcb.jsonl", tmp_path / "solutions.json", tmp_path / "pool", study="mine")
    assert [i.id for i in report.imported] == ["100"] and report.imported[0].detail.endswith(
        "driven as Solution().best"
    )
    reasons = {s.id: (s.kind, s.reason) for s in report.skipped}
    assert reasons["101"] == (
        "unsupported",
        "a function-call problem whose metadata names no func_name: the call is unknown",
    )
    assert reasons["102"] == ("unsupported", "test public-1: input line 2 ('x') is not a JSON value")
    assert reasons["103"][0] == "unsupported" and "class-design problem (class LRUCache)" in reasons["103"][1]
    assert reasons["104"][0] == "unsupported" and "a 'stdin' test beside functional ones" in reasons["104"][1]
    [problem] = read_pool(tmp_path / "pool")
    assert (problem.study, problem.rule, problem.source["call"]) == ("mine", "json-or-tokens", "Solution().best")
    assert [(t.input.read_bytes(), t.output.read_bytes()) for t in problem.tests] == [(b"[1, 5, 3]\n2\n", b"16\n")]
    assert _run(problem.program.read_text(), "[1, 5, 3]\n2\n") == "16\n"
    cpp = import_livecodebench(
        tmp_path / "lcb.jsonl", tmp_path / "solutions.json", tmp_path / "cpp", language="cpp", limit=1
    )
    assert [(s.kind, s.reason) for s in cpp.skipped] == [
        ("unsupported", "a function-call problem: its driver is python and the solutions are cpp")
    ]


def test_a_folder_with_solution_py_and_tests_json_is_a_function_call_problem(tmp_path):
    tests = {"func_name": "best", "tests": [{"input": "[2, 9]\n1", "output": "18"}, {"input": "[4]", "output": "8"}]}
    good = tmp_path / "folders" / "Best Of"
    good.mkdir(parents=True)
    (good / "solution.py").write_text(SOLUTION)
    (good / "tests.json").write_text(json.dumps(tests))
    for name, files in {
        "no-tests": {"solution.py": SOLUTION},
        "both": {"solution.py": SOLUTION, "main.py": "print(1)\n", "tests.json": json.dumps(tests)},
        "empty": {"solution.py": SOLUTION, "tests.json": '{"func_name": "best", "tests": []}'},
        "unnamed": {"solution.py": SOLUTION, "tests.json": json.dumps({"tests": tests["tests"]})},
    }.items():
        (tmp_path / "folders" / name).mkdir()
        for file, text in files.items():
            (tmp_path / "folders" / name / file).write_text(text)
    report = import_folders([tmp_path / "folders"], tmp_path / "pool", study="codecontests")
    assert [(i.id, i.detail) for i in report.imported] == [
        ("best_of", "solution.py driven as Solution().best with 2 tests")
    ]
    reasons = {s.record.rsplit("/", 1)[-1]: (s.kind, s.reason) for s in report.skipped}
    assert reasons == {
        "both": ("invalid", "holds both main.py and solution.py; keep one"),
        "empty": ("invalid", 'tests.json: expected {"func_name": NAME, "tests": [{input, output}, ...]}'),
        "no-tests": ("invalid", "solution.py without tests.json beside it (the calls to make)"),
        "unnamed": ("unsupported", "a function-call problem whose metadata names no func_name: the call is unknown"),
    }
    [problem] = read_pool(tmp_path / "pool")
    assert (problem.language, problem.study, problem.rule) == ("python", "codecontests", "json-or-tokens")
    assert [(t.name, t.input.read_bytes(), t.output.read_bytes()) for t in problem.tests] == [
        ("1", b"[2, 9]\n1\n", b"18\n"), ("2", b"[4]\n", b"8\n"),
    ]  # fmt: skip
    assert _run(problem.program.read_text(), "[2, 9]\n1\n") == "18\n"


def test_call_problem_names_tests_and_keeps_their_order():
    made = call_problem(
        SOLUTION, "best", [("b", {"input": "[1]", "output": "2"}), ("a", {"input": "[2]", "output": "4"})]
    )
    assert [t.name for t in made.tests] == ["b", "a"] and made.target.method


def test_docs_show_the_driver_as_it_is_written():
    docs = (Path(__file__).parents[2] / "docs" / "construct.md").read_text(encoding="utf-8")
    shown = "".join("  " + line if line.strip() else line for line in driver("Solution().maxSum").splitlines(True))
    assert shown in docs
