"""Plan and grade the cells a run directory asked for, from its ``run_manifest.json`` (``--limit`` runs included).

The plan of a run is the union over its invocations of ``tasks[:limit]`` x the
invocation's settings x ``range(samples)``, ordered by setting (first-seen over
the invocations), then task (file order), then sample. Grading it uses the same
strict check as ``grade_all``: every planned cell exactly once, nothing else.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from execstate.errors import InputFileError, PlanError, RecordError
from execstate.grade._grader import Cell, check_unique_tasks, grade_planned
from execstate.records import (
    RUN_MANIFEST_NAME,
    RUN_RESPONSES_NAME,
    Grade,
    Response,
    RunManifest,
    Task,
    read_jsonl,
    tasks_bytes,
)

GRADES_NAME = "grades.jsonl"
"""Where ``execstate grade --run RUN`` writes by default, and ``tables``/``analyze --run`` read."""


@dataclass(frozen=True)
class RunPlan:
    """What a run directory planned: its manifest, the tasks file used and the planned cells."""

    run_dir: Path
    manifest: RunManifest
    tasks_path: Path
    tasks: list[Task]
    """The tasks with at least one planned cell, in file order."""
    cells: list[Cell]

    @property
    def grades_path(self) -> Path:
        """``RUN/grades.jsonl``, the default output of ``execstate grade --run RUN``."""
        return self.run_dir / GRADES_NAME

    def existing_grades(self) -> Path:
        """``grades_path``, or an ``InputFileError`` saying to grade the run first when it is missing."""
        if not self.grades_path.is_file():
            raise InputFileError(
                f"{self.grades_path} does not exist. Fix: run `execstate grade --run {self.run_dir}` first"
            )
        return self.grades_path


@dataclass(frozen=True)
class GradeRun:
    """The grades of a run's planned cells (plan order), the tasks planned and the tasks file used."""

    grades: list[Grade]
    tasks: list[Task]
    tasks_path: Path


def plan_run_cells(manifest: RunManifest, tasks: Sequence[Task]) -> list[Cell]:
    """The union over ``manifest.invocations`` of tasks[:limit] x settings x range(samples), in grade order."""
    settings = list(dict.fromkeys(s for inv in manifest.invocations for s in inv.settings))
    cells: list[Cell] = []
    for setting in settings:
        shapes = [(inv.limit, inv.samples) for inv in manifest.invocations if setting in inv.settings]
        for i, task in enumerate(tasks):
            for k in range(max(n for _, n in shapes)):
                if any((limit is None or i < limit) and k < n for limit, n in shapes):
                    cells.append(Cell(task.task_id, setting, k))
    return cells


def _read_manifest(run_dir: Path) -> RunManifest:
    """``RUN/run_manifest.json``; ``InputFileError`` or ``RecordError`` naming the file if missing or invalid."""
    path = Path(run_dir) / RUN_MANIFEST_NAME
    if not path.is_file():
        raise InputFileError(f"{path} does not exist. Fix: pass --run the directory `execstate run --out` wrote")
    try:
        manifest = RunManifest.model_validate_json(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        first = str(exc).splitlines()[0]
        raise RecordError(
            f"{path}: not a valid run manifest ({first}). Fix: pass a run directory that `execstate run` wrote"
        ) from None
    if not manifest.invocations:
        raise PlanError(f"{path}: records no invocation of `execstate run`, so nothing is planned. Fix: run it first")
    return manifest


def _tasks_path(run_dir: Path, manifest: RunManifest, tasks: Path | str | None) -> Path:
    if tasks is not None:
        return Path(tasks)
    where = Path(run_dir) / RUN_MANIFEST_NAME
    if manifest.tasks_file is None:
        raise InputFileError(
            f"{where}: the run's tasks were not read from a file. Fix: pass the tasks file with --tasks"
        )
    path = Path(manifest.tasks_file)
    if not path.is_file():
        raise InputFileError(
            f"{where}: tasks file {path} recorded by the run does not exist here (a relative path "
            "is relative to where `execstate run` ran). Fix: pass the tasks file the run used with "
            "--tasks"
        )
    return path


def _check_sha(path: Path, task_list: list[Task], manifest: RunManifest, run_dir: Path) -> None:
    """The tasks must be the run's: same file bytes, or the same tasks in canonical form."""
    with open(path, "rb") as fh:
        sha = hashlib.file_digest(fh, "sha256").hexdigest()
    if manifest.tasks_sha256 in (sha, hashlib.sha256(tasks_bytes(task_list)).hexdigest()):
        return
    raise PlanError(
        f"{path}: tasks hash to sha256 {sha}, but the run in {run_dir} answered tasks with sha256 "
        f"{manifest.tasks_sha256}. Fix: pass the tasks file the run used with --tasks"
    )


def load_run_plan(run_dir: Path | str, tasks: Path | str | None = None) -> RunPlan:
    """Plan a run directory's cells: tasks from ``tasks`` or the manifest's ``tasks_file``, hash-checked.

    Raises an ``ExecstateError`` (one line, naming the file and the fix) when the
    manifest is missing or invalid, the tasks file cannot be found or read, or
    its sha256 differs from the manifest's ``tasks_sha256``.
    """
    run_dir = Path(run_dir)
    manifest = _read_manifest(run_dir)
    path = _tasks_path(run_dir, manifest, tasks)
    task_list = list(read_jsonl(path, Task))
    _check_sha(path, task_list, manifest, run_dir)
    check_unique_tasks(task_list)
    cells = plan_run_cells(manifest, task_list)
    planned = {c.task_id for c in cells}
    return RunPlan(run_dir, manifest, path, [t for t in task_list if t.task_id in planned], cells)


def grade_run(run_dir: Path | str, tasks: Path | str | None = None) -> GradeRun:
    """Grade exactly the cells ``run_dir`` planned (``load_run_plan``) from ``RUN/responses.jsonl``.

    Raises ``GradePlanError`` naming every planned cell without a response line,
    every cell with two lines and every line outside the plan, before grading
    anything; an ``ExecstateError`` for the problems ``load_run_plan`` names.
    """
    plan = load_run_plan(run_dir, tasks)
    path = plan.run_dir / RUN_RESPONSES_NAME
    if not path.is_file():
        raise InputFileError(
            f"{path} does not exist. Fix: run `execstate run --out {plan.run_dir}` to record responses"
        )
    responses: list[Response] = list(read_jsonl(path, Response))
    return GradeRun(grade_planned(plan.tasks, responses, plan.cells), plan.tasks, plan.tasks_path)
