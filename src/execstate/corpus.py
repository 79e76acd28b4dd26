"""The corpus table (paper Table 2): per study and language, cases, sources, tasks and cyclomatic spread.

Shared by the build (``execstate.builder.corpus``: the table of a build's tasks) and grading (with the grades'
``planned`` and ``graded`` counts), so it lives below both.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from execstate.arms import arm_names
from execstate.records import Grade, Task, fresh_record
from execstate.tables import Table, make_table

Row = dict[str, Any]
CORPUS_COLUMNS = [
    "study",
    "language",
    "cases",
    "sources",
    "tasks",
    "cyclomatic_median",
    "cyclomatic_min",
    "cyclomatic_max",
]
"""The columns a build shows; with grades the table also has ``planned`` and ``graded``."""


def _case_cyclomatic(tasks: Sequence[Task]) -> dict[str, int]:
    """Cyclomatic complexity per case, from its clean-source task: a final or function arm's, first in arm order."""
    rank = {arm: i for i, arm in enumerate(arm_names(family=("final", "function")))}
    chosen: dict[str, tuple[int, int]] = {}
    for t in tasks:
        value = t.metrics.cyclomatic
        r = rank.get(t.arm, len(rank))
        if value is not None and (t.case_id not in chosen or r < chosen[t.case_id][0]):
            chosen[t.case_id] = (r, value)
    return {case: value for case, (_, value) in chosen.items()}


def corpus_table(tasks: Sequence[Task], grades: Sequence[Grade] = ()) -> list[Row]:
    """Paper Table 2: one row per (study, language) in tasks-file order.

    ``planned`` counts the grades of the group's tasks and ``graded`` those that
    are not ``no-response`` (both 0 without grades). The cyclomatic median and
    range are over cases, each from its clean-source task; ``None`` if unmeasured.
    """
    cyclo = _case_cyclomatic(tasks)
    groups: dict[tuple[str, str], list[Task]] = {}
    for t in tasks:
        groups.setdefault((t.study, t.language), []).append(t)
    rows = []
    for (study, lang), group in groups.items():
        ids = {t.task_id for t in group}
        mine = [g for g in grades if g.task_id in ids]
        cases = sorted({t.case_id for t in group})
        values = [cyclo[c] for c in cases if c in cyclo]
        rows.append(
            {
                "study": study,
                "language": lang,
                "cases": len(cases),
                "sources": len({t.source_sha256 for t in group}),
                "tasks": len(group),
                "planned": len(mine),
                "graded": sum(g.status != "no-response" for g in mine),
                "cyclomatic_median": float(statistics.median(values)) if values else None,
                "cyclomatic_min": min(values, default=None),
                "cyclomatic_max": max(values, default=None),
            }
        )
    return rows


def corpus(tasks: Sequence[Task]) -> Table:
    """The corpus table of a build (no grades yet), ready for ``execstate.tables`` to render."""
    return make_table("corpus", "Corpus (paper Table 2)", corpus_table(tasks), CORPUS_COLUMNS)


FRESH_CORPUS_COLUMNS = [
    "study",
    "language",
    "fresh_cases",
    "not_refreshable",
    "trace_short_published_median",
    "trace_short_fresh_median",
    "trace_long_published_median",
    "trace_long_fresh_median",
]
"""The columns of ``fresh_corpus``."""


def fresh_corpus(tasks: Sequence[Task]) -> Table:
    """The fresh corpus table of a ``--fresh`` build: per study and language, the refreshed cases' published and
    fresh trace medians (short and long inputs, from ``meta["fresh"]``) and how many cases kept their inputs."""
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    for t in tasks:
        group = groups.setdefault((t.study, t.language), {"fresh": {}, "kept": set()})
        record = fresh_record(t)
        if record is not None:
            group["fresh"][t.case_id] = record
        elif t.meta.get("fresh") is False:  # the marker of a case kept with its published inputs
            group["kept"].add(t.case_id)

    def median(records: list[dict[str, Any]], key: str) -> float | None:
        values = [r[key] for r in records if isinstance(r.get(key), int)]
        return float(statistics.median(values)) if values else None

    rows = []
    for (study, lang), group in groups.items():
        records = list(group["fresh"].values())
        if not records and not group["kept"]:
            continue  # a study the fresh build did not touch (the published half of a combined build)
        rows.append(
            {
                "study": study,
                "language": lang,
                "fresh_cases": len(records),
                "not_refreshable": len(group["kept"]),
                **{
                    f"trace_{arm}_{kind}_median": median(
                        records, f"trace_{arm}" + ("_published" if kind == "published" else "")
                    )
                    for arm in ("short", "long")
                    for kind in ("published", "fresh")
                },
            }
        )
    note = "Trace lengths (SPEC 6) of the refreshed cases' inputs: the published pair and the fresh pair kept."
    return make_table("fresh_corpus", "Fresh corpus: published vs fresh inputs", rows, FRESH_CORPUS_COLUMNS, note=note)
