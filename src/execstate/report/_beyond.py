"""The views of execstate's rows beyond the paper (SPEC 11): tables and figures of ``analysis.json``'s ``beyond``.

Draws and formats only; every number comes from ``execstate.analyze``. Each row of
``execstate.analyze.BEYOND_ROWS`` has its ``SectionView`` here, in ``VIEWS`` (a plain table or its own
functions); the report builder places them, in registry order, in the "Beyond the paper" section, after
``MARK``. Examples of each wrong-answer class link to their task in the report's task browser.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from execstate.analyze import AnalysisConfig
from execstate.report._figures import FigureOut, save_figure, styled_figure
from execstate.report._html import esc, table_section
from execstate.report._view import SectionView, plain_view
from execstate.tables import Table, make_table

_CLASS_COLORS = ("#777777", "#8172b3", "#937860", "#55a868", "#dd8452", "#4c72b0", "#64b5cd", "#ccb974", "#c44e52")
MARK = (
    "Beyond the paper (SPEC section 11): analyses the paper's records could not support. They are not part "
    "of the paper's protocol or tables; the four-arm tables above never include checkpoint-sweep tasks."
)


@styled_figure
def taxonomy_figure(data: dict[str, Any], out_dir: Path) -> FigureOut:
    """One stacked horizontal bar per setting x arm: shares of the wrong-answer classes."""
    bars, classes = data["bars"], data["classes"]
    fig = Figure(figsize=(6.5, 0.9 + 0.28 * len(bars)))
    ax = fig.subplots()
    fig.subplots_adjust(left=0.42, right=0.98, bottom=0.5 / (0.9 + 0.28 * len(bars)) + 0.05, top=0.8)
    labels = [f"{b['setting']} / {b['arm']} (n={b['wrong']})" for b in bars]
    left = [0.0] * len(bars)
    for cls, color in zip(classes, _CLASS_COLORS):
        widths = [b["shares"].get(cls, 0.0) for b in bars]
        ax.barh(range(len(bars)), widths, left=left, color=color, label=cls)
        left = [a + w for a, w in zip(left, widths)]
    ax.set_yticks(range(len(bars)), labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of wrong completed answers")
    ax.legend(fontsize=5.5, ncols=5, loc="lower center", bbox_to_anchor=(0.3, 1.0), frameon=False)
    svg, paths = save_figure(fig, out_dir, "taxonomy")
    caption = "Wrong completed answers by class (rules in docs/analyze.md), per setting and arm."
    return FigureOut("taxonomy", "Wrong-answer taxonomy", caption, svg, paths)


@styled_figure
def position_figure(data: dict[str, Any], out_dir: Path) -> FigureOut:
    """Accuracy against k/K: binned rates with Wilson intervals per setting, each case's points faint."""
    fig = Figure(figsize=(5.0, 3.0))
    ax = fig.subplots()
    fig.subplots_adjust(left=0.12, right=0.98, bottom=0.15, top=0.88)
    settings = sorted({b["setting"] for b in data["bins"]})
    for i, setting in enumerate(settings):
        color = f"C{i % 10}"
        pts = [p for p in data["points"] if p["setting"] == setting and p["completed"]]
        ax.scatter([p["position"] for p in pts], [p["correct"] / p["completed"] for p in pts], s=6, alpha=0.3, c=color)
        bins = [b for b in data["bins"] if b["setting"] == setting]
        x, y = [b["position"] for b in bins], [b["rate"] for b in bins]
        err = [[max(0.0, b["rate"] - b["low"]) for b in bins], [max(0.0, b["high"] - b["rate"]) for b in bins]]
        ax.errorbar(x, y, yerr=err, marker="s", ms=3, lw=1, capsize=1.5, color=color, label=setting)
    ax.set_xlim(0, 1.02)
    ax.set_ylim(-0.03, 1.05)
    ax.set_xlabel("checkpoint position k/K")
    ax.set_ylabel("inside-state accuracy (C/R)")
    ax.legend(fontsize=6, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=3, frameon=False)
    svg, paths = save_figure(fig, out_dir, "accuracy_by_position")
    caption = (
        f"Checkpoint sweeps: inside-state accuracy by k/K bin with Wilson {data['level']:.0%} intervals "
        "(squares) and per task (dots); sweep tasks only enter this figure and its table."
    )
    return FigureOut("accuracy_by_position", "Accuracy by checkpoint position", caption, svg, paths)


def _ci(rows: list[dict[str, Any]], cols: list[str]) -> list[dict[str, Any]]:
    """Rows with each ``col`` and its ``_low``/``_high`` interval kept, in that order."""
    keep = ["setting", "arm", "cells", "samples"] + [c + s for c in cols for s in ("", "_low", "_high")]
    return [{k: r.get(k) for k in keep} for r in rows]


def _taxonomy_tables(b: dict[str, Any], config: AnalysisConfig) -> list[Table]:
    tax_cols = ["task_id", "setting", "sample", "class", "d", "fields_right", "fields_near", "fields_wrong", "answer"]
    table = make_table(
        "taxonomy",
        "Wrong-answer taxonomy by setting, arm and class",
        b.get("taxonomy", []),
        note="Completed wrong cells; share of the setting x arm's wrong cells, in percent.",
    )
    examples = make_table("taxonomy_examples", "Examples of each class", b.get("taxonomy_examples", []), tax_cols)
    return [table, examples]


def _taxonomy_html(b: dict[str, Any], tables: list[Table], fig: Mapping[str, str], config: AnalysisConfig) -> str:
    return table_section(tables[0]) + fig.get("taxonomy", "") + _example_links(b.get("taxonomy_examples", []))


def _stability_tables(b: dict[str, Any], config: AnalysisConfig) -> list[Table]:
    stab = b.get("stability") or {"rows": [], "incomplete_cells": 0}
    ks = sorted({int(c[5:]) for r in stab["rows"] for c in r if c.startswith("pass@") and c[5:].isdigit()})
    table = make_table(
        "stability",
        "Repeated samples: agreement, majority vote, pass@k, flips",
        _ci(stab["rows"], ["agreement", "majority_correct", "flip_rate", *(f"pass@{k}" for k in ks)]),
        note=f"Means over cells whose samples all completed ({stab['incomplete_cells']} cells with a "
        "no-response left out); source-cluster bootstrap percentile intervals. pass@k: unbiased "
        "estimator 1 - C(n-c,k)/C(n,k).",
    )
    return [table]


def _stability_html(b: dict[str, Any], tables: list[Table], fig: Mapping[str, str], config: AnalysisConfig) -> str:
    if tables[0].rows:
        return table_section(tables[0])
    return "<p><em>No cell was asked more than once (run with --samples N, N &gt; 1).</em></p>"


def _truncation_tables(b: dict[str, Any], config: AnalysisConfig) -> list[Table]:
    trunc = b.get("truncation") or {"truncation": [], "tokens": [], "unmatched": 0}
    return [
        make_table(
            "truncation",
            "Truncation (finish_reason = length) by setting and arm",
            trunc["truncation"],
            note=f"Completed responses; Wilson interval; {trunc['unmatched']} grades without a response "
            "record left out."
            if b.get("truncation")
            else "No response records were given to the analysis.",
        ),
        make_table("tokens", "Completion and reasoning tokens by setting, arm and correctness", trunc["tokens"]),
        make_table(
            "served",
            "Served model snapshots by setting",
            trunc.get("served", []),
            note="served_model: the snapshot the vendor says answered (null: the vendor or provider does not say); "
            "snapshot_changed: the setting was answered by more than one snapshot during its run.",
        ),
    ]


def _every_table(b: dict[str, Any], tables: list[Table], fig: Mapping[str, str], config: AnalysisConfig) -> str:
    return "".join(table_section(t) for t in tables)


def _sweep_tables(b: dict[str, Any], config: AnalysisConfig) -> list[Table]:
    return [make_table("sweep", "Checkpoint sweeps: inside-state accuracy by position k/K", b["sweep"]["bins"])]


def _sweep_html(b: dict[str, Any], tables: list[Table], fig: Mapping[str, str], config: AnalysisConfig) -> str:
    return table_section(tables[0]) + fig.get("accuracy_by_position", "")


def _example_links(examples: list[dict[str, Any]]) -> str:
    items = "".join(
        f'<li><a href="#task-{esc(e["task_id"])}">{esc(e["task_id"])}</a> ({esc(e["setting"])}, sample '
        f"{e['sample']}): <strong>{esc(e['class'])}</strong>"
        + (f", d = {e['d']}" if e.get("d") is not None else "")
        + f" &mdash; <code>{esc(e['answer'])}</code></li>"
        for e in examples
    )
    return f"<h3>Examples (linked to the task browser)</h3><ul>{items}</ul>" if items else ""


VIEWS: dict[str, SectionView] = {
    "taxonomy": SectionView(_taxonomy_tables, _taxonomy_html, {"taxonomy": taxonomy_figure}),
    "stability": SectionView(_stability_tables, _stability_html),
    "truncation": SectionView(_truncation_tables, _every_table),
    "sweep": SectionView(_sweep_tables, _sweep_html, {"accuracy_by_position": position_figure}),
    "branch_preserving": plain_view(
        "branch_preserving",
        "Paired short- vs long-input decrement, branch-preserving pairs",
        "As the paired comparison, for cases whose short and long inputs take the same "
        "branch outcomes (and, for contrast, those that do not); cases without the flag are in neither.",
    ),
    "input_origin": plain_view(
        "input_origin",
        "Paired short- vs long-input decrement by the long input's origin",
        "As the paired comparison, for cases whose long input came from the problem's tests, its "
        "generator, or a gen.py synthesized from its samples (execstate construct); hand-written specs "
        "are in no row.",
    ),
}
"""The view of each of execstate's rows beyond the paper (``execstate.analyze.BEYOND_ROWS``), by name."""
