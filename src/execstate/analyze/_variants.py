"""Original vs source variant (issue 44): each case's accuracy on its published source and on variants of it.

A source variant (``records.is_variant``, docs/variants.md) re-issues a case with the same meaning and a new
surface (names renamed, misleading names, dead code), so a model that answers from memorised behaviour or
from what the names promise does worse on the variant. A pair is one variant task x setting x sample whose
original task (``meta["variant_of"] + "/" + arm``) is graded in the same cell; a no-response on either side
makes the pair incomplete, never scored, as in the published-vs-fresh table. The difference is
100 * (variant correct - original correct) / pairs in percentage points (negative: the variant is harder),
with the paired comparison's source-cluster bootstrap interval (``_paired.paired_difference``), the clusters
being the originals' sources. Fresh tasks and checkpoint-sweep extras take no part here.
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
from execstate.records import Grade, Task, is_fresh, is_sweep, is_variant

FIGURE = "variant_gap"
ALL_ARMS = "all"
"""The ``arm`` of a row pooling every arm of a setting x variant."""
_KEY = ["original_task_id", "setting", "sample"]


def _variant_tasks(tasks: Sequence[Task]) -> list[Task]:
    """The variant tasks analysed here: not fresh, not a checkpoint-sweep extra."""
    return [t for t in tasks if is_variant(t) and not is_fresh(t) and not is_sweep(t)]


def _name(task: Task) -> str:
    """The variant's name (``meta["variant"]["name"]``; else the case id's part after ``~``)."""
    record = task.meta.get("variant")
    return str(record["name"]) if isinstance(record, dict) and "name" in record else task.case_id.rpartition("~")[2]


def _cells(tasks: Sequence[Task], grades: Sequence[Grade]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(original cells, variant cells); a variant cell carries its ``original_task_id`` and ``variant``."""
    variants = _variant_tasks(tasks)
    twin = {t.task_id: f"{t.meta['variant_of']}/{t.arm}" for t in variants}
    name = {t.task_id: _name(t) for t in variants}
    originals = [t for t in tasks if not is_variant(t) and not is_fresh(t) and not is_sweep(t)]
    frame = load_cells([*originals, *variants], grades).frame
    mask = frame["task_id"].isin(twin)
    var = frame[mask].assign(
        original_task_id=frame.loc[mask, "task_id"].map(twin), variant=frame.loc[mask, "task_id"].map(name)
    )
    return frame[~mask].rename(columns={"task_id": "original_task_id"}), var


def variant_pairs(tasks: Sequence[Task], grades: Sequence[Grade]) -> pd.DataFrame:
    """One row per variant task x setting x sample whose original is graded in the same cell.

    Columns: original_task_id, setting, sample, case_id (the original's), arm, variant (its name),
    source_sha256 (the original's), original_correct, variant_correct (bools) and complete (both completed).
    """
    return _pairs(*_cells(tasks, grades))


def _pairs(originals: pd.DataFrame, variants: pd.DataFrame) -> pd.DataFrame:
    cols = ["completed", "correct"]
    pairs = originals[[*_KEY, "case_id", "arm", "source_sha256", *cols]].merge(
        variants[[*_KEY, "variant", *cols]], on=_KEY, suffixes=("_original", "_variant"), how="inner"
    )
    return pd.DataFrame(
        {
            **{k: pairs[k] for k in [*_KEY, "case_id", "arm", "variant", "source_sha256"]},
            "original_correct": pairs["correct_original"].astype(bool),
            "variant_correct": pairs["correct_variant"].astype(bool),
            "complete": (pairs["completed_original"] & pairs["completed_variant"]).astype(bool),
        }
    ).reset_index(drop=True)


def _row(key: tuple[str, str, str], subset: pd.DataFrame, cells: int, config: AnalysisConfig) -> dict[str, Any]:
    """Counts, both sides' accuracies, the difference (variant - original) and its interval for one row key."""
    done = subset[subset["complete"]]
    n = len(done)
    hits = {side: done[f"{side}_correct"].to_numpy() for side in ("original", "variant")}
    row: dict[str, Any] = dict(zip(("setting", "arm", "variant"), key))
    row |= {"pairs": n, "cases": int(done["case_id"].nunique()), "incomplete_pairs": int(len(subset) - n)}
    row |= {"unpaired_variant": cells - len(subset), "sources": int(done["source_sha256"].nunique())}
    for side, correct in hits.items():
        row[f"{side}_correct"] = int(correct.sum())
    for side, correct in hits.items():
        row[f"{side}_accuracy_pct"] = 100.0 * int(correct.sum()) / n if n else None
    gap: tuple[float | None, ...] = (None, None, None)
    if n:
        sources = done["source_sha256"].to_numpy()
        gap = paired_difference(hits["variant"], hits["original"], sources, config, "variant", *key)
    row |= dict(zip(("difference_pp", "ci_low", "ci_high"), gap))
    return row | {"replicates": config.replicates, "level": config.level}


def _arms(present: set[str]) -> list[str]:
    """The arms present, the paper's then the further ones in arm order, then any other sorted, then ``all``."""
    known = [a for a in (*arm_names(group="paper"), *arm_names(group="further")) if a in present]
    return [*known, *sorted(present - set(known)), ALL_ARMS]


def _at(frame: pd.DataFrame, key: tuple[str, str, str]) -> pd.Series:
    """The rows of ``frame`` in the setting x arm x variant ``key`` (arm ``all``: any arm)."""
    setting, arm, variant = key
    mask = (frame["setting"] == setting) & (frame["variant"] == variant)
    return mask if arm == ALL_ARMS else mask & (frame["arm"] == arm)


def variant_rows(tasks: Sequence[Task], grades: Sequence[Grade], config: AnalysisConfig) -> list[dict[str, Any]]:
    """One row per setting x arm x variant with a graded variant cell (settings and variants sorted, arms by
    ``_arms``; arm ``all`` pools the setting's arms). ``unpaired_variant``: graded variant cells whose original
    is not graded in that cell. Empty without variant tasks."""
    originals, variants = _cells(tasks, grades)
    pairs = _pairs(originals, variants)
    rows = []
    for setting in sorted(variants["setting"].unique().tolist()):
        for arm in _arms(set(variants.loc[variants["setting"] == setting, "arm"])):
            for variant in sorted(variants["variant"].unique().tolist()):
                key = (setting, arm, variant)
                cells = int(_at(variants, key).sum())
                if cells:
                    rows.append(_row(key, pairs[_at(pairs, key)], cells, config))
    return rows


def variant_comparison(tasks: Sequence[Task], grades: Sequence[Grade], config: AnalysisConfig) -> dict[str, Any]:
    """``tasks`` and ``graded_cells`` (of the variant tasks), ``variants`` (their names), ``rows``
    (``variant_rows``) and ``figures`` (the variant-gap figure's data: the rows with pairs); ``{}`` when no
    task is a variant, so an analysis without variants is written as before."""
    variants = _variant_tasks(tasks)
    if not variants:
        return {}
    rows = variant_rows(tasks, grades, config)
    shown = ("setting", "arm", "variant", "pairs", "original_accuracy_pct", "variant_accuracy_pct", "difference_pp")
    bars = [{k: r[k] for k in (*shown, "ci_low", "ci_high")} for r in rows if r["pairs"]]
    per_arm = [r for r in rows if r["arm"] != ALL_ARMS]
    return {
        "tasks": len(variants),
        "graded_cells": sum(r["pairs"] + r["incomplete_pairs"] + r["unpaired_variant"] for r in per_arm),
        "variants": sorted({_name(t) for t in variants}),
        "rows": rows,
        "figures": {FIGURE: {"figure": FIGURE, "level": config.level, "bars": bars}} if bars else {},
    }


def _section_data(d: SectionInputs) -> dict[str, Any]:
    """``variant_comparison`` of every task given: variants are compared with their originals."""
    return variant_comparison(d.every_task, d.every_grade, d.config)


SECTION = Section("variants", "Source variants", _section_data, applies=is_variant, apart=True)
"""The original-vs-variant section: variant tasks enter it alone (``apart``)."""
