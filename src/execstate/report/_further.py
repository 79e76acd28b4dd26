"""The view of the further arms' section: the loop trace's step curve, coherence of a case's arms, line counts.

Draws and formats only; every number comes from ``execstate.analyze`` (``analysis.json`` under ``further``).
It fills one part of the page per table with rows, and none without a loop-trace or line-count task.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from execstate.analyze import AnalysisConfig
from execstate.arms import arm_label, arm_names
from execstate.report._figures import FigureOut, save_figure, styled_figure
from execstate.report._html import esc, table_section
from execstate.report._view import Page, SectionView
from execstate.tables import Table, make_table

_APART = (
    "Further arms (loop-trace, line-count): asked only of cases that list them; not part of the paper's "
    "protocol, so no paper table or count above includes them."
)

_TABLES = {
    "step_summary": (
        "Loop traces: longest correct prefix per setting",
        "Cells: every planned loop-trace cell (a no-response counts as all steps wrong); mean_steps: mean m; "
        "all_right: share with every step right; steps_inferred: completed grades without step marks (scored "
        "from their status).",
    ),
    "step_curve": (
        "Loop traces: accuracy at each step",
        "accuracy: share of cells of tasks with at least that many steps whose step is right; prefix_accuracy: "
        "share whose steps 1..i are all right.",
    ),
    "coherence": (
        "Coherence of a case's arms, per setting and pair of arms",
        "A pair: the two arms of one case graded in the same setting and sample (both completed; "
        "incomplete_pairs have a no-response). agreement: both right or both wrong. final_right_state_wrong: "
        "P(second arm wrong | final arm right), for a final arm with a state arm or the loop trace.",
    ),
    "line_count": (
        "Line counts: accuracy by the marked branch's imbalance",
        "imbalance = |2 taken - evaluated| / evaluated on the short input (0: taken half the time, 1: always or "
        "never); accuracy: correct / planned cells (no-response wrong), accuracy_completed: correct / completed; "
        "bin 'all': every line-count cell of the setting.",
    ),
}
"""Each table of ``further`` by its key: its title and note (the note ends with the intervals' kind)."""


def _table(further: dict[str, Any], name: str, level: float, replicates: int) -> Table:
    title, note = _TABLES[name]
    ci = f"{level:.0%} source-cluster bootstrap percentile intervals ({replicates} replicates)"
    return make_table(name, title, further[name], note=f"{note} {ci}.")


def _single_axes() -> tuple[Figure, Any]:
    fig = Figure(figsize=(5.0, 3.0))
    ax = fig.subplots()
    fig.subplots_adjust(left=0.12, right=0.98, bottom=0.2, top=0.86)
    return fig, ax


def _rates(ax: Any, xlabel: str, ylabel: str) -> None:
    """A y axis of rates (0 to 1), the axis labels, and the settings' legend above the plot."""
    ax.set_ylim(-0.03, 1.05)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=6, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=3, frameon=False)


@styled_figure
def step_curve_figure(data: dict[str, Any], out_dir: Path) -> FigureOut:
    """Accuracy at each step with its interval band per setting; dashed: all steps up to it right."""
    fig, ax = _single_axes()
    points = data["points"]
    for i, setting in enumerate(dict.fromkeys(p["setting"] for p in points)):
        mine = [p for p in points if p["setting"] == setting]
        x = [p["step"] for p in mine]
        color = f"C{i % 10}"
        ax.fill_between(x, [p["low"] for p in mine], [p["high"] for p in mine], color=color, alpha=0.2, lw=0)
        ax.plot(x, [p["accuracy"] for p in mine], marker="o", ms=3, lw=1, color=color, label=setting)
        ax.plot(x, [p["prefix_accuracy"] for p in mine], lw=0.8, ls="--", color=color)
    ax.set_xticks(sorted({p["step"] for p in points}))
    _rates(ax, "step i of the loop trace", "accuracy at step i")
    svg, paths = save_figure(fig, out_dir, "step_curve")
    caption = (
        f"Share of loop-trace cells whose step i is right (solid, with a {data['level']:.0%} source-cluster "
        "bootstrap band) and whose steps 1..i are all right (dashed), per setting; cells of tasks with at "
        "least i steps."
    )
    return FigureOut("step_curve", "Loop traces: accuracy by step", caption, svg, paths)


def _heat(ax, values: np.ndarray, rows: list[str], settings: list[str], title: str) -> None:
    ax.imshow(np.ma.masked_invalid(values), vmin=0, vmax=1, cmap="viridis", aspect="auto")
    for (r, c), v in np.ndenumerate(values):
        if np.isfinite(v):
            ax.text(c, r, f"{v:.2f}", ha="center", va="center", fontsize=5.5, color="white" if v < 0.6 else "black")
    ax.set_xticks(range(len(settings)), settings, rotation=30, ha="right")
    ax.set_yticks(range(len(rows)), rows)
    ax.set_title(title, loc="left")


def _matrix(cells: list[dict[str, Any]], pairs: list[tuple[str, str]], settings: list[str], key: str) -> np.ndarray:
    out = np.full((len(pairs), len(settings)), np.nan)
    for cell in cells:
        value = cell[key]
        if value is not None:
            out[pairs.index((cell["first"], cell["second"])), settings.index(cell["setting"])] = value
    return out


@styled_figure
def coherence_figure(data: dict[str, Any], out_dir: Path) -> FigureOut:
    """Heatmaps over pair of arms x setting: agreement, and P(state wrong | final right) where it applies."""
    cells = data["cells"]
    settings = sorted({c["setting"] for c in cells})
    pairs = list(dict.fromkeys((c["first"], c["second"]) for c in cells))
    state = list(dict.fromkeys((c["first"], c["second"]) for c in cells if c["final_right_state_wrong"] is not None))
    label = lambda p: f"{arm_label(p[0])} x {arm_label(p[1])}"
    height = 1.2 + 0.22 * len(pairs)
    width = 2.4 + 0.5 * len(settings) * (2 if state else 1)
    fig = Figure(figsize=(width, height))
    axes = fig.subplots(1, 2 if state else 1, squeeze=False)[0]
    fig.subplots_adjust(left=1.1 / width, right=0.98, bottom=0.7 / height, top=1 - 0.3 / height, wspace=0.9)
    _heat(axes[0], _matrix(cells, pairs, settings, "agreement"), [label(p) for p in pairs], settings, "agreement")
    if state:
        values = _matrix(cells, state, settings, "final_right_state_wrong")
        _heat(axes[1], values, [label(p) for p in state], settings, "final right, state wrong")
    svg, paths = save_figure(fig, out_dir, "coherence")
    caption = (
        "Per pair of a case's arms and setting: the share of cells where both arms are right or both wrong, "
        "and, for a final arm with a state arm or the loop trace, P(state answer wrong | final output right). "
        "Intervals: the coherence table."
    )
    return FigureOut("coherence", "Coherence of a case's arms", caption, svg, paths)


@styled_figure
def line_count_figure(data: dict[str, Any], out_dir: Path) -> FigureOut:
    """Line-count accuracy per imbalance bin (and over all cells), one bar per setting, with intervals."""
    bins, rows = data["bins"], data["rows"]
    settings = sorted({r["setting"] for r in rows})
    fig, ax = _single_axes()
    width = 0.8 / max(1, len(settings))
    for i, setting in enumerate(settings):
        mine = [r for r in rows if r["setting"] == setting]
        pos = [bins.index(r["bin"]) + (i - (len(settings) - 1) / 2) * width for r in mine]
        err = [[max(0.0, r["accuracy"] - r["low"]) for r in mine], [max(0.0, r["high"] - r["accuracy"]) for r in mine]]
        ax.bar(
            pos,
            [r["accuracy"] for r in mine],
            width,
            yerr=err,
            color=f"C{i % 10}",
            label=setting,
            error_kw={"elinewidth": 0.7, "capsize": 1.5},
        )
    ax.set_xticks(range(len(bins)), [f"{b}\n(n={sum(r['cells'] for r in rows if r['bin'] == b)})" for b in bins])
    _rates(ax, "imbalance of the marked line's branch", "line-count accuracy")
    ax.set_ylim(0, 1.05)  # bars start at 0
    svg, paths = save_figure(fig, out_dir, "line_count_by_imbalance")
    caption = (
        f"Line-count accuracy (correct of planned cells) by the imbalance of the marked line's branch on the "
        f"short input, per setting, with {data['level']:.0%} source-cluster bootstrap intervals."
    )
    return FigureOut("line_count_by_imbalance", "Line counts by branch imbalance", caption, svg, paths)


def _parts() -> list[tuple[str, str, tuple[str, ...], str]]:
    """(anchor, heading, its tables, its figure) of each part of the page, in order; the line counts' part is
    anchored at the name of the count arm(s)."""
    return [
        ("step-curve", "Loop traces: accuracy by step", ("step_summary", "step_curve"), "step_curve"),
        ("coherence", "Coherence of a case's arms", ("coherence",), "coherence"),
        (
            "+".join(arm_names(family="count")),
            "Line counts by branch imbalance",
            ("line_count",),
            "line_count_by_imbalance",
        ),
    ]


def _tables(further: dict[str, Any], config: AnalysisConfig) -> list[Table]:
    """The tables of every part with rows."""
    tables = []
    for _, _, names, _ in _parts():
        shown = [_table(further, name, config.level, config.replicates) for name in names]
        tables += shown if any(t.rows for t in shown) else []
    return tables


def _html(
    further: dict[str, Any], tables: list[Table], figures: Mapping[str, str], config: AnalysisConfig
) -> list[Page]:
    """One part of the page per part whose tables are shown: its tables and its figure, after ``_APART``."""
    by_name = {t.name: t for t in tables}
    pages = []
    for anchor, heading, names, figure in _parts():
        if names[0] in by_name:
            html = "".join(table_section(by_name[n]) for n in names) + figures.get(figure, "")
            pages.append((anchor, heading, f'<p class="note">{esc(_APART)}</p>{html}'))
    return pages


def _inputs(further: dict[str, Any]) -> str:
    return (
        "further-arm tasks: "
        + ", ".join(f"{arm} {n}" for arm, n in further["tasks"].items())
        + " (in their own sections only; the counts above are of the paper's arms)"
    )


VIEW = SectionView(
    tables=_tables,
    html=_html,
    figures={
        "step_curve": step_curve_figure,
        "coherence": coherence_figure,
        "line_count_by_imbalance": line_count_figure,
    },
    inputs=_inputs,
    order=30,
)
"""How the report shows the ``further`` section."""
