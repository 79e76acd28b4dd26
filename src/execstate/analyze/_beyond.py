"""Analyses beyond the paper (SPEC 11) as rows of the section registry: taxonomy, stability, truncation, sweeps,
cohorts.

Everything here answers what the paper's records could not; the report shows it
in its own section, marked as beyond the paper. The taxonomy, stability,
truncation and cohort rows use the four-arm tasks only; the sweep rows use the
swept cases' inside tasks.

``BEYOND_ROWS`` lists them, in report order, as ``Section``s with ``beyond=True``: ``analyze`` computes each
row's keys of ``analysis.json``'s ``beyond`` and the report (``execstate.report``) shows each under its heading.
A new table is a ``Section`` in the registry (``execstate.analyze.SECTIONS``; docs/extending.md, "A new section").
"""

from __future__ import annotations

from typing import Any

from execstate.analyze._origin import origin_rows
from execstate.analyze._paired import branch_preserving_rows
from execstate.analyze._section import Section, SectionInputs
from execstate.analyze._stability import stability_rows
from execstate.analyze._sweep import sweep_rows
from execstate.analyze._taxonomy import CLASSES, taxonomy
from execstate.analyze._truncation import truncation_tables

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


def _taxonomy(d: SectionInputs) -> dict[str, Any]:
    tax = taxonomy(d.paper, d.own)
    answers = {(g.task_id, g.setting, g.sample): g.answer for g in d.own}
    return {
        "taxonomy": tax.table,
        "taxonomy_cells": tax.cells,
        "taxonomy_examples": _examples(tax.cells, answers),
        "figures": {"taxonomy": taxonomy_figure_data(tax.table)} if tax.table else {},
    }


def _truncation(d: SectionInputs) -> dict[str, Any]:
    return {
        "truncation": None if d.responses is None else truncation_tables(d.paper, d.own, d.responses, d.config.level)
    }


def _sweep(d: SectionInputs) -> dict[str, Any]:
    sweep = sweep_rows(d.tasks, d.grades, d.config.level)
    figure = sweep.pop("figure")
    return {"sweep": sweep, "figures": {} if figure is None else {"accuracy_by_position": figure}}


BEYOND_ROWS: tuple[Section, ...] = (
    Section("taxonomy", "Wrong-answer taxonomy", _taxonomy, beyond=True),
    Section(
        "stability",
        "Stability over repeated samples",
        lambda d: {"stability": stability_rows(d.paper, d.own, d.config)},
        beyond=True,
    ),
    Section("truncation", "Truncation and tokens", _truncation, beyond=True),
    Section("sweep", "Checkpoint sweeps", _sweep, beyond=True),
    Section(
        "branch_preserving",
        "Branch-preserving cohort",
        lambda d: {"branch_preserving": branch_preserving_rows(d.frame, d.config)},
        beyond=True,
    ),
    Section(
        "input_origin",
        "Long-input origin",
        lambda d: {"input_origin": origin_rows(d.frame, d.config)},
        beyond=True,
    ),
)
"""execstate's analyses beyond the paper, in report order: rows of the section registry (``SECTIONS``) whose keys
go under ``analysis.json``'s ``beyond``; the report shows each under its heading."""
