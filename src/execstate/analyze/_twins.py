"""The paired language gap (issue 56, SPEC 11): the same algorithm asked in Python and in C++, proven equal.

A twin task (``records.task_kind`` ``twin``: ``meta["twin_of"]`` names its original, docs/twins.md) is a C++ case's
task whose program the builder proved to compute what its Python original computes: the same outputs, the same
states under the name mapping. A pair is one twin task x setting x sample whose original task (the same arm of
the case ``meta["twin_of"]``, or of its ``~fresh`` case for a twin on fresh inputs) is graded in the same cell: the
same (algorithm, arm, input) in the two languages. A no-response on either side makes the pair incomplete, never
scored. Only proven twins take part (``meta["twin"]["proven"]``); a count arm (the line count) does not, since each
program marks a line of its own.

The gap is 100 * (C++ correct - Python correct) / pairs, in percentage points (negative: C++ is harder), with the
paired comparison's cluster bootstrap interval (``_paired.paired_difference``), the clusters being the algorithms
(the original's case id; a fresh pair belongs to its algorithm's cluster), per setting and arm (``all`` pools the
arms) and, arms pooled, per trace-length band: the terciles of the Python tasks' trace lengths over the distinct
pairs (every setting uses the same edges), with the Python and the C++ trace lengths of the band side by side,
since the two languages count different events (docs/metrics.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from execstate.analyze._cells import load_cells
from execstate.analyze._config import AnalysisConfig
from execstate.analyze._paired import paired_difference
from execstate.analyze._section import Section, SectionInputs
from execstate.analyze._variants import ALL_ARMS, _arms
from execstate.arms import arm_spec
from execstate.records import FRESH_SUFFIX, Grade, Task, is_fresh, task_kind

FIGURE = "language_gap"
BANDS = ("short", "middle", "long")
"""The trace-length bands: terciles of the Python tasks' trace lengths over the distinct pairs."""
_KEY = ["python_task_id", "setting", "sample"]


def is_twin(task: Task) -> bool:
    """True for a cross-language twin's task (``meta["twin_of"]``), proven or not."""
    return task_kind(task) == "twin"


def proven_twin(task: Task) -> bool:
    """True for a twin task the section pairs: proven, and of an arm both programs are asked alike (not a count)."""
    record = task.meta.get("twin")
    proven = isinstance(record, dict) and record.get("proven") is True
    return is_twin(task) and proven and arm_spec(task.arm).family != "count"


def original_task_id(task: Task) -> str:
    """The task id of the twin task's original: the same arm of ``meta["twin_of"]`` (its ``~fresh`` case when the
    twin is on fresh inputs)."""
    suffix = FRESH_SUFFIX if task.case_id.endswith(FRESH_SUFFIX) else ""
    return f"{task.meta['twin_of']}{suffix}/{task.arm}"


def twin_pairs(tasks: Sequence[Task], grades: Sequence[Grade]) -> pd.DataFrame:
    """One row per proven twin task x setting x sample whose original is graded in the same cell.

    Columns: python_task_id, setting, sample, algorithm (the original's published case id), arm, input
    (``published`` or ``fresh``), python_trace, cpp_trace (the two tasks' trace lengths), python_correct,
    cpp_correct (bools) and complete (both completed).
    """
    twins = [t for t in tasks if proven_twin(t)]
    origin = {t.task_id: original_task_id(t) for t in twins}
    wanted = set(origin.values())
    originals = [t for t in tasks if t.task_id in wanted]
    frame = load_cells([*originals, *twins], grades).frame
    mask = frame["task_id"].isin(origin)
    cpp = frame[mask].assign(python_task_id=frame.loc[mask, "task_id"].map(origin))
    py = frame[~mask].rename(columns={"task_id": "python_task_id"})
    algorithm = {t.task_id: str(t.meta["twin_of"]) for t in twins}
    cols = ["completed", "correct", "trace_length"]
    pairs = py[[*_KEY, "arm", *cols]].merge(
        cpp[[*_KEY, "task_id", *cols]], on=_KEY, suffixes=("_python", "_cpp"), how="inner"
    )
    fresh = pairs["python_task_id"].str.rpartition("/")[0].str.endswith(FRESH_SUFFIX)
    return pd.DataFrame(
        {
            **{k: pairs[k] for k in _KEY},
            "algorithm": pairs["task_id"].map(algorithm),
            "arm": pairs["arm"],
            "input": np.where(fresh, "fresh", "published"),
            "python_trace": pairs["trace_length_python"],
            "cpp_trace": pairs["trace_length_cpp"],
            "python_correct": pairs["correct_python"].astype(bool),
            "cpp_correct": pairs["correct_cpp"].astype(bool),
            "complete": (pairs["completed_python"] & pairs["completed_cpp"]).astype(bool),
        }
    ).reset_index(drop=True)


def trace_bands(pairs: pd.DataFrame) -> pd.Series:
    """Each pair's band (``BANDS``): the terciles of the Python trace lengths of the distinct pairs (one value per
    Python task, whatever the settings), a pair whose Python trace is unmeasured in none (NaN)."""
    units = pairs.drop_duplicates("python_task_id")["python_trace"].dropna().to_numpy()
    if units.size == 0:
        return pd.Series([None] * len(pairs), index=pairs.index, dtype=object)
    low, high = np.quantile(units, [1 / 3, 2 / 3])
    return pairs["python_trace"].map(
        lambda x: None if pd.isna(x) else BANDS[0] if x <= low else BANDS[1] if x <= high else BANDS[2]
    )


def _gap(key: tuple[str, ...], subset: pd.DataFrame, config: AnalysisConfig) -> dict[str, Any]:
    """Counts, both accuracies and the gap (C++ minus Python) with its algorithm-cluster interval."""
    done = subset[subset["complete"]]
    n = len(done)
    hits = {side: done[f"{side}_correct"].to_numpy() for side in ("python", "cpp")}
    counts = {side: int(correct.sum()) for side, correct in hits.items()}
    row: dict[str, Any] = {"pairs": n, "incomplete_pairs": int(len(subset) - n)}
    row |= {"algorithms": int(done["algorithm"].nunique()), "inputs": sorted(set(done["input"]))}
    row |= {f"{side}_correct": count for side, count in counts.items()}
    row |= {f"{side}_accuracy_pct": (100.0 * count / n if n else None) for side, count in counts.items()}
    gap: tuple[float | None, ...] = (None, None, None)
    if n:
        gap = paired_difference(hits["cpp"], hits["python"], done["algorithm"].to_numpy(), config, "twins", *key)
    row |= dict(zip(("gap_pp", "ci_low", "ci_high"), gap))
    return row | {"replicates": config.replicates, "level": config.level}


def gap_rows(pairs: pd.DataFrame, config: AnalysisConfig) -> list[dict[str, Any]]:
    """One row per setting x arm with pairs (settings sorted, arms by ``_arms``; ``all`` pools the arms)."""
    rows = []
    for setting in sorted(pairs["setting"].unique().tolist()):
        mine = pairs[pairs["setting"] == setting]
        for arm in _arms(set(mine["arm"])):
            subset = mine if arm == ALL_ARMS else mine[mine["arm"] == arm]
            rows.append({"setting": setting, "arm": arm, **_gap(("arm", setting, arm), subset, config)})
    return rows


def band_rows(pairs: pd.DataFrame, config: AnalysisConfig) -> list[dict[str, Any]]:
    """One row per setting x trace-length band with pairs, arms pooled: the band's Python and C++ trace lengths
    (median and range over its distinct pairs) side by side, then the gap as in ``gap_rows``."""
    banded = pairs.assign(band=trace_bands(pairs))
    rows = []
    for setting in sorted(banded["setting"].unique().tolist()):
        for band in BANDS:
            subset = banded[(banded["setting"] == setting) & (banded["band"] == band)]
            if subset.empty:
                continue
            units = subset.drop_duplicates("python_task_id")
            row: dict[str, Any] = {"setting": setting, "band": band}
            for side in ("python", "cpp"):
                values = units[f"{side}_trace"].dropna()
                row[f"{side}_trace_median"] = float(values.median()) if len(values) else None
                row[f"{side}_trace_range"] = [int(values.min()), int(values.max())] if len(values) else None
            rows.append(row | _gap(("band", setting, band), subset, config))
    return rows


def language_gap(tasks: Sequence[Task], grades: Sequence[Grade], config: AnalysisConfig) -> dict[str, Any]:
    """``twin_tasks``, ``proven_algorithms``, ``unproven`` (twin case ids kept out, with the first difference),
    ``graded_cells`` (graded proven twin cells), ``rows`` (``gap_rows``), ``bands`` (``band_rows``) and ``figures``
    (the gap figure's data); ``{}`` when no task is a twin."""
    twins = [t for t in tasks if is_twin(t)]
    if not twins:
        return {}
    pairs = twin_pairs(tasks, grades)
    rows, bands = gap_rows(pairs, config), band_rows(pairs, config)
    unproven = {
        t.case_id: str(t.meta.get("twin", {}).get("difference", "not proven"))
        for t in twins
        if not proven_twin(t) and arm_spec(t.arm).family != "count"
    }
    proven = {str(t.meta["twin_of"]) for t in twins if proven_twin(t)}
    shown = ("setting", "arm", "pairs", "python_accuracy_pct", "cpp_accuracy_pct", "gap_pp", "ci_low", "ci_high")
    bars = [{k: r[k] for k in shown} for r in rows if r["pairs"]]
    graded = load_cells([t for t in twins if proven_twin(t)], grades).frame
    return {
        "twin_tasks": len(twins),
        "fresh_twin_tasks": sum(1 for t in twins if is_fresh(t)),
        "proven_algorithms": len(proven),
        "unproven": dict(sorted(unproven.items())),
        "graded_cells": len(graded),
        "rows": rows,
        "bands": bands,
        "figures": {FIGURE: {"figure": FIGURE, "level": config.level, "bars": bars}} if bars else {},
    }


def _section_data(d: SectionInputs) -> dict[str, Any]:
    """``language_gap`` of every task given: twins are compared with their originals."""
    return language_gap(d.every_task, d.every_grade, d.config)


SECTION = Section("twins", "Python vs C++ twins: the paired language gap", _section_data, applies=is_twin, apart=True)
"""The language-gap section: twin tasks enter it alone (``apart``), their originals stay in every table."""


__all__ = [
    "BANDS",
    "FIGURE",
    "SECTION",
    "band_rows",
    "gap_rows",
    "is_twin",
    "language_gap",
    "original_task_id",
    "proven_twin",
    "trace_bands",
    "twin_pairs",
]
