"""The view of the "Published vs fresh inputs" section: the table and figure of ``analysis.json``'s ``fresh``.

Draws and formats only; every number comes from ``execstate.analyze`` (the ``fresh`` section). The section
exists only when the tasks include fresh ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from execstate.analyze import AnalysisConfig
from execstate.report._figures import FigureOut, save_figure, styled_figure
from execstate.report._html import table_section
from execstate.report._view import SectionView
from execstate.tables import Table, make_table

_PUBLISHED, _FRESH = "#4c72b0", "#dd8452"
_COLS = [
    "setting",
    "arm",
    "pairs",
    "cases",
    "incomplete_pairs",
    "unpaired_fresh",
    "sources",
    "published_correct",
    "fresh_correct",
    "published_accuracy_pct",
    "fresh_accuracy_pct",
    "difference_pp",
    "ci_low",
    "ci_high",
]


def fresh_table(fresh: dict[str, Any], level: float, replicates: int) -> Table:
    """The published-vs-fresh rows as a table."""
    return make_table(
        "published_vs_fresh",
        "Published vs fresh inputs, per setting and arm",
        fresh["rows"],
        _COLS,
        note=f"Pairs: a published case and its fresh twin (same program, new inputs) both graded in the cell; "
        f"accuracy in percent of complete pairs; difference published minus fresh in percentage points with a "
        f"{level:.0%} source-cluster bootstrap interval ({replicates} replicates), as the paired comparison. "
        f"{fresh['tasks']} fresh tasks, {fresh['graded_cells']} graded fresh cells; fresh tasks enter no "
        "other table.",
    )


@styled_figure
def fresh_figure(data: dict[str, Any], out_dir: Path) -> FigureOut:
    """Per setting x arm: published and fresh accuracy (left), the paired gap and its interval (right)."""
    bars = data["bars"]
    height = 0.9 + 0.26 * len(bars)
    labels = [f"{b['setting']} / {b['arm']} (n={b['pairs']})" for b in bars]
    margin = 0.25 + 0.05 * max((len(label) for label in labels), default=10)  # inches for the longest label
    width = margin + 4.6
    fig = Figure(figsize=(width, height))
    left, right = fig.subplots(1, 2, sharey=True, gridspec_kw={"width_ratios": [1, 1]})
    fig.subplots_adjust(left=margin / width, right=0.98, bottom=0.45 / height, top=1 - 0.45 / height, wspace=0.08)
    ys = list(range(len(bars)))
    pub, new = [b["published_accuracy_pct"] for b in bars], [b["fresh_accuracy_pct"] for b in bars]
    left.hlines(ys, [min(p, n) for p, n in zip(pub, new)], [max(p, n) for p, n in zip(pub, new)], color="#bbbbbb", lw=1)
    left.scatter(pub, ys, marker="o", s=30, c=_PUBLISHED, label="published")
    left.scatter(new, ys, marker="D", s=12, c=_FRESH, label="fresh")
    left.set_xlim(-3, 103)
    left.set_xlabel("accuracy (% of pairs)")
    left.set_yticks(ys, labels)
    left.invert_yaxis()
    left.legend(fontsize=6, ncols=2, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    diff = [b["difference_pp"] for b in bars]
    err = [
        [max(0.0, d - b["ci_low"]) for d, b in zip(diff, bars)],
        [max(0.0, b["ci_high"] - d) for d, b in zip(diff, bars)],
    ]
    right.errorbar(diff, ys, xerr=err, fmt="s", ms=3.5, color="black", elinewidth=0.8, capsize=1.5)
    right.axvline(0, color="#999999", linewidth=0.8, linestyle="--")
    right.set_xlabel("published minus fresh (pp)")
    svg, paths = save_figure(fig, out_dir, "published_vs_fresh")
    caption = (
        f"Accuracy of the same programs on their published inputs and on fresh ones, per setting and arm "
        f"(paired cells only), and the paired difference with its {data['level']:.0%} source-cluster bootstrap "
        "interval. A gap above 0 is what contamination with the published inputs would produce."
    )
    return FigureOut("published_vs_fresh", "Published vs fresh inputs", caption, svg, paths)


def _html(fresh: dict[str, Any], tables: list[Table], figures: Mapping[str, str], config: AnalysisConfig) -> str:
    return table_section(tables[0]) + "".join(figures.values())


def _inputs(fresh: dict[str, Any]) -> str:
    return (
        f"fresh tasks {fresh['tasks']}, graded fresh cells {fresh['graded_cells']} (in no table but the "
        "Published vs fresh section; the counts above are of the published tasks)"
    )


def _tables(fresh: dict[str, Any], config: AnalysisConfig) -> list[Table]:
    return [fresh_table(fresh, config.level, config.replicates)]


VIEW = SectionView(_tables, _html, {"published_vs_fresh": fresh_figure}, _inputs, order=10)
"""How the report shows the ``fresh`` section."""
