"""The optional input arm of a stdin case: any input on which the program prints the output is right.

A case spec with ``input_arm = true`` gets a fifth task, ``short-trace-input``: the clean program with the
question and the short input's output in comments below it, no input shown, the short input as its oracle.
Grading runs the program on the answered input in the sandbox and compares what it prints with the output
under the case's own rule.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from execstate.builder import BuildOptions, build_case, load_spec
from execstate.grade import accuracy_tables, grade_all, grade_response
from execstate.records import ARMS, PROGRAM_INPUT_ARM, Response, Task

PYTHON = """\
n = int(input())
values = list(map(int, input().split()))
total = 0
for v in values:
    total += v * v
print(total)
"""

CPP = """\
#include <iostream>
int main() {
    int n;
    std::cin >> n;
    long long total = 0;
    for (int i = 0; i < n; ++i) {
        long long v;
        std::cin >> v;
        total += v * v;
    }
    std::cout << total << std::endl;
    return 0;
}
"""


def write_case(root: Path, language: str, *, input_arm: bool = True) -> Path:
    d = root / language
    d.mkdir(parents=True)
    program = "main.py" if language == "python" else "main.cpp"
    (d / program).write_text(PYTHON if language == "python" else CPP)
    (d / "short.txt").write_text("3\n1 2 3\n")  # prints 14
    (d / "long.txt").write_text("40\n" + " ".join(str(i % 7) for i in range(40)) + "\n")
    loop = "for v in values:" if language == "python" else "for (int i = 0; i < n; ++i) {"
    variables = '["v", "total"]' if language == "python" else '["i", "total"]'
    (d / "case.toml").write_text(
        f'id = "mine/{language}"\nstudy = "mine"\nlanguage = "{language}"\nprogram = "{program}"\n'
        'short_input = "short.txt"\nlong_input = "long.txt"\n'
        + ("input_arm = true\n" if input_arm else "")
        + f"\n[checkpoint]\nloop_text = {json.dumps(loop)}\nvariables = {variables}\n"
    )
    return d / "case.toml"


def answered(task: Task, text: str, setting: str = "s") -> Response:
    return Response(task_id=task.task_id, setting=setting, status="completed", text=json.dumps({"output": text}))


@pytest.mark.parametrize("language", ["python", "cpp"])
def test_a_crafted_input_that_prints_the_output_is_right_and_another_is_wrong(tmp_path: Path, language: str) -> None:
    if language == "cpp" and shutil.which("g++") is None:
        pytest.skip("g++ is not installed")
    built = build_case(load_spec(write_case(tmp_path, language)), BuildOptions())
    assert isinstance(built, list), built
    assert [t.arm for t in built] == [*ARMS, PROGRAM_INPUT_ARM]
    task = built[-1]
    short = built[0]
    mark = "#" if language == "python" else "//"
    assert task.input == "" and task.oracle == "3\n1 2 3\n" and task.grading_rule == "program-input"
    assert task.source.startswith(short.source.rstrip("\n")) and task.source.endswith(f"{mark} 14\n")
    assert task.meta["output"] == short.oracle == "14\n" and task.meta["output_rule"] == short.grading_rule
    assert task.metrics == short.metrics and task.source_sha256 == short.source_sha256
    crafted = "3\n3 -2 1\n"  # not the short input, and 9 + 4 + 1 = 14 too
    right = grade_response(task, answered(task, crafted))
    assert right.status == "correct-valid" and right.reason is None
    wrong = grade_response(task, answered(task, "2\n3 2\n"))  # 13
    assert wrong.status == "wrong-valid" and "13" in (wrong.reason or "")
    broken = grade_response(task, answered(task, "two\n"))  # Python raises; the C++ program prints 0
    assert broken.status == "wrong-valid"
    assert ("fails" if language == "python" else "prints '0") in (broken.reason or "")


def test_the_oracle_answers_the_input_arm_and_the_tables_show_it(tmp_path: Path) -> None:
    built = build_case(load_spec(write_case(tmp_path, "python")), BuildOptions())
    assert isinstance(built, list)
    responses = [answered(t, t.oracle, "oracle") for t in built]
    grades = grade_all(built, responses, settings=["oracle"], samples=1)
    assert [g.status for g in grades] == ["correct-valid"] * 5
    by_arm = {row["arm"]: row for row in accuracy_tables(built, grades).by_arm}
    assert by_arm[PROGRAM_INPUT_ARM]["correct"] == 1


def test_without_the_key_a_case_has_its_four_arms_and_a_bad_value_is_a_spec_error(tmp_path: Path) -> None:
    built = build_case(load_spec(write_case(tmp_path, "python", input_arm=False)), BuildOptions())
    assert isinstance(built, list) and [t.arm for t in built] == list(ARMS)
    spec = write_case(tmp_path / "bad", "python")
    spec.write_text(spec.read_text().replace("input_arm = true", 'input_arm = "yes"'))
    from execstate.errors import SpecError

    with pytest.raises(SpecError, match="input_arm"):
        load_spec(spec)
