"""Grading a run directory from its manifest: a real oracle ``--limit`` run graded, tabled and analysed."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from execstate.cli import main
from execstate.grade import Cell, GradePlanError, grade_run, load_run_plan, plan_run_cells
from execstate.records import ARMS, Grade, RunInvocation, RunManifest, Task, read_jsonl, write_jsonl

SETTINGS_TOML = '[[setting]]\nname = "o1"\nprovider = "oracle"\n\n[[setting]]\nname = "o2"\nprovider = "oracle"\n'


def _task(case: str, arm: str, oracle: str) -> Task:
    return Task(
        task_id=f"classic/{case}/{arm}",
        case_id=f"classic/{case}",
        study="classic",
        language="python",
        arm=arm,
        source=f"print({oracle!r})\n",
        input="",
        oracle=oracle + "\n",
        answer_kind="text",
        grading_rule="json-or-tokens",
        source_sha256=case * 64,
    )


TASKS = [_task(case, arm, f"{case}{i}") for case in ("a", "b") for i, arm in enumerate(ARMS)]


def _files(tmp: Path) -> tuple[Path, Path]:
    tasks, settings = tmp / "tasks.jsonl", tmp / "settings.toml"
    write_jsonl(tasks, TASKS)
    settings.write_text(SETTINGS_TOML, encoding="utf-8")
    return tasks, settings


def _run(tasks: Path, settings: Path, out: Path, *extra: str) -> None:
    code = main(["run", "--tasks", str(tasks), "--settings", str(settings), "--out", str(out), *extra])
    assert code == 0


@pytest.fixture(scope="module")
def limit_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A real oracle run of the first 3 of 8 tasks, two settings, two samples; graded with ``--run``."""
    tmp = tmp_path_factory.mktemp("limit_run")
    tasks, settings = _files(tmp)
    _run(tasks, settings, tmp / "run", "--limit", "3", "--samples", "2")
    assert main(["grade", "--run", str(tmp / "run")]) == 0
    return tmp, tasks


def test_grade_run_grades_exactly_the_planned_cells(limit_run: tuple[Path, Path]) -> None:
    tmp, tasks = limit_run
    grades = list(read_jsonl(tmp / "run" / "grades.jsonl", Grade))
    assert len(grades) == 3 * 2 * 2
    assert {g.status for g in grades} == {"correct-valid"} and all(g.pipeline_check for g in grades)
    assert [(g.setting, g.task_id, g.sample) for g in grades] == [
        (s, t.task_id, k) for s in ("o1", "o2") for t in TASKS[:3] for k in range(2)
    ]
    result = grade_run(tmp / "run")
    assert result.grades == grades
    assert [t.task_id for t in result.tasks] == [t.task_id for t in TASKS[:3]]
    assert result.tasks_path == tasks


def test_manifest_fields_keep_their_order(limit_run: tuple[Path, Path]) -> None:
    data = json.loads((limit_run[0] / "run" / "run_manifest.json").read_text(encoding="utf-8"))
    assert list(data) == ["schema_version", "tasks_file", "tasks_sha256", "tasks", "settings", "invocations"]
    assert list(data["invocations"][0]) == ["started_at", "settings", "samples", "limit", "execstate_version", "python"]
    assert (data["tasks"], data["invocations"][0]["limit"]) == (8, 3)


def test_plain_responses_form_refuses_a_limit_run_with_the_hint(
    limit_run: tuple[Path, Path],
    capsys: pytest.CaptureFixture[str],
) -> None:
    tmp, tasks = limit_run
    code = main(
        [
            "grade",
            "--tasks",
            str(tasks),
            "--responses",
            str(tmp / "run" / "responses.jsonl"),
            "--out",
            str(tmp / "plain.jsonl"),
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and not (tmp / "plain.jsonl").exists()
    assert "20 planned cell(s) have no response line" in err  # 5 unrun tasks x 2 settings x 2 samples
    assert (
        "to grade only the cells a run planned (e.g. a --limit run), pass --run RUN_DIR instead of --responses" in err
    )
    assert f"(here: --run {tmp / 'run'})" in err


def test_tables_of_a_run_cover_only_its_planned_tasks(limit_run: tuple[Path, Path]) -> None:
    tmp, _ = limit_run
    assert main(["tables", "--run", str(tmp / "run"), "--out", str(tmp / "tables")]) == 0
    with open(tmp / "tables" / "by_setting.csv", encoding="utf-8") as fh:
        rows = {r["setting"]: r for r in csv.DictReader(fh)}
    assert {s: (r["correct"], r["planned"]) for s, r in rows.items()} == {"o1": ("6", "6"), "o2": ("6", "6")}
    with open(tmp / "tables" / "corpus.csv", encoding="utf-8") as fh:
        [corpus] = list(csv.DictReader(fh))
    assert (corpus["cases"], corpus["tasks"], corpus["planned"]) == ("1", "3", "12")


def test_analyze_a_run(limit_run: tuple[Path, Path]) -> None:
    tmp, _ = limit_run
    out = tmp / "analysis"
    assert (
        main(["analyze", "--run", str(tmp / "run"), "--out", str(out), "--replicates", "50", "--permutations", "50"])
        == 0
    )
    data = json.loads((out / "analysis.json").read_text(encoding="utf-8"))
    assert (data["inputs"]["cells"], data["inputs"]["correct"]) == (12, 12)
    assert [row["tasks"] for row in data["accuracy"]["corpus"]] == [3]
    # with --run the run's responses are an input too (the truncation and token tables)
    assert set(data["files"]) == {"tasks.jsonl", "grades.jsonl", "responses.jsonl"}
    assert (out / "report.html").is_file()


def test_tables_and_analyze_of_an_ungraded_run_say_to_grade_first(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    tasks, settings = _files(tmp_path)
    _run(tasks, settings, tmp_path / "run", "--limit", "1")
    assert main(["tables", "--run", str(tmp_path / "run")]) == 2
    assert main(["analyze", "--run", str(tmp_path / "run"), "--out", str(tmp_path / "a")]) == 2
    err = capsys.readouterr().err
    assert err.count(f"run `execstate grade --run {tmp_path / 'run'}` first") == 2
    assert not (tmp_path / "a").exists()


def test_two_invocations_plan_their_union(tmp_path: Path) -> None:
    tasks, settings = _files(tmp_path)
    _run(tasks, settings, tmp_path / "run", "--setting", "o2", "--limit", "4")
    _run(tasks, settings, tmp_path / "run", "--limit", "2", "--samples", "3")
    result = grade_run(tmp_path / "run")
    ids = [t.task_id for t in TASKS]
    expected = [("o2", ids[i], k) for i in range(4) for k in range(3) if k == 0 or i < 2] + [
        ("o1", ids[i], k) for i in range(2) for k in range(3)
    ]
    assert [(g.setting, g.task_id, g.sample) for g in result.grades] == expected
    assert len(expected) == 8 + 6 and {g.status for g in result.grades} == {"correct-valid"}
    assert [t.task_id for t in result.tasks] == ids[:4]


def test_plan_of_a_manifest_without_limit_is_every_task() -> None:
    invocations = [
        RunInvocation(started_at="t", settings=["x"], samples=1, limit=None),
        RunInvocation(started_at="t", settings=["y", "x"], samples=2, limit=1),
    ]
    manifest = RunManifest(tasks_file=None, tasks_sha256="0" * 64, tasks=8, settings={}, invocations=invocations)
    cells = plan_run_cells(manifest, TASKS)
    assert cells[: len(TASKS) + 1] == [Cell(TASKS[0].task_id, "x", 0), Cell(TASKS[0].task_id, "x", 1)] + [
        Cell(t.task_id, "x", 0) for t in TASKS[1:]
    ]
    assert cells[len(TASKS) + 1 :] == [Cell(TASKS[0].task_id, "y", 0), Cell(TASKS[0].task_id, "y", 1)]


def test_a_changed_tasks_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tasks, settings = _files(tmp_path)
    _run(tasks, settings, tmp_path / "run", "--limit", "3")
    sha = json.loads((tmp_path / "run" / "run_manifest.json").read_text(encoding="utf-8"))["tasks_sha256"]
    write_jsonl(tasks, [TASKS[0].model_copy(update={"oracle": "changed\n"}), *TASKS[1:]])
    with pytest.raises(ValueError, match=f"answered tasks with sha256 {sha}. Fix: pass the tasks file the run used"):
        grade_run(tmp_path / "run")
    assert main(["grade", "--run", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err
    assert str(tasks) in err and sha in err and "with --tasks" in err
    assert not (tmp_path / "run" / "grades.jsonl").exists()
    original = tmp_path / "original.jsonl"
    write_jsonl(original, TASKS)
    assert len(grade_run(tmp_path / "run", original).grades) == 3 * 2


def test_a_lost_response_line_is_named(tmp_path: Path) -> None:
    tasks, settings = _files(tmp_path)
    _run(tasks, settings, tmp_path / "run", "--limit", "2")
    responses = tmp_path / "run" / "responses.jsonl"
    lines = responses.read_text(encoding="utf-8").splitlines(keepends=True)
    lost = json.loads(lines[0])
    responses.write_text("".join(lines[1:]), encoding="utf-8")
    with pytest.raises(GradePlanError, match="resume the run") as info:
        grade_run(tmp_path / "run")
    assert info.value.missing == [Cell(lost["task_id"], lost["setting"], lost["sample"])]
    assert not info.value.duplicate and not info.value.unplanned


def test_run_plan_errors_name_the_file_and_the_fix(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"run_manifest.json does not exist. Fix: pass --run the directory"):
        load_run_plan(tmp_path)
    tasks, settings = _files(tmp_path)
    _run(tasks, settings, tmp_path / "run", "--limit", "1")
    tasks.unlink()
    with pytest.raises(ValueError, match=r"tasks file .* does not exist here .* with --tasks"):
        load_run_plan(tmp_path / "run")
