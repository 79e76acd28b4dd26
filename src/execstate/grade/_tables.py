"""Accuracy tables of SPEC section 10 items 1-2, computed from tasks and grades alone.

Tables (each a list of plain dict rows, in a stable order):

- ``corpus`` (paper Table 2): per study and language, cases, distinct sources,
  tasks, planned and graded (= completed) predictions, cyclomatic median and
  range over cases (from each case's clean-source metrics).
- ``by_arm`` (Table 3): per arm x setting, correct, completed, planned, C/R, C/N.
- ``by_setting`` (Table 4): per setting, planned, completed, invalid envelopes
  (among completed), the four graded statuses, C/R and C/N.
- ``by_study`` (Table 5): per study x setting, as ``by_arm``.

C/R = correct / completed and C/N = correct / planned, in percent; ``None``
when the denominator is 0. Every grade is one planned cell (``grade_all``
guarantees it), so planned = number of grades; with n samples per cell each
sample counts as one cell. Pipeline-check grades (oracle provider) are
tabulated like any setting and flagged in ``by_setting``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from execstate.arms import arm_names
from execstate.builder import corpus_table
from execstate.records import CORRECT_STATUSES, Grade, Task, is_fresh, is_sweep
from execstate.tables import Table, make_table, to_markdown
from execstate.tables import write_tables as write_table_files

Row = dict[str, Any]
_STATUSES = ("correct-valid", "correct-invalid", "wrong-valid", "wrong-invalid", "no-response")
TABLE_NAMES = ("corpus", "by_arm", "by_setting", "by_study")
_TITLES = {
    "corpus": "Corpus, paper Table 2",
    "by_arm": "Accuracy by arm and setting, Table 3",
    "by_setting": "Accuracy by setting, Table 4",
    "by_study": "Accuracy by study and setting, Table 5",
}
_NOTE = "C/R = correct/completed, C/N = correct/planned, in percent."


@dataclass(frozen=True)
class AccuracyTables:
    """The four tables; rows are plain dicts with the columns named in the module docstring."""

    corpus: list[Row]
    by_arm: list[Row]
    by_setting: list[Row]
    by_study: list[Row]

    def tables(self) -> list[Table]:
        """The four tables, titled, in ``TABLE_NAMES`` order."""
        return [
            make_table(name, f"{_TITLES[name]} ({name})", getattr(self, name), note="" if name == "corpus" else _NOTE)
            for name in TABLE_NAMES
        ]


def _pct(num: int, den: int) -> float | None:
    return 100.0 * num / den if den else None


def _accuracy(grades: Sequence[Grade]) -> Row:
    """correct / completed / planned counts and both accuracies of a group of grades."""
    planned = len(grades)
    completed = sum(g.status != "no-response" for g in grades)
    correct = sum(g.status in CORRECT_STATUSES for g in grades)
    return {
        "correct": correct,
        "completed": completed,
        "planned": planned,
        "acc_completed_pct": _pct(correct, completed),
        "acc_planned_pct": _pct(correct, planned),
    }


def _check_grades(tasks: Sequence[Task], grades: Sequence[Grade]) -> dict[str, Task]:
    by_id = {t.task_id: t for t in tasks}
    unknown = sorted({g.task_id for g in grades if g.task_id not in by_id})
    if unknown:
        raise ValueError(
            f"{len(unknown)} graded task id(s) are not in the tasks file "
            f"(pass the tasks file the grades came from): {', '.join(unknown[:10])}"
        )
    cells = Counter((g.task_id, g.setting, g.sample) for g in grades)
    repeated = [c for c, n in cells.items() if n > 1]
    if repeated:
        shown = "; ".join(f"{t} x {s} x sample {k}" for t, s, k in repeated[:10])
        raise ValueError(f"{len(repeated)} cell(s) graded more than once (re-run `execstate grade`): {shown}")
    return by_id


def _group(grades: Iterable[Grade], key: Any) -> dict[Any, list[Grade]]:
    groups: dict[Any, list[Grade]] = {}
    for g in grades:
        groups.setdefault(key(g), []).append(g)
    return groups


def _arm_order(tasks: Sequence[Task]) -> list[str]:
    """The arms of ``tasks``: the paired (``paper``) arms in arm order, then the others in first-seen order."""
    present: list[str] = list(dict.fromkeys(t.arm for t in tasks))
    paired = arm_names(group="paper")
    return [a for a in paired if a in present] + [a for a in present if a not in paired]


def by_setting_table(grades: Sequence[Grade]) -> list[Row]:
    """Paper Table 4: completed, invalid envelopes, status counts, C/R and C/N per setting."""
    rows = []
    for setting, group in _group(grades, lambda g: g.setting).items():
        counts: Counter[str] = Counter(g.status for g in group)
        row: Row = {"setting": setting, **_accuracy(group)}
        row["no_response"] = counts["no-response"]
        row["invalid_envelope"] = sum(g.status != "no-response" and g.envelope_valid is False for g in group)
        row.update({s.replace("-", "_"): counts[s] for s in _STATUSES[:4]})
        row["pipeline_check"] = all(g.pipeline_check for g in group)
        rows.append(row)
    return rows


def accuracy_tables(tasks: Iterable[Task], grades: Iterable[Grade]) -> AccuracyTables:
    """Compute the four accuracy tables; raises ``ValueError`` on grades of unknown tasks or repeated cells.

    Checkpoint-sweep tasks (``records.is_sweep``) and their grades are left out: they are no arm of the paper.
    So are fresh tasks (``records.is_fresh``): they are compared with their published twins by
    ``execstate analyze`` alone.
    """
    tasks, grades = list(tasks), list(grades)
    apart = {t.task_id for t in tasks if is_sweep(t) or is_fresh(t)}
    tasks = [t for t in tasks if t.task_id not in apart]
    grades = [g for g in grades if g.task_id not in apart]
    by_id = _check_grades(tasks, grades)
    settings = list(dict.fromkeys(g.setting for g in grades))
    studies = list(dict.fromkeys(t.study for t in tasks))
    by_arm_setting = _group(grades, lambda g: (by_id[g.task_id].arm, g.setting))
    by_study_setting = _group(grades, lambda g: (by_id[g.task_id].study, g.setting))
    return AccuracyTables(
        corpus=corpus_table(tasks, grades),
        by_arm=[
            {"arm": a, "setting": s, **_accuracy(by_arm_setting[(a, s)])}
            for a in _arm_order(tasks)
            for s in settings
            if (a, s) in by_arm_setting
        ],
        by_setting=by_setting_table(grades),
        by_study=[
            {"study": st, "setting": s, **_accuracy(by_study_setting[(st, s)])}
            for st in studies
            for s in settings
            if (st, s) in by_study_setting
        ],
    )


def format_markdown(tables: AccuracyTables) -> str:
    """All four tables as Markdown (percentages to one decimal, ``-`` for undefined)."""
    return "\n".join(to_markdown(t) for t in tables.tables())


def print_tables(tables: AccuracyTables) -> None:
    """Print the Markdown rendering to standard output."""
    print(format_markdown(tables))


def write_tables(tables: AccuracyTables, out_dir: Path | str) -> list[Path]:
    """Write ``<table>.csv``, ``.md`` and ``.json`` per table plus ``tables.json`` and ``tables.md``.

    Creates ``out_dir`` if needed; returns the written paths. CSV leaves undefined
    percentages empty; JSON keeps them ``null`` and full float precision.
    """
    return write_table_files(tables.tables(), out_dir)
