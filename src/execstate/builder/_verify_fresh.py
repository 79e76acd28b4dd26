"""``verify_fresh``: rebuild a ``--fresh`` build's cases from the revealed seed and confirm every fresh task.

A lab publishes the commitment (``meta["fresh"]["commitment"]``, the manifest's ``fresh.commitment``)
with its results and reveals the seed later; anyone then checks that the seed matches the
commitment and that rebuilding the same cases with it gives the same inputs, oracles and sources.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from execstate.builder._build import build
from execstate.builder._fresh import Fresh
from execstate.builder._spec import find_specs
from execstate.errors import InputFileError, UsageError, require_file
from execstate.languages import BuildOptions
from execstate.records import Task, fresh_record, is_fresh, read_jsonl
from execstate.studies import STUDIES

COMPARED = ("source", "input", "oracle")
"""The task fields a rebuild must reproduce exactly (with ``meta["fresh"]``); metrics may differ on another
interpreter or compiler and are not compared."""


@dataclass
class FreshVerification:
    """What ``verify_fresh`` found: the fresh tasks checked and, per task id that failed, why."""

    checked: int = 0
    differing: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.checked > 0 and not self.differing


def verify_fresh(
    tasks_path: Path | str,
    seed: str,
    paths: Sequence[Path | str] = (),
    *,
    jobs: int = 2,
    options: BuildOptions | None = None,
) -> FreshVerification:
    """Check every fresh task of ``tasks_path`` against ``seed``: its commitment, then a rebuild of its case.

    The case specs are found under ``paths`` and in the built-in studies the tasks name. ``InputFileError``
    when the file is missing; ``UsageError`` when it holds no fresh task.
    """
    path = require_file(Path(tasks_path), "tasks file", "pass the tasks.jsonl a build with --fresh wrote")
    fresh_tasks = [t for t in read_jsonl(path, Task) if is_fresh(t)]
    if not fresh_tasks:
        raise UsageError(f"{path} holds no fresh task. Fix: pass the tasks.jsonl of `execstate build --fresh`")
    result = FreshVerification(checked=len(fresh_tasks))
    by_candidates: dict[int, list[Task]] = {}
    for task in fresh_tasks:
        record = fresh_record(task) or {}
        if record.get("commitment") != Fresh(seed).commitment:
            result.differing[task.task_id] = "the seed does not match the task's commitment"
        else:
            by_candidates.setdefault(int(record.get("candidates", 4)), []).append(task)
    specs = _specs(paths, {t.study for t in fresh_tasks})
    for candidates, tasks in sorted(by_candidates.items()):
        wanted = {_twin(t) for t in tasks}
        files = [specs[case] for case in sorted(wanted) if case in specs]
        rebuilt: dict[str, Task] = {}
        if files:
            built = build(files, jobs=jobs, options=options, fresh=Fresh(seed, candidates=candidates))
            rebuilt = {t.task_id: t for t in built.tasks}
        for task in tasks:
            why = _difference(task, rebuilt.get(task.task_id), _twin(task) in specs)
            if why:
                result.differing[task.task_id] = why
    return result


def _specs(paths: Sequence[Path | str], studies: set[str]) -> dict[str, Path]:
    """Case id -> spec file, for the specs under ``paths`` and in the built-in studies named."""
    from execstate.builder._spec import load_spec
    from execstate.errors import SpecError

    roots = [Path(p) for p in paths]
    roots += [s.cases_dir for name in sorted(studies) if (s := STUDIES.get(name)) and s.cases_dir is not None]
    found: dict[str, Path] = {}
    for spec_file in find_specs(roots):
        try:
            found.setdefault(load_spec(spec_file).id, spec_file)
        except (SpecError, InputFileError):
            continue  # a broken spec is not one a fresh task came from: its case is reported as not found
    return found


def _difference(task: Task, again: Task | None, found: bool) -> str | None:
    if not found:
        return f"no case spec with id {task.meta['fresh']['of']!r} was found. Fix: pass the folder of its case.toml"
    if again is None:
        return "the rebuild with this seed did not admit this task"
    fields = [name for name in COMPARED if getattr(task, name) != getattr(again, name)]
    if fresh_record(task) != fresh_record(again):
        fields.append('meta["fresh"]')
    return f"differs from the rebuild in {', '.join(fields)}" if fields else None


__all__ = ["COMPARED", "FreshVerification", "verify_fresh"]


def _twin(task: Task) -> str:
    """The case id of a fresh task's published twin (``meta["fresh"]["of"]``)."""
    return str((fresh_record(task) or {})["of"])
