"""Analyses beyond the paper (SPEC 11) in one record: taxonomy, stability, truncation, sweeps, cohorts.

Everything here answers what the paper's records could not; the report shows it
in its own section, marked as beyond the paper. The taxonomy, stability,
truncation and cohort rows use the four-arm tasks only; the sweep rows use the
swept cases' inside tasks.

``BEYOND_TABLES`` lists them, in report order: ``beyond_paper`` computes each row's keys of
``analysis.json``'s ``beyond``, and the report (``execstate.report``) shows each row under its heading.
A new table is its module here and one row of that list (docs/extending.md, "A new analysis table").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
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


@dataclass(frozen=True)
class BeyondInputs:
    """What the analyses beyond the paper read: the published tasks and their joinable grades, the four-arm ones
    among them (``paper``, ``own``) and their cells (``frame``, from ``load_cells``), the config, and the run's
    responses (None when none were given)."""

    tasks: Sequence[Task]
    grades: Sequence[Grade]
    paper: list[Task]
    own: list[Grade]
    frame: pd.DataFrame
    config: AnalysisConfig
    responses: Sequence[Response] | None


@dataclass(frozen=True)
class BeyondTable:
    """One analysis beyond the paper: a row of ``BEYOND_TABLES``."""

    name: str
    """Its (first) key under ``beyond`` in ``analysis.json``, the name of its table (``tables/beyond/<name>.*``)."""
    heading: str
    """The sub-heading it has in the report's "Beyond the paper" section."""
    compute: Callable[[BeyondInputs], dict[str, Any]]
    """Its keys under ``beyond``, in order, ``name`` first; the data of its figures, if it draws any, under
    ``"figures"`` (figure name -> data; they go to ``beyond["figures"]``)."""
    title: str = ""
    """The title of its table when it is a plain one: the report shows ``beyond[name]``'s rows as they are, under
    this title and ``note``. Empty: the report shows it with its own function for ``name``."""
    note: str = ""


def _taxonomy(d: BeyondInputs) -> dict[str, Any]:
    tax = taxonomy(d.paper, d.own)
    answers = {(g.task_id, g.setting, g.sample): g.answer for g in d.own}
    return {
        "taxonomy": tax.table,
        "taxonomy_cells": tax.cells,
        "taxonomy_examples": _examples(tax.cells, answers),
        "figures": {"taxonomy": taxonomy_figure_data(tax.table)} if tax.table else {},
    }


def _truncation(d: BeyondInputs) -> dict[str, Any]:
    return {
        "truncation": None if d.responses is None else truncation_tables(d.paper, d.own, d.responses, d.config.level)
    }


def _sweep(d: BeyondInputs) -> dict[str, Any]:
    sweep = sweep_rows(d.tasks, d.grades, d.config.level)
    figure = sweep.pop("figure")
    return {"sweep": sweep, "figures": {} if figure is None else {"accuracy_by_position": figure}}


BEYOND_TABLES: tuple[BeyondTable, ...] = (
    BeyondTable("taxonomy", "Wrong-answer taxonomy", _taxonomy),
    BeyondTable(
        "stability",
        "Stability over repeated samples",
        lambda d: {"stability": stability_rows(d.paper, d.own, d.config)},
    ),
    BeyondTable("truncation", "Truncation and tokens", _truncation),
    BeyondTable("sweep", "Checkpoint sweeps", _sweep),
    BeyondTable(
        "branch_preserving",
        "Branch-preserving cohort",
        lambda d: {"branch_preserving": branch_preserving_rows(d.frame, d.config)},
        title="Paired short- vs long-input decrement, branch-preserving pairs",
        note="As the paired comparison, for cases whose short and long inputs take the same "
        "branch outcomes (and, for contrast, those that do not); cases without the flag are in neither.",
    ),
    BeyondTable(
        "input_origin",
        "Long-input origin",
        lambda d: {"input_origin": origin_rows(d.frame, d.config)},
        title="Paired short- vs long-input decrement by the long input's origin",
        note="As the paired comparison, for cases whose long input came from the problem's tests, its "
        "generator, or a gen.py synthesized from its samples (execstate construct); hand-written specs "
        "are in no row.",
    ),
)
"""Every analysis beyond the paper, in report order. ``beyond_paper`` computes them; the report shows each under
its heading: a row with a ``title`` as one plain table, the others with the report's function of their name."""


def beyond_paper(
    tasks: Sequence[Task],
    grades: Sequence[Grade],
    frame: pd.DataFrame,
    config: AnalysisConfig,
    responses: Sequence[Response] | None = None,
) -> dict[str, Any]:
    """Every beyond-the-paper table and figure's data, the rows of ``BEYOND_TABLES`` in order, then ``figures``.
    ``frame``: the four-arm cells (``load_cells``); ``responses`` None leaves the truncation tables out (``None``)."""
    paper = paper_tasks(tasks)
    ids = {t.task_id for t in paper}
    own = [g for g in grades if g.task_id in ids]
    inputs = BeyondInputs(tasks, grades, paper, own, frame, config, responses)
    out: dict[str, Any] = {}
    figures: dict[str, Any] = {}
    for table in BEYOND_TABLES:
        keys = table.compute(inputs)
        assert next(iter(keys)) == table.name, f"{table.name}: its first key is {next(iter(keys))!r}"
        figures.update(keys.pop("figures", {}))
        out.update(keys)
    return {**out, "figures": figures}
