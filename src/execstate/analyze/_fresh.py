"""Published vs fresh inputs (SPEC 11): each program's accuracy on its published inputs and on fresh ones.

A fresh task (``records.is_fresh``) re-issues a published case's program on newly generated inputs,
so a model that has seen the published inputs and their outputs does better on them than on the
fresh ones. A pair is one published case x arm x setting x sample whose fresh twin (the task of
``meta["fresh"]["of"]`` with the same arm) is graded in the same cell; a pair with a no-response on
either side is counted as incomplete, never scored, as in the paired short-vs-long comparison. The
difference is 100 * (published correct - fresh correct) / pairs, in percentage points, with that
comparison's source-cluster bootstrap interval (``_paired.paired_difference``). Fresh tasks enter
this table only: every other table analyses the published tasks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from execstate.analyze._cells import load_cells
from execstate.analyze._config import AnalysisConfig
from execstate.analyze._paired import paired_difference
from execstate.analyze._section import Section, SectionInputs
from execstate.arms import arm_names
from execstate.records import Grade, Task, is_fresh, paper_tasks, published_case_id

FIGURE = "published_vs_fresh"
_KEY = ["case_id", "arm", "setting", "sample"]


def _cells(tasks: Sequence[Task], grades: Sequence[Grade]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(published cells, fresh cells) of the four-arm tasks; a fresh cell's ``case_id`` is its twin's."""
    paper = paper_tasks(tasks)
    twin = {t.task_id: published_case_id(t) for t in paper if is_fresh(t)}
    frame = load_cells(paper, grades).frame
    fresh = frame["task_id"].isin(twin)
    return frame[~fresh], frame[fresh].assign(case_id=frame.loc[fresh, "task_id"].map(twin))


def fresh_pairs(tasks: Sequence[Task], grades: Sequence[Grade]) -> pd.DataFrame:
    """One row per published case x arm x setting x sample graded on both twins.

    Columns: case_id (the published one), arm, setting, sample, source_sha256, published_correct,
    fresh_correct (bools) and complete (both cells completed).
    """
    return _pairs(*_cells(tasks, grades))


def _pairs(published: pd.DataFrame, fresh: pd.DataFrame) -> pd.DataFrame:
    cols = ["completed", "correct"]
    pairs = published[[*_KEY, "source_sha256", *cols]].merge(
        fresh[[*_KEY, *cols]], on=_KEY, suffixes=("_published", "_fresh"), how="inner"
    )
    return pd.DataFrame(
        {
            **{k: pairs[k] for k in [*_KEY, "source_sha256"]},
            "published_correct": pairs["correct_published"].astype(bool),
            "fresh_correct": pairs["correct_fresh"].astype(bool),
            "complete": (pairs["completed_published"] & pairs["completed_fresh"]).astype(bool),
        }
    ).reset_index(drop=True)


def _row(setting: str, arm: str, subset: pd.DataFrame, unpaired: int, config: AnalysisConfig) -> dict[str, Any]:
    """Counts, both accuracies, the difference and its interval for one setting x arm."""
    done = subset[subset["complete"]]
    pub, new = done["published_correct"].to_numpy(), done["fresh_correct"].to_numpy()
    n = len(done)
    row: dict[str, Any] = {
        "setting": setting,
        "arm": arm,
        "pairs": n,
        "cases": int(done["case_id"].nunique()),
        "incomplete_pairs": int(len(subset) - n),
        "unpaired_fresh": unpaired,
        "sources": int(done["source_sha256"].nunique()),
        "published_correct": int(pub.sum()),
        "fresh_correct": int(new.sum()),
        "published_accuracy_pct": 100.0 * int(pub.sum()) / n if n else None,
        "fresh_accuracy_pct": 100.0 * int(new.sum()) / n if n else None,
        "difference_pp": None,
        "ci_low": None,
        "ci_high": None,
        "replicates": config.replicates,
        "level": config.level,
    }
    if n:
        sources = done["source_sha256"].to_numpy()
        row["difference_pp"], row["ci_low"], row["ci_high"] = paired_difference(
            pub, new, sources, config, "fresh", setting, arm
        )
    return row


def fresh_rows(tasks: Sequence[Task], grades: Sequence[Grade], config: AnalysisConfig) -> list[dict[str, Any]]:
    """One row per setting x arm with a graded fresh cell (settings sorted, the paper's arms in arm order, then
    any other sorted).

    ``unpaired_fresh``: that setting x arm's graded fresh cells whose published twin is not graded there
    (in no pair). Empty without fresh tasks.
    """
    published, fresh = _cells(tasks, grades)
    pairs = _pairs(published, fresh)
    paper = arm_names(group="paper")
    arms = [a for a in paper if a in set(fresh["arm"])] + sorted(set(fresh["arm"]) - set(paper))
    rows = []
    for setting in sorted(fresh["setting"].unique().tolist()):
        for arm in arms:
            cells = int(((fresh["setting"] == setting) & (fresh["arm"] == arm)).sum())
            if cells == 0:
                continue
            subset = pairs[(pairs["setting"] == setting) & (pairs["arm"] == arm)]
            rows.append(_row(setting, arm, subset, cells - len(subset), config))
    return rows


def fresh_comparison(tasks: Sequence[Task], grades: Sequence[Grade], config: AnalysisConfig) -> dict[str, Any]:
    """``rows`` (``fresh_rows``), the counts of fresh tasks and their graded cells, and ``figures`` (the
    published-vs-fresh figure's data: the rows with pairs); ``{}`` when no task is fresh."""
    ids = {t.task_id for t in paper_tasks(tasks) if is_fresh(t)}
    if not ids:
        return {}
    rows = fresh_rows(tasks, grades, config)
    shown = ("setting", "arm", "pairs", "published_accuracy_pct", "fresh_accuracy_pct", "difference_pp")
    bars = [{k: r[k] for k in (*shown, "ci_low", "ci_high")} for r in rows if r["pairs"]]
    return {
        "tasks": len(ids),
        "graded_cells": sum(r["pairs"] + r["incomplete_pairs"] + r["unpaired_fresh"] for r in rows),
        "rows": rows,
        "figures": {FIGURE: {"figure": FIGURE, "level": config.level, "bars": bars}} if bars else {},
    }


def _section_data(d: SectionInputs) -> dict[str, Any]:
    """``fresh_comparison`` of every task given: fresh tasks are compared with their published twins."""
    return fresh_comparison(d.every_task, d.every_grade, d.config)


SECTION = Section("fresh", "Published vs fresh inputs", _section_data, applies=is_fresh, apart=True)
"""The published-vs-fresh section: fresh tasks enter it alone (``apart``)."""
