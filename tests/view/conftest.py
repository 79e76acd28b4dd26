"""Run folders for the viewer's tests, made from the committed built tasks (``fixture/tasks.jsonl``, regenerated
by ``make_fixture.py``): answered by the oracle and synthetic providers and graded, as a pipeline output
(``OUT/build/tasks.jsonl``, ``OUT/run/responses.jsonl``, ``OUT/grades.jsonl``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

FIXTURE = Path(__file__).with_name("fixture") / "tasks.jsonl"


def make_run(out: Path, tasks_file: Path = FIXTURE, samples: int = 1) -> Path:
    """A graded pipeline-layout run folder at ``out`` over ``tasks_file`` (oracle and synthetic settings)."""
    from execstate.grade import grade_all
    from execstate.pipeline import PIPELINE_CHECK_SETTINGS
    from execstate.records import Response, Task, read_jsonl, write_jsonl
    from execstate.run import RESPONSES_NAME, run_tasks

    (out / "build").mkdir(parents=True)
    shutil.copyfile(tasks_file, out / "build" / "tasks.jsonl")
    settings = list(PIPELINE_CHECK_SETTINGS)
    run_tasks(out / "build" / "tasks.jsonl", settings, out / "run", samples=samples, progress=False)
    tasks = list(read_jsonl(out / "build" / "tasks.jsonl", Task))
    responses = list(read_jsonl(out / "run" / RESPONSES_NAME, Response))
    write_jsonl(out / "grades.jsonl", grade_all(tasks, responses, settings=[s.name for s in settings]))
    return out


@pytest.fixture(scope="session")
def fixture_run(tmp_path_factory) -> Path:
    """One graded run of the fixture's tasks (one sample per setting), shared by the viewer's tests."""
    return make_run(tmp_path_factory.mktemp("view-run") / "out")
