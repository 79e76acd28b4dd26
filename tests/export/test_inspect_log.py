"""`execstate export inspect-log`: a graded run as Inspect logs that Inspect reads back with every cell's grade."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log, read_eval_log_sample_summaries

from execstate.cli import main
from execstate.errors import InputFileError, PlanError, UsageError
from execstate.export import export_inspect_log
from execstate.records import CORRECT_STATUSES, Grade, Response, Task, read_jsonl
from execstate.testing.synthetic_run import SETTINGS, write_synthetic_run


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The smallest synthetic run with the hostile cases: every arm, every grade, markup in every text."""
    return write_synthetic_run(tmp_path_factory.mktemp("inspect_log") / "out", cells=1, seed=4, hostile=True)


@pytest.fixture(scope="module")
def exported(run: Path, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    logs = tmp_path_factory.mktemp("logs")
    assert main(["export", "inspect-log", str(run), "--to", str(logs)]) == 0
    return sorted(logs.iterdir())


@pytest.fixture(scope="module")
def logs(exported: list[Path]) -> list[Any]:
    return [read_eval_log(str(path)) for path in exported]


def test_every_cell_keeps_its_grade_answer_and_response(run, exported, logs):
    tasks = {t.task_id: t for t in read_jsonl(run / "build" / "tasks.jsonl", Task)}
    grades = {(g.task_id, g.setting, g.sample): g for g in read_jsonl(run / "grades.jsonl", Grade)}
    responses = {(r.task_id, r.setting, r.sample): r for r in read_jsonl(run / "run" / "responses.jsonl", Response)}
    assert len(exported) == len(SETTINGS) and all(p.suffix == ".json" for p in exported)
    seen = set()
    for log in logs:
        setting = log.eval.metadata["execstate"]["setting"]
        assert log.status == "success" and log.eval.model == next(
            f"{s.provider}/{s.model or s.provider}" for s in SETTINGS if s.name == setting
        )
        mine = [g for g in grades.values() if g.setting == setting]
        assert len(log.samples) == len(mine)
        accuracy = log.results.scores[0].metrics["accuracy"].value
        assert accuracy == pytest.approx(sum(g.status in CORRECT_STATUSES for g in mine) / len(mine))
        for sample in log.samples:
            cell = (sample.id, setting, sample.epoch - 1)
            grade, response, task = grades[cell], responses[cell], tasks[sample.id]
            score = sample.scores["execstate"]
            assert Grade.model_validate(score.metadata) == grade and score.answer == grade.answer
            assert score.value == ("N" if grade.status == "no-response" else "CI"[grade.status not in CORRECT_STATUSES])
            assert sample.output.completion == (response.text or "") and sample.target == task.oracle
            assert Task.model_validate(sample.metadata["task"]) == task
            assert sample.metadata["response"]["latency_s"] == response.latency_s
            if response.reasoning:
                assert response.reasoning in [c.reasoning for c in sample.messages[-1].content if c.type == "reasoning"]
            seen.add(cell)
    assert seen == set(grades)  # every cell once, in some log
    summaries = read_eval_log_sample_summaries(str(exported[0]))  # what `inspect view` lists
    assert sorted((s.id, s.epoch) for s in summaries) == sorted((s.id, s.epoch) for s in logs[0].samples)


def test_hostile_text_round_trips_unchanged(logs):
    answers = [s.scores["execstate"].answer or "" for log in logs for s in log.samples if "hostile" in s.id]
    assert any("</script>" in a for a in answers)
    sources = {s.metadata["task"]["input"] for s in logs[0].samples if "hostile" in s.id}
    assert any("\x1b[31m" in text and "javascript:" in text and len(text) > 100_000 for text in sources)


def test_a_run_folder_graded_in_place_and_the_eval_format(run, tmp_path):
    """`run --out R` + `grade --run R`: the grades beside the responses, the tasks where the manifest says."""
    folder = shutil.copytree(run / "run", tmp_path / "r")
    shutil.copyfile(run / "grades.jsonl", folder / "grades.jsonl")
    written = export_inspect_log(folder, format="eval")
    assert [p.parent for p in written] == [folder / "inspect_logs"] * len(SETTINGS)
    assert len(list_eval_logs(str(folder / "inspect_logs"))) == len(SETTINGS)
    log = read_eval_log(str(written[0]))
    assert {s.scores["execstate"].metadata["setting"] for s in log.samples} == {SETTINGS[0].name}


def test_a_folder_that_is_not_a_graded_run_is_refused(run, tmp_path):
    with pytest.raises(InputFileError, match=r"is not a graded run folder.*Fix: pass the folder"):
        export_inspect_log(tmp_path)
    ungraded = shutil.copytree(run / "run", tmp_path / "ungraded")
    with pytest.raises(InputFileError, match=r"grades\.jsonl does not exist\. Fix: grade the run first"):
        export_inspect_log(ungraded)
    partial = shutil.copytree(run / "run", tmp_path / "partial")
    lines = (run / "grades.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    (partial / "grades.jsonl").write_text("".join(lines[1:]), encoding="utf-8")
    with pytest.raises(PlanError, match=r"1 planned cell\(s\) have no grade.*Fix: grade the run again"):
        export_inspect_log(partial, tmp_path / "nothing")
    assert not (tmp_path / "nothing").exists()
    with pytest.raises(UsageError, match="unknown Inspect log format 'yaml'"):
        export_inspect_log(run, tmp_path / "nothing", format="yaml")  # type: ignore[arg-type]
