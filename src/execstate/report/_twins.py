"""The view of the "Python vs C++ twins" section: the tables and figure of ``analysis.json``'s ``twins``.

Draws and formats only; every number comes from ``execstate.analyze`` (the ``twins`` section, the paired language
gap). The section exists only when the tasks include cross-language twins (docs/twins.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from execstate.analyze import AnalysisConfig
from execstate.report._figures import FigureOut, save_figure, styled_figure
from execstate.report._html import esc, table_section
from execstate.report._view import SectionView
from execstate.tables import Table, make_table

_CAPTION = (
    "Accuracy on the C++ twin minus accuracy on its Python original, per setting and arm (paired cells of the same "
    "algorithm, arm and input; 'all' pools the arms), with the {:.0%} bootstrap interval clustered by algorithm. A gap "
    "below 0: the same computation is harder to follow in C++."
)
_IN_NOTE = ("replicates", "level")


def _note(twins: dict[str, Any], level: float, replicates: int, what: str) -> str:
    """The note under a gap table: what a pair is, how the interval is made, what was left out."""
    unproven = twins["unproven"]
    left = f"; not proven, so left out: {', '.join(unproven)}" if unproven else ""
    return (
        f"Pairs: a proven C++ twin task and its Python original (same algorithm, arm and input) both graded in the "
        f"cell{what}. Accuracy in percent of complete pairs; gap C++ minus Python in percentage points with a "
        f"{level:.0%} bootstrap interval clustered by algorithm ({replicates} replicates). {twins['twin_tasks']} twin "
        f"tasks ({twins['fresh_twin_tasks']} on fresh inputs), {twins['proven_algorithms']} proven algorithms, "
        f"{twins['graded_cells']} graded twin cells{left}; twins enter no other table."
    )


def twin_tables(twins: dict[str, Any], level: float, replicates: int) -> list[Table]:
    """The gap per setting and arm, then per setting and trace-length band (Python and C++ traces side by side)."""
    rows, bands = twins["rows"], twins["bands"]
    return [
        make_table(
            "language_gap",
            "Python vs C++ twins: the paired language gap, per setting and arm",
            rows,
            [k for k in rows[0] if k not in _IN_NOTE] if rows else [],
            note=_note(twins, level, replicates, "; arm 'all' pools the arms"),
        ),
        make_table(
            "language_gap_by_band",
            "Python vs C++ twins: the paired language gap, per setting and trace-length band",
            bands,
            [k for k in bands[0] if k not in _IN_NOTE] if bands else [],
            note=_note(twins, level, replicates, ", arms pooled")
            + " Bands: terciles of the Python tasks' trace lengths (CPython instruction events); the C++ trace "
            "lengths (gcov line executions) of the same pairs beside them, a different unit.",
        ),
    ]


@styled_figure
def gap_figure(data: dict[str, Any], out_dir: Path) -> FigureOut:
    """One panel per setting: the gap (C++ minus Python) per arm, with its interval."""
    bars = data["bars"]
    settings = sorted({b["setting"] for b in bars})
    arms = sorted(dict.fromkeys(b["arm"] for b in bars), key=lambda a: a == "all")  # the pooled row last
    height = 0.9 + 0.3 * len(arms)
    fig = Figure(figsize=(1.6 + 2.6 * len(settings), height))
    axes = fig.subplots(1, len(settings), sharey=True, squeeze=False)[0]
    fig.subplots_adjust(left=1.4 / fig.get_figwidth(), right=0.98, bottom=0.5 / height, top=1 - 0.3 / height)
    for ax, setting in zip(axes, settings):
        mine = [b for b in bars if b["setting"] == setting]
        gap = [b["gap_pp"] for b in mine]
        low = [max(0.0, g - b["ci_low"]) for g, b in zip(gap, mine)]
        high = [max(0.0, b["ci_high"] - g) for g, b in zip(gap, mine)]
        ys = [arms.index(b["arm"]) for b in mine]
        ax.errorbar(gap, ys, xerr=[low, high], fmt="o", ms=3, color="#4c72b0", elinewidth=0.8, capsize=1.5)
        ax.axvline(0, color="#999999", linewidth=0.8, linestyle="--")
        ax.set_xlabel("C++ minus Python (pp)")
        ax.set_title(setting, fontsize=7)
    axes[0].set_yticks(range(len(arms)), arms)
    axes[0].invert_yaxis()
    svg, paths = save_figure(fig, out_dir, "language_gap")
    return FigureOut("language_gap", "Python vs C++ twins", _CAPTION.format(data["level"]), svg, paths)


def _html(twins: dict[str, Any], tables: list[Table], figures: Mapping[str, str], config: AnalysisConfig) -> str:
    """What a twin is, then the two tables and the figure."""
    intro = (
        "Each C++ twin computes what its Python original computes, proven by the builder: the same outputs on the "
        "published inputs and on fresh ones, the same states at the same checkpoint under the name mapping "
        "(docs/twins.md). Its answers are paired with the original's on the same algorithm, arm and input."
    )
    return f'<p class="note">{esc(intro)}</p>' + "".join(table_section(t) for t in tables) + "".join(figures.values())


def _inputs(twins: dict[str, Any]) -> str:
    return (
        f"cross-language twin tasks {twins['twin_tasks']} of {twins['proven_algorithms']} proven algorithms, graded "
        f"twin cells {twins['graded_cells']} (in no table but the Python vs C++ twins section)"
    )


def _tables(twins: dict[str, Any], config: AnalysisConfig) -> list[Table]:
    return twin_tables(twins, config.level, config.replicates)


VIEW = SectionView(_tables, _html, {"language_gap": gap_figure}, _inputs, order=25)
"""How the report shows the ``twins`` section."""

__all__ = ["VIEW", "gap_figure", "twin_tables"]
