"""grade_all: every planned cell graded exactly once, plan errors name the cells; the CLI round trip."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from execstate.cli import main
from execstate.grade import GradePlanError, grade_all
from execstate.records import Grade, Response, Task, read_jsonl, write_jsonl


def _task(name: str, oracle: str = "9\n", rule: str = "json-or-tokens") -> Task:
    return Task(
        task_id=f"classic/{name}/short-trace-final",
        case_id=f"classic/{name}",
        study="classic",
        language="python",
        arm="short-trace-final",
        source="print(9)\n",
        input="",
        oracle=oracle,
        answer_kind="text",
        grading_rule=rule,
        source_sha256=name * 64,
    )


def _resp(task: Task, setting: str, text: str | None = '{"output":"9"}', sample: int = 0, **kw) -> Response:
    status = "completed" if text is not None else "no-response"
    return Response(task_id=task.task_id, setting=setting, sample=sample, status=status, text=text, **kw)


TASKS = [_task("a"), _task("b", "a b\n", "bytes")]


def test_grades_follow_plan_order_and_carry_fields() -> None:
    responses = [
        _resp(TASKS[1], "s2", '{"output":"a b"}'),
        _resp(TASKS[0], "s1", "x", pipeline_check=True),
        _resp(TASKS[1], "s1", None),
        _resp(TASKS[0], "s2"),
    ]
    grades = grade_all(TASKS, responses)
    assert [(g.setting, g.task_id) for g in grades] == [
        ("s2", TASKS[0].task_id),
        ("s2", TASKS[1].task_id),
        ("s1", TASKS[0].task_id),
        ("s1", TASKS[1].task_id),
    ]
    assert [g.status for g in grades] == ["correct-valid", "correct-valid", "wrong-invalid", "no-response"]
    assert [g.rule for g in grades] == ["json-or-tokens", "bytes", "json-or-tokens", "bytes"]
    assert grades[2].pipeline_check and not grades[0].pipeline_check


def test_missing_cell_is_an_error_that_names_it() -> None:
    responses = [_resp(TASKS[0], "s1"), _resp(TASKS[1], "s1"), _resp(TASKS[0], "s2")]
    with pytest.raises(GradePlanError, match=r"classic/b/short-trace-final x s2 x sample 0") as info:
        grade_all(TASKS, responses)
    assert info.value.missing == [(TASKS[1].task_id, "s2", 0)]
    assert not info.value.duplicate and not info.value.unplanned


def test_duplicate_and_unplanned_cells_are_errors() -> None:
    responses = [_resp(t, "s1") for t in TASKS] + [_resp(TASKS[0], "s1"), _resp(_task("zzz"), "s1")]
    with pytest.raises(GradePlanError) as info:
        grade_all(TASKS, responses)
    assert info.value.duplicate == [(TASKS[0].task_id, "s1", 0)]
    assert info.value.unplanned == [("classic/zzz/short-trace-final", "s1", 0)]
    assert "more than one response line" in str(info.value) and "match no planned cell" in str(info.value)


def test_explicit_settings_and_samples_define_the_plan() -> None:
    responses = [_resp(t, "s1", sample=k) for t in TASKS for k in range(2)]
    assert len(grade_all(TASKS, responses, samples=2)) == 4
    with pytest.raises(GradePlanError) as info:
        grade_all(TASKS, responses, settings=["s1", "s9"], samples=3)
    assert len(info.value.missing) == 2 * 3 + 2  # all of s9, plus sample 2 of s1
    with pytest.raises(GradePlanError) as info:
        grade_all(TASKS, responses, samples=1)
    assert {c.sample for c in info.value.unplanned} == {1}
    # By default a gap in the sample indices is a missing cell.
    with pytest.raises(GradePlanError) as info:
        grade_all(TASKS, [r for r in responses if not (r.sample == 0 and r.task_id == TASKS[0].task_id)])
    assert info.value.missing == [(TASKS[0].task_id, "s1", 0)]


def test_an_empty_plan_is_an_error() -> None:
    with pytest.raises(ValueError, match="nothing is planned"):
        grade_all(TASKS, [])


def _run_cli(argv: list[str]) -> int:
    return main(argv)


def test_cli_grade_then_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_jsonl(tmp_path / "tasks.jsonl", TASKS)
    write_jsonl(tmp_path / "responses.jsonl", [_resp(TASKS[0], "s1"), _resp(TASKS[1], "s1", None)])
    assert (
        _run_cli(
            [
                "grade",
                "--tasks",
                str(tmp_path / "tasks.jsonl"),
                "--responses",
                str(tmp_path / "responses.jsonl"),
                "--out",
                str(tmp_path / "grades.jsonl"),
            ]
        )
        == 0
    )
    grades = list(read_jsonl(tmp_path / "grades.jsonl", Grade))
    assert [g.status for g in grades] == ["correct-valid", "no-response"]
    assert (
        _run_cli(
            [
                "tables",
                "--tasks",
                str(tmp_path / "tasks.jsonl"),
                "--grades",
                str(tmp_path / "grades.jsonl"),
                "--out",
                str(tmp_path / "tables"),
            ]
        )
        == 0
    )
    assert "| s1 | 1 | 1 | 2 | 100.0 | 50.0 |" in capsys.readouterr().out
    with open(tmp_path / "tables" / "by_setting.csv", encoding="utf-8") as fh:
        [row] = list(csv.DictReader(fh))
    assert (row["correct"], row["completed"], row["planned"]) == ("1", "1", "2")


def test_cli_grade_reports_missing_cells(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_jsonl(tmp_path / "tasks.jsonl", TASKS)
    write_jsonl(tmp_path / "responses.jsonl", [_resp(TASKS[0], "s1")])
    code = _run_cli(
        [
            "grade",
            "--tasks",
            str(tmp_path / "tasks.jsonl"),
            "--responses",
            str(tmp_path / "responses.jsonl"),
            "--out",
            str(tmp_path / "grades.jsonl"),
        ]
    )
    assert code == 2
    assert "classic/b/short-trace-final x s1 x sample 0" in capsys.readouterr().err
    assert not (tmp_path / "grades.jsonl").exists()


def test_only_the_answer_text_is_graded_never_the_reasoning() -> None:
    responses = [
        _resp(TASKS[0], "s", '{"output":"8"}', reasoning='so the output is {"output":"9"}'),
        _resp(TASKS[1], "s", '{"output":"a b"}', reasoning="garbage"),
    ]
    assert [g.status for g in grade_all(TASKS, responses)] == ["wrong-valid", "correct-valid"]
