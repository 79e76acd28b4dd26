"""The view of the "Execution horizon" section: the tables and figure of ``analysis.json``'s ``horizon``.

Draws and formats only; every number (the fit, its interval and band, the rung points, a synthetic setting's set
horizon) comes from ``execstate.analyze`` (the ``horizon`` section, docs/horizon.md). The section exists only
when the tasks include the rungs of input ladders (``build --ladder``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from execstate.analyze import AnalysisConfig
from execstate.report._figures import FigureOut, _grid, _label, _log2_axis, _rate_axis, save_figure, styled_figure
from execstate.report._html import esc, table_section
from execstate.report._view import SectionView
from execstate.tables import Table, make_table

_CAPTION = (
    "Accuracy against the counted trace length of the input ladders' rungs, one panel per setting (and arm family). "
    "Squares: each rung's accuracy, labelled with its graded cells; curve: the logistic fit in log2 trace, with its "
    "pointwise {level:.0%} program-cluster bootstrap band; dotted: the 50% point H50 (shaded: its interval); dashed "
    "red: the horizon a synthetic setting was given. A horizon outside the rungs is censored (> top rung, < lowest "
    "rung), never extrapolated."
)
_COLUMNS = (
    "setting", "family", "programs", "cells", "no_response", "h50", "h50_log2", "h50_ci_low_log2", "h50_ci_high_log2",
    "h80", "h80_log2", "set_h50", "covered", "slope",
)  # fmt: skip


def _summary(row: dict[str, Any]) -> dict[str, Any]:
    """One setting x family row of the horizon table: the fit's texts and numbers, the set horizon if any."""
    fit = row["fit"]
    out: dict[str, Any] = {"setting": row["setting"], "family": row["family"], "programs": fit["programs"]}
    out |= {"cells": row["cells"], "no_response": row["no_response"], "h50": fit["h50_text"]}
    out |= {k: fit[k] for k in ("h50_log2", "h50_ci_low_log2", "h50_ci_high_log2")}
    out |= {"h80": fit["h80_text"], "h80_log2": fit["h80_log2"]}
    set_h = row.get("set_h50_log2")
    out["set_h50"] = None if set_h is None else f"2^{set_h:.1f}"
    return out | {"covered": row.get("covered"), "slope": fit["slope"]}


def horizon_tables(data: dict[str, Any], level: float, replicates: int) -> list[Table]:
    """The horizon per setting x arm family, and the rung points behind each fit."""
    rows = [_summary(r) for r in data["rows"]]
    rungs = [{"setting": r["setting"], "family": r["family"], **point} for r in data["rows"] for point in r["rungs"]]
    summary = make_table(
        "execution_horizon",
        "Execution horizon per setting (and arm family)",
        rows,
        list(_COLUMNS),
        note=f"H50 (H80): the counted trace length at which the fitted logistic of correctness on log2 trace "
        f"crosses 50% (80%); in brackets its {level:.0%} program-cluster bootstrap interval ({replicates} "
        "replicates). '> top rung' / '< lowest rung': censored, outside the traces measured (not extrapolated); "
        "an open interval side likewise. set_h50: the horizon a synthetic setting was given (synthetic_horizon), "
        f"covered: whether the interval holds it. {data['tasks']} ladder tasks of {data['programs']} programs; "
        "ladder tasks enter no other table (docs/horizon.md).",
    )
    points = make_table(
        "horizon_rungs",
        "Rung points: accuracy per rung",
        rungs,
        ["setting", "family", "rung", "trace", "log2_trace", "cells", "right", "accuracy_pct"],
        note="Per rung: the median counted trace of its tasks, graded cells (no-responses left out), right answers.",
    )
    return [summary, points]


def _panel(ax: Any, row: dict[str, Any]) -> None:
    """One fit: rung points with counts, the curve and band, H50 with its interval, the set horizon."""
    curve = row["curve"]
    if curve:
        xs = [2 ** c[0] for c in curve]
        if curve[0][2] is not None:
            ax.fill_between(xs, [c[2] for c in curve], [c[3] for c in curve], color="#999999", alpha=0.35, lw=0)
        ax.plot(xs, [c[1] for c in curve], color="black", linewidth=1)
    fit = row["fit"]
    if fit["h50_log2"] is not None:
        ax.axvline(2 ** fit["h50_log2"], color="black", linestyle=":", linewidth=0.8)
        lo, hi = fit["h50_ci_low_log2"], fit["h50_ci_high_log2"]
        if lo is not None and hi is not None:
            ax.axvspan(2**lo, 2**hi, color="#4c72b0", alpha=0.12, lw=0)
    if row.get("set_h50_log2") is not None:
        ax.axvline(2 ** row["set_h50_log2"], color="#c44e52", linestyle="--", linewidth=0.8)
    points = row["rungs"]
    ax.plot([2 ** p["log2_trace"] for p in points], [p["accuracy_pct"] / 100 for p in points], "s", ms=3.5,
            color="#4c72b0")  # fmt: skip
    for p in points:
        ax.annotate(str(p["cells"]), (2 ** p["log2_trace"], p["accuracy_pct"] / 100), fontsize=4.5,
                    xytext=(0, 3.5), textcoords="offset points", ha="center", color="#555555")  # fmt: skip


@styled_figure
def horizon_figure(data: dict[str, Any], out_dir: Path) -> FigureOut:
    """One panel per setting x arm family: accuracy against trace length, the fit, H50 and a set horizon."""
    rows = data["rows"]
    fig, axes = _grid(len(rows))
    for ax, row in zip(axes, rows):
        _log2_axis(ax)
        _rate_axis(ax)
        _label(ax, axes, "counted trace length", "accuracy")
        _panel(ax, row)
        head = f"H50 {row['fit']['h50_text']}"
        if row.get("set_h50_log2") is not None:
            head += f"\nset 2^{row['set_h50_log2']:.1f}"
        family = "" if row["family"] == "final" else f" ({row['family']})"
        ax.set_title(f"{row['setting']}{family}\n{head}", loc="left")
    svg, paths = save_figure(fig, out_dir, "horizon")
    return FigureOut("horizon", "Execution horizon", _CAPTION.format(level=data["level"]), svg, paths)


def _html(data: dict[str, Any], tables: list[Table], figures: Mapping[str, str], config: AnalysisConfig) -> str:
    """What the horizon is, the horizon table, the figure, then the rung points."""
    intro = (
        "Each program's inputs are put on a ladder of counted trace lengths (build --ladder, docs/ladder.md); the "
        "execution horizon H50 of a setting is the trace length at which its fitted accuracy falls to 50% "
        "(docs/horizon.md). For a synthetic setting the horizon it was given is shown beside the recovered one."
    )
    return (
        f'<p class="note">{esc(intro)}</p>'
        + table_section(tables[0])
        + "".join(figures.values())
        + table_section(tables[1])
    )


def _inputs(data: dict[str, Any]) -> str:
    return (
        f"ladder tasks {data['tasks']} of {data['programs']} programs (in no table but the Execution horizon section)"
    )


def _tables(data: dict[str, Any], config: AnalysisConfig) -> list[Table]:
    return horizon_tables(data, config.level, config.replicates)


VIEW = SectionView(_tables, _html, {"horizon": horizon_figure}, _inputs, order=40)
"""How the report shows the ``horizon`` section."""
