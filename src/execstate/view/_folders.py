"""Where a run folder's records are: a pipeline output or a ``run`` + ``grade`` output.

The viewer reads three files per run folder and writes one, its cache (``CACHE_NAME``):

- a pipeline output ``OUT``: ``OUT/build/tasks.jsonl``, ``OUT/run/responses.jsonl``, ``OUT/grades.jsonl``;
- a run folder ``RUN`` (``execstate run --out RUN`` then ``execstate grade --run RUN``): ``RUN/responses.jsonl``,
  ``RUN/grades.jsonl``, and the tasks of ``RUN/tasks.jsonl`` or, without it, the file the run manifest names.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from execstate.errors import InputFileError
from execstate.records import RUN_MANIFEST_NAME, RUN_RESPONSES_NAME

CACHE_NAME = ".execstate-view.duckdb"
"""The viewer's cache file beside a run's records: the only file ``execstate view`` writes into a run folder."""
GRADES_FILE = "grades.jsonl"


@dataclass(frozen=True)
class RunFolder:
    """One run folder the viewer shows: its name (the folder's) and its three record files, resolved."""

    root: Path
    tasks: Path
    responses: Path
    grades: Path
    manifest: Path | None

    @property
    def name(self) -> str:
        """The folder's name, as the page shows it."""
        return self.root.name or str(self.root)

    @property
    def cache(self) -> Path:
        """``ROOT/.execstate-view.duckdb``."""
        return self.root / CACHE_NAME

    @property
    def sources(self) -> tuple[Path, Path, Path]:
        """The record files the cache is built from (their size, mtime and hash decide a rebuild)."""
        return (self.tasks, self.responses, self.grades)


def run_folder(path: Path | str) -> RunFolder:
    """The ``RunFolder`` at ``path``; ``InputFileError`` naming what is missing and the fix when it is none."""
    root = Path(path).resolve()
    if not root.is_dir():
        raise InputFileError(f"{path} is not a folder. Fix: pass a pipeline output or a graded `execstate run` folder")
    grades = root / GRADES_FILE
    if (root / "build" / "tasks.jsonl").is_file() and (root / "run" / RUN_RESPONSES_NAME).is_file():
        manifest = root / "run" / RUN_MANIFEST_NAME
        return RunFolder(root, root / "build" / "tasks.jsonl", root / "run" / RUN_RESPONSES_NAME, grades,
                         manifest if manifest.is_file() else None)  # fmt: skip
    responses = root / RUN_RESPONSES_NAME
    manifest = root / RUN_MANIFEST_NAME
    if not responses.is_file():
        raise InputFileError(
            f"{root} holds neither build/tasks.jsonl + run/responses.jsonl (a pipeline output) nor responses.jsonl "
            "(a run folder). Fix: pass the folder `execstate pipeline --out` or `execstate run --out` wrote"
        )
    if not grades.is_file():
        raise InputFileError(f"{grades} does not exist. Fix: grade the run first: `execstate grade --run {root}`")
    tasks = root / "tasks.jsonl"
    if not tasks.is_file():
        tasks = _manifest_tasks(manifest, root)
    return RunFolder(root, tasks, responses, grades, manifest if manifest.is_file() else None)


def _manifest_tasks(manifest: Path, root: Path) -> Path:
    if not manifest.is_file():
        raise InputFileError(
            f"{root} has no tasks.jsonl and no {RUN_MANIFEST_NAME}. Fix: copy the run's tasks.jsonl there"
        )
    named = json.loads(manifest.read_text(encoding="utf-8")).get("tasks_file")
    candidates = [Path(named), root / Path(named).name] if named else []
    for candidate in candidates:
        if candidate.is_file():
            return candidate.resolve()
    raise InputFileError(
        f"{manifest}: the tasks file the run read ({named or 'none recorded'}) is not here. "
        f"Fix: copy the run's tasks.jsonl into {root}"
    )
