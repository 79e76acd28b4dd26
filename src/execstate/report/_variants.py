"""The view of the "Source variants" section: the table and figure of ``analysis.json``'s ``variants``.

Draws and formats only; every number comes from ``execstate.analyze`` (the ``variants`` section). The
section exists only when the tasks include source variants.
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

_COLORS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3")
_CAPTION = (
    "Accuracy on source variants minus accuracy on their original programs, per setting, arm and variant (paired "
    "cells only; 'all' pools the arms), with the {:.0%} source-cluster bootstrap interval. A gap below 0 is what a "
    "model leaning on the published names or layout would produce."
)
_IN_NOTE = ("replicates", "level")


def variant_table(variants: dict[str, Any], level: float, replicates: int) -> Table:
    """The original-vs-variant rows as a table: every key of the analysis rows but those the note states."""
    rows = variants["rows"]
    return make_table(
        "original_vs_variant",
        "Original vs source variant, per setting, arm and variant",
        rows,
        [k for k in rows[0] if k not in _IN_NOTE] if rows else [],
        note=f"Pairs: a variant task and its original task (same case and arm, same meaning, new surface) both "
        f"graded in the cell; arm 'all' pools the arms. Accuracy in percent of complete pairs; difference variant "
        f"minus original in percentage points with a {level:.0%} source-cluster bootstrap interval ({replicates} "
        f"replicates, the originals' sources), as the paired comparison. {variants['tasks']} variant tasks "
        f"({', '.join(variants['variants'])}), {variants['graded_cells']} graded variant cells; variants enter "
        "no other table.",
    )


def _panel(ax: Any, bars: list[dict[str, Any]], arms: list[str], names: list[str]) -> None:
    """One setting's gaps: a row per arm, the variants side by side within it, each with its interval."""
    step = 0.7 / max(1, len(names))
    for k, name in enumerate(names):
        mine = [b for b in bars if b["variant"] == name]
        ys = [arms.index(b["arm"]) - 0.35 + step * (k + 0.5) for b in mine]
        diff = [b["difference_pp"] for b in mine]
        low = [max(0.0, d - b["ci_low"]) for d, b in zip(diff, mine)]
        high = [max(0.0, b["ci_high"] - d) for d, b in zip(diff, mine)]
        color = _COLORS[k % len(_COLORS)]
        ax.errorbar(diff, ys, xerr=[low, high], fmt="o", ms=3, color=color, elinewidth=0.8, capsize=1.5, label=name)
    ax.axvline(0, color="#999999", linewidth=0.8, linestyle="--")
    ax.set_xlabel("variant minus original (pp)")


@styled_figure
def variant_figure(data: dict[str, Any], out_dir: Path) -> FigureOut:
    """One panel per setting: the gap (variant minus original) per arm, one marker per variant, with intervals."""
    bars = data["bars"]
    settings = sorted({b["setting"] for b in bars})
    arms = sorted(dict.fromkeys(b["arm"] for b in bars), key=lambda a: a == "all")  # the pooled row last
    names = sorted({b["variant"] for b in bars})
    height = 0.9 + 0.3 * len(arms) * max(1, len(names)) / 2
    fig = Figure(figsize=(1.6 + 2.6 * len(settings), height))
    axes = fig.subplots(1, len(settings), sharey=True, squeeze=False)[0]
    fig.subplots_adjust(left=1.4 / fig.get_figwidth(), right=0.98, bottom=0.5 / height, top=1 - 0.45 / height)
    for ax, setting in zip(axes, settings):
        _panel(ax, [b for b in bars if b["setting"] == setting], arms, names)
        ax.set_title(setting, fontsize=7)
    axes[0].set_yticks(range(len(arms)), arms)
    axes[0].invert_yaxis()
    axes[0].legend(fontsize=6, ncols=len(names), loc="lower left", bbox_to_anchor=(0.0, 1.06), frameon=False)
    svg, paths = save_figure(fig, out_dir, "variant_gap")
    return FigureOut("variant_gap", "Original vs source variant", _CAPTION.format(data["level"]), svg, paths)


def _html(variants: dict[str, Any], tables: list[Table], figures: Mapping[str, str], config: AnalysisConfig) -> str:
    """The table and figure, after what was compared."""
    intro = (
        f"Each variant ({', '.join(variants['variants'])}) asks the same questions of a program with the same "
        "meaning and a new surface (docs/variants.md); its answers are paired with the original's."
    )
    return f'<p class="note">{esc(intro)}</p>' + table_section(tables[0]) + "".join(figures.values())


def _inputs(variants: dict[str, Any]) -> str:
    return (
        f"source-variant tasks {variants['tasks']} ({', '.join(variants['variants'])}), graded variant "
        f"cells {variants['graded_cells']} (in no table but the Source variants section)"
    )


def _tables(variants: dict[str, Any], config: AnalysisConfig) -> list[Table]:
    return [variant_table(variants, config.level, config.replicates)]


VIEW = SectionView(_tables, _html, {"variant_gap": variant_figure}, _inputs, order=20)
"""How the report shows the ``variants`` section."""
