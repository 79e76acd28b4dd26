"""Analyses beyond the paper (SPEC 11) in one record: taxonomy, stability, truncation, sweeps, cohorts.

Everything here answers what the paper's records could not; the report shows it
in its own section, marked as beyond the paper. The taxonomy, stability,
truncation and branch-preserving rows use the four-arm tasks only; the sweep
rows use the swept cases' inside tasks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from execstate.analyze._config import AnalysisConfig
from execstate.analyze._origin import origin_rows
from execstate.analyze._paired import branch_preserving_rows
from execstate.analyze._stability import stability_rows
from execstate.analyze._sweep import sweep_rows
from execstate.analyze._taxonomy import CLASSES, taxonomy
from execstate.analyze._truncation import truncation_tables
from execstate.records import Grade, Response, Task, paper_tasks

EXAMPLES_PER_CLASS = 3
_CLIP = 200


def _examples(cells: list[dict[str, Any]], answers: dict[tuple[str, str, int], str | None]) -> list[dict[str, Any]]:
    """Up to ``EXAMPLES_PER_CLASS`` wrong cells per class (in cell order), with the answer clipped."""
    out = []
    for cls in CLASSES:
        for c in [c for c in cells if c["class"] == cls][:EXAMPLES_PER_CLASS]:
            answer = answers.get((c["task_id"], c["setting"], c["sample"]))
            answer = None if answer is None else answer.strip()
            shown = None if answer is None else (answer if len(answer) <= _CLIP else answer[:_CLIP] + "...")
            out.append({**c, "answer": shown})
    return out


def taxonomy_figure_data(table: list[dict[str, Any]]) -> dict[str, Any]:
    """Shares of each class among the wrong cells of each setting x arm (one stacked bar each)."""
    groups = list(dict.fromkeys((r["setting"], r["arm"]) for r in table))
    bars = [
        {
            "setting": s,
            "arm": a,
            "wrong": next(r["wrong"] for r in table if (r["setting"], r["arm"]) == (s, a)),
            "shares": {r["class"]: r["share_pct"] / 100 for r in table if (r["setting"], r["arm"]) == (s, a)},
        }
        for s, a in groups
    ]
    return {"figure": "taxonomy", "classes": list(CLASSES), "bars": bars}


def beyond_paper(
    tasks: Sequence[Task],
    grades: Sequence[Grade],
    frame: pd.DataFrame,
    config: AnalysisConfig,
    responses: Sequence[Response] | None = None,
) -> dict[str, Any]:
    """Every beyond-the-paper table and figure's data. ``frame``: the four-arm cells (``load_cells``);
    ``responses`` None leaves the truncation tables out (``None``)."""
    paper = paper_tasks(tasks)
    ids = {t.task_id for t in paper}
    own = [g for g in grades if g.task_id in ids]
    tax = taxonomy(paper, own)
    answers = {(g.task_id, g.setting, g.sample): g.answer for g in own}
    sweep = sweep_rows(tasks, grades, config.level)
    figures = {"taxonomy": taxonomy_figure_data(tax.table)} if tax.table else {}
    if sweep["figure"] is not None:
        figures["accuracy_by_position"] = sweep.pop("figure")
    return {
        "taxonomy": tax.table,
        "taxonomy_cells": tax.cells,
        "taxonomy_examples": _examples(tax.cells, answers),
        "stability": stability_rows(paper, own, config),
        "truncation": None if responses is None else truncation_tables(paper, own, responses, config.level),
        "sweep": {k: v for k, v in sweep.items() if k != "figure"},
        "branch_preserving": branch_preserving_rows(frame, config),
        "input_origin": origin_rows(frame, config),
        "figures": figures,
    }
