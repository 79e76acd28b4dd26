"""Graded runs as the leaderboard reads them, and their combination over one set of tasks.

A run is a directory ``execstate run`` wrote and ``execstate grade --run``
graded (``run_manifest.json``, ``responses.jsonl``, ``grades.jsonl``), or the
path of such a run's grades file. Runs combine only when they planned the same
tasks: the same tasks hash (``RunManifest.tasks_sha256``) and the same planned
task ids. Otherwise they are refused, unless asked to compare on the tasks they
share (``intersect``): the task ids every run planned, with the same task
record in each; the rest are counted, never silently dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from execstate.errors import UsageError
from execstate.grade import GRADES_NAME, load_run_plan
from execstate.records import RUN_RESPONSES_NAME, Grade, Response, Task, read_jsonl


@dataclass(frozen=True)
class GradedRun:
    """One graded run: its planned tasks, grades, responses and the settings as its manifest records them."""

    path: Path
    tasks_sha256: str
    tasks: list[Task]
    grades: list[Grade]
    responses: list[Response]
    """Empty when the run directory has no ``responses.jsonl`` (no cost or budget rows then)."""
    settings: dict[str, dict[str, Any]]
    """Setting name -> its fields from ``run_manifest.json``, for the settings graded in this run."""


@dataclass(frozen=True)
class Combined:
    """Several runs on one task set: every table of the leaderboard is computed from this."""

    runs: list[GradedRun]
    tasks: list[Task]
    grades: list[Grade]
    responses: list[Response]
    settings: dict[str, dict[str, Any]]
    """Setting name -> manifest fields plus ``run`` (the run's path as given)."""
    intersect: bool = False
    dropped_task_ids: dict[str, int] = field(default_factory=dict)
    """With ``intersect``: per run, how many of its planned tasks were left out (not shared by every run)."""


def load_graded_run(path: Path | str) -> GradedRun:
    """A run directory, or a grades file inside one (its parent is the run); errors name the file and the fix."""
    path = Path(path)
    run_dir, grades_path = (path.parent, path) if path.is_file() else (path, path / GRADES_NAME)
    plan = load_run_plan(run_dir)
    grades = list(read_jsonl(plan.existing_grades() if grades_path == plan.grades_path else grades_path, Grade))
    responses_path = run_dir / RUN_RESPONSES_NAME
    responses = list(read_jsonl(responses_path, Response)) if responses_path.is_file() else []
    graded = dict.fromkeys(g.setting for g in grades)
    settings = {name: plan.manifest.settings.get(name, {}) for name in graded}
    return GradedRun(path, plan.manifest.tasks_sha256, plan.tasks, grades, responses, settings)


def _describe(run: GradedRun) -> str:
    return f"{run.path} (tasks sha256 {run.tasks_sha256[:12]}, {len(run.tasks)} planned)"


def _check_settings(runs: Sequence[GradedRun]) -> None:
    seen: dict[str, Path] = {}
    for run in runs:
        for name in run.settings:
            if name in seen:
                raise UsageError(
                    f"setting {name!r} is graded in both {seen[name]} and {run.path}. "
                    "Fix: pass each run once, or re-run one of them under another setting name"
                )
            seen[name] = run.path


def _shared_tasks(runs: Sequence[GradedRun]) -> list[Task]:
    """Tasks planned by every run with identical records, in the first run's order."""
    lines = [{t.task_id: t.to_json_line() for t in run.tasks} for run in runs]
    return [t for t in runs[0].tasks if all(other.get(t.task_id) == t.to_json_line() for other in lines[1:])]


def combine_runs(runs: Sequence[GradedRun], intersect: bool = False) -> Combined:
    """Put graded runs side by side; ``UsageError`` (one line, naming the runs and the fix) when their tasks
    differ and ``intersect`` is false, or when a setting name is graded in two runs."""
    if not runs:
        raise UsageError("no run to compare. Fix: pass one or more graded run directories")
    _check_settings(runs)
    same = all(
        r.tasks_sha256 == runs[0].tasks_sha256 and [t.task_id for t in r.tasks] == [t.task_id for t in runs[0].tasks]
        for r in runs
    )
    if not same and not intersect:
        raise UsageError(
            "runs answer different tasks: "
            + "; ".join(_describe(r) for r in runs)
            + ". Fix: run every setting on the same tasks.jsonl, or pass --intersect to compare on the shared tasks"
        )
    tasks = runs[0].tasks if same else _shared_tasks(runs)
    if not tasks:
        raise UsageError("the runs share no task. Fix: compare runs made on the same tasks.jsonl")
    keep = {t.task_id for t in tasks}
    settings = {name: {**fields, "run": str(r.path)} for r in runs for name, fields in r.settings.items()}
    return Combined(
        runs=list(runs),
        tasks=tasks,
        grades=[g for r in runs for g in r.grades if g.task_id in keep],
        responses=[x for r in runs for x in r.responses if x.task_id in keep],
        settings=settings,
        intersect=not same,
        dropped_task_ids={str(r.path): sum(t.task_id not in keep for t in r.tasks) for r in runs} if not same else {},
    )
