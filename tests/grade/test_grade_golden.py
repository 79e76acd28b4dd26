"""Grade every hand-decided case of ``golden_responses.jsonl`` and compare statuses and answers.

The table is regenerated from ``golden_cases.py`` with ``python tests/grade/golden_cases.py``;
its expectations are decided from SPEC 9, not produced by the grader. Run this
file as a script to print the grader's current status next to each expected one.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from execstate.grade import grade_response
from execstate.records import GRADING_RULES, Response, Task

GOLDEN = Path(__file__).with_name("golden_responses.jsonl")
MB = 1 << 20


def _prose_mb() -> str:
    sentence = "Let me trace the loop: i goes up by one and total grows, so we keep going. "
    return sentence * (MB // len(sentence) + 1)


def _code_mb() -> str:
    block = 'for (int i = 0; i < n; ++i) { if (a[i] > b) { m["k"] = {"x": i}; } }\n'
    return block * (MB // len(block) + 1)


GENERATORS = {
    # A valid envelope whose output is '9' padded with a megabyte of JSON whitespace.
    "1mb-valid": lambda: json.dumps({"output": "9" + " " * MB}),
    "1mb-prose": lambda: _prose_mb() + '\nSo the answer is {"output": "9"}.',
    "1mb-code": lambda: "Reasoning:\n" + _code_mb() + '```json\n{"output": "9"}\n```\nDone.',
    # Unterminated nesting of objects that each carry an output key: no complete object exists.
    "1mb-nested-garbage": lambda: '{"output": "1", "a": ' * (MB // 20),
    "deep-then-answer": lambda: "[" * 100_000 + "{" * 100_000 + ' {"output": "9"}',
}


def load_cases() -> list[dict]:
    with open(GOLDEN, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def response_text(row: dict) -> str | None:
    return GENERATORS[row["generate"]]() if row["generate"] else row["response"]


def grade_row(row: dict):
    task = Task(
        task_id=f"golden/{row['id']}/x",
        case_id=f"golden/{row['id']}",
        study="golden",
        language="python",
        arm="short-trace-final",
        source="",
        input="",
        oracle=row["oracle"],
        answer_kind="text",
        grading_rule=row["rule"],
        source_sha256="0" * 64,
    )
    response = Response(task_id=task.task_id, setting="golden", status=row["response_status"], text=response_text(row))
    return grade_response(task, response)


CASES = load_cases()


def test_golden_table_covers_the_required_cases() -> None:
    assert len(CASES) >= 60
    # the executed rules need a program to run: tests/grade/test_grade_cruxeval_input.py decides python-call,
    # tests/builder/test_input_arm.py program-input
    assert {c["rule"] for c in CASES} == set(GRADING_RULES) - {"python-call", "program-input"}
    statuses = {c["expected_status"] for c in CASES}
    assert statuses == {"correct-valid", "correct-invalid", "wrong-valid", "wrong-invalid", "no-response"}
    assert any(c["generate"] and c["generate"].startswith("1mb") for c in CASES)
    assert all(c["generate"] in GENERATORS for c in CASES if c["generate"])


@pytest.mark.parametrize("row", CASES, ids=[c["id"] for c in CASES])
def test_golden_case(row: dict) -> None:
    grade = grade_row(row)
    assert grade.status == row["expected_status"], row["note"]
    assert grade.rule == row["rule"]
    if "expected_answer" in row:
        assert grade.answer == row["expected_answer"]
    if grade.status == "no-response":
        assert grade.envelope_valid is None and grade.answer is None
    else:
        assert grade.envelope_valid is grade.status.endswith("-valid")
    json.loads(grade.to_json_line())  # the record is writable as UTF-8 JSON


def test_generated_responses_are_a_megabyte() -> None:
    for name in ("1mb-valid", "1mb-prose", "1mb-code", "1mb-nested-garbage"):
        assert len(GENERATORS[name]()) >= MB * 0.99, name


if __name__ == "__main__":
    for row in CASES:
        got = grade_row(row)
        mark = "ok " if got.status == row["expected_status"] else "BAD"
        print(f"{mark} {row['id']:28} expected {row['expected_status']:16} got {got.status:16} {got.answer!r:.40}")
    sys.exit(0)
