"""The synthetic run folder: valid records in the pipeline's layout, every arm and kind, grades the grader
agrees with, programs that print their oracles, the same bytes for the same seed, and hostile content."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from execstate.arms import arm_names
from execstate.errors import UsageError
from execstate.grade import grade_response, load_run_plan
from execstate.grade._seeds import seed_dependence
from execstate.records import (
    BuildManifest,
    Grade,
    Response,
    RunManifest,
    Task,
    published_case_id,
    read_jsonl,
    task_kind,
)
from execstate.testing.synthetic_run import HOSTILE_LINE, SAMPLES, SETTINGS, cell_count, write_synthetic_run

EXECUTED_RULES = ("python-call", "program-input")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_synthetic_run(tmp_path_factory.mktemp("synthetic") / "out", cells=400, seed=1, hostile=True)


@pytest.fixture(scope="module")
def records(run: Path) -> tuple[list[Task], list[Response], list[Grade]]:
    return (
        list(read_jsonl(run / "build" / "tasks.jsonl", Task)),
        list(read_jsonl(run / "run" / "responses.jsonl", Response)),
        list(read_jsonl(run / "grades.jsonl", Grade)),
    )


def _cell(record: Response | Grade) -> tuple[str, str, int]:
    return (record.task_id, record.setting, record.sample)


def test_records_read_and_the_run_plans_exactly_its_cells(run, records):
    tasks, responses, grades = records
    BuildManifest.model_validate_json((run / "build" / "manifest.json").read_text(encoding="utf-8"))
    manifest = RunManifest.model_validate_json((run / "run" / "run_manifest.json").read_text(encoding="utf-8"))
    assert set(manifest.settings) == {s.name for s in SETTINGS} and manifest.invocations[0].samples == SAMPLES
    plan = load_run_plan(run / "run")  # checks the tasks' hash against the manifest
    planned = {(c.task_id, c.setting, c.sample) for c in plan.cells}
    assert len(tasks) * len(SETTINGS) * SAMPLES == len(planned) == cell_count(run) >= 400
    assert [_cell(r) for r in responses] == [_cell(g) for g in grades]
    assert set(map(_cell, grades)) == planned
    assert (run / "build" / "excluded.jsonl").read_text() == ""


def test_every_arm_kind_and_grade_is_there(records):
    tasks, responses, grades = records
    assert {t.arm for t in tasks} == set(arm_names(builtin=True))
    assert {t.language for t in tasks} == {"python", "cpp"}
    kinds = Counter(task_kind(t) for t in tasks)
    assert kinds["published"] and kinds["fresh"] and kinds["variant"]
    cases = {t.case_id for t in tasks}
    for task in tasks:  # a variant's original and a fresh task's published twin are in the run
        assert task.meta.get("variant_of", task.case_id) in cases and published_case_id(task) in cases
    assert {g.status for g in grades} == {
        "correct-valid",
        "correct-invalid",
        "wrong-valid",
        "wrong-invalid",
        "no-response",
    }
    seeds = seed_dependence([s in (5, 6) for s in range(8)], [f"PYTHONHASHSEED={s}" for s in range(8)])
    assert any(g.reason and g.reason.startswith(f"{seeds} (") for g in grades)  # in the grader's words
    assert any(g.steps and "0" in g.steps and g.prefix for g in grades)
    done = [r for r in responses if r.status == "completed"]
    assert all(r.usage.prompt_tokens and r.latency_s and r.started_at <= r.finished_at for r in done)
    assert any(r.reasoning for r in done) and any(r.batch_id for r in done) and any(r.cached for r in done)
    assert all(r.errors and r.text is None for r in responses if r.status == "no-response")


def test_grades_are_what_the_grader_gives(records):
    """Every cell whose rule runs nothing is graded again from its response text: the same grade."""
    tasks, responses, grades = records
    by_id = {t.task_id: t for t in tasks}
    checked = 0
    for response, grade in zip(responses, grades):
        task = by_id[response.task_id]
        if task.grading_rule in EXECUTED_RULES:
            continue
        assert grade_response(task, response) == grade, (response, grade)
        checked += 1
    assert checked > len(grades) // 2


def _run_python(tmp_path: Path, source: str, stdin: str) -> str:
    program = tmp_path / "program.py"
    program.write_text(source, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(program)], input=stdin.encode(), capture_output=True, timeout=60, check=True
    )
    return done.stdout.decode("utf-8")


@pytest.mark.parametrize("case", ["classic/walk_00000", "classic/walk_00000~rename", "classic/hostile_0"])
def test_programs_print_their_oracles(records, tmp_path, case):
    """The clean program and each instrumented one, run on their input, print the oracle."""
    tasks = [t for t in records[0] if t.case_id == case]
    arms = ("short-trace-final", "long-trace-final", "inside-loop-state", "post-loop-state", "loop-trace")
    for task in (t for t in tasks if t.arm in arms):
        assert _run_python(tmp_path, task.source, task.input) == task.oracle, task.task_id
    count = next(t for t in tasks if t.arm == "line-count")
    assert count.oracle == str(count.meta["line_count"]["taken"])


def test_the_same_seed_writes_the_same_bytes(tmp_path):
    names = ("build/tasks.jsonl", "build/manifest.json", "run/responses.jsonl", "grades.jsonl")
    first, again, other = (
        write_synthetic_run(tmp_path / n, cells=60, seed=s) for n, s in (("a", 5), ("b", 5), ("c", 6))
    )
    assert all((first / n).read_bytes() == (again / n).read_bytes() for n in names)
    assert (first / "grades.jsonl").read_bytes() != (other / "grades.jsonl").read_bytes()


def test_hostile_content_is_in_every_field(run, records):
    tasks, responses, grades = records
    hostile = [t for t in tasks if t.case_id.startswith("classic/hostile_")]
    assert hostile and all("</script>" in t.source and "漢字" in t.source for t in hostile)
    inputs = "".join(t.input for t in hostile)
    for needle in ("<img src=x onerror=", "javascript:", "\x1b[31m", "\x01", "\u202e", "🙂"):
        assert needle in inputs
    assert max(len(line) for t in hostile for line in t.input.split("\n")) >= HOSTILE_LINE
    assert any("</script>" in t.oracle for t in hostile)
    ids = {t.task_id for t in hostile}
    assert any("<script>" in (r.reasoning or "") for r in responses if r.task_id in ids)
    assert any("</script>" in (r.text or "") for r in responses if r.task_id in ids)
    assert any("</script>" in (g.answer or "") for g in grades if g.task_id in ids)
    for name in ("build/tasks.jsonl", "run/responses.jsonl", "grades.jsonl"):
        assert b"\x00" not in (run / name).read_bytes()


def test_a_run_of_no_cells_is_refused(tmp_path):
    with pytest.raises(UsageError, match="cells must be at least 1"):
        write_synthetic_run(tmp_path, cells=0)
    assert not list(tmp_path.iterdir())
