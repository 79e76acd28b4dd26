"""Graded runs for the leaderboard tests: the synthetic provider at three error levels, each run separately.

Tasks: ``execstate.testing.synthetic`` (40 Python cases over two studies, four arms each: 160 tasks), so a
run takes a fraction of a second. ``strong`` and ``strong-twin`` have the same skill (different names, so
independent draws); ``weak`` has a far lower one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from execstate.analyze import AnalysisConfig
from execstate.grade import GRADES_NAME, grade_run
from execstate.records import Task, write_jsonl
from execstate.run import Setting, run_tasks
from execstate.testing.synthetic import synthetic_tasks

CONFIG = AnalysisConfig(replicates=1000, permutations=200)
STUDIES = (("classic", "python", 20), ("lcb_python", "python", 20))
SKILLS = {"strong": 6.0, "strong-twin": 6.0, "weak": 0.0}


@dataclass(frozen=True)
class Runs:
    tasks: list[Task]
    dirs: dict[str, Path]
    root: Path


def make_run(root: Path, tasks_file: Path, setting: Setting) -> Path:
    """Run one setting on the tasks into ``root/<name>`` and grade it there (``grades.jsonl``)."""
    out = root / setting.name
    run_tasks(tasks_file, [setting], out, progress=False)
    write_jsonl(out / GRADES_NAME, grade_run(out).grades)
    return out


def make_runs(root: Path) -> Runs:
    """The three runs of ``SKILLS`` on the synthetic tasks, each made and graded separately under ``root``."""
    tasks = synthetic_tasks(studies=STUDIES)
    write_jsonl(root / "tasks.jsonl", tasks)
    prices = {"strong-twin": {"price_input_per_mtok": 1.0, "price_output_per_mtok": 4.0}}
    dirs = {
        name: make_run(
            root,
            root / "tasks.jsonl",
            Setting(name=name, provider="synthetic", synthetic_skill=skill, **prices.get(name, {})),
        )
        for name, skill in SKILLS.items()
    }
    return Runs(tasks, dirs, root)
