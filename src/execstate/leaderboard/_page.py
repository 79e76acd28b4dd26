"""The leaderboard's tables (``execstate.tables``), its figure and its self-contained HTML page.

The page uses the report's look (``report.page``), embeds its one figure as an
SVG ``data:`` URI and fetches nothing. One small inline script makes every
table sortable: a click on a header sorts the rows by that column (numbers by
value, undefined ``-`` last; again to reverse); without scripts the tables
keep their written order.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from execstate.leaderboard._board import COHORT, Leaderboard
from execstate.records import Grade
from execstate.report import (
    FigureOut,
    figure_html,
    page,
    pipeline_check_banner,
    save_figure,
    styled_figure,
    table_section,
)
from execstate.tables import Table, make_table

FIGURE = "accuracy_vs_cost"
_SORT_JS = """(function(){
function key(td){var t=td?td.textContent.trim():'';var n=parseFloat(t.replace(/^\\+/,''));
return /^[+-]?\\d/.test(t)&&!isNaN(n)?[0,n,'']:(t==='-'||t===''?[2,0,'']:[1,0,t.toLowerCase()]);}
function cmp(a,b){if(a[0]!==b[0])return a[0]-b[0];if(a[1]!==b[1])return a[1]-b[1];return a[2]<b[2]?-1:a[2]>b[2]?1:0;}
document.querySelectorAll('table').forEach(function(table){var body=table.tBodies[0];if(!body)return;
table.querySelectorAll('thead th').forEach(function(th,i){th.style.cursor='pointer';th.title='sort';
th.addEventListener('click',function(){var dir=th.dataset.sort==='asc'?-1:1;
table.querySelectorAll('thead th').forEach(function(h){delete h.dataset.sort;});
th.dataset.sort=dir===1?'asc':'desc';var rows=Array.prototype.slice.call(body.rows);
rows.sort(function(x,y){var a=key(x.cells[i]),b=key(y.cells[i]);
return a[0]===2||b[0]===2?a[0]-b[0]:dir*cmp(a,b);});
rows.forEach(function(r){body.appendChild(r);});});});});})();"""
_NOTE = (
    "C/R = correct/completed, C/N = correct/planned, in percent, each with a {level:.0%} source-cluster "
    "bootstrap percentile interval ({replicates} replicates, seed {seed})."
)

_HORIZON = (
    " horizon: the execution horizon H50 of the final-output answers on the runs' ladder tasks, the counted trace "
    "length at which the fitted accuracy falls to 50%, with its program-cluster bootstrap interval; '> top rung' "
    "when still above 50% at the top rung (censored), empty without ladder tasks (docs/horizon.md)."
)


def _interval(row: dict[str, Any]) -> str:
    if row["difference_pp"] is None:
        return "-"
    mark = " *" if row["distinct"] else ""
    return f"{row['difference_pp']:+.1f} [{row['ci_low_pp']:+.1f}, {row['ci_high_pp']:+.1f}]{mark}"


def pairwise_matrix(board: Leaderboard) -> list[dict[str, Any]]:
    """Rows ``setting`` x columns of settings: the row's C/N minus the column's, its interval, ``*`` when
    Holm-adjusted p < 1 - level (each pair is computed once; its mirror is the negation)."""
    names = [r["setting"] for r in board.overall]
    cell: dict[tuple[str, str], str] = {}
    for r in board.pairwise:
        cell[(r["setting_a"], r["setting_b"])] = _interval(r)
        if r["difference_pp"] is not None:
            # 0.0 - x, not -x: the mirror of a zero gap reads +0.0, never -0.0
            low, high = 0.0 - r["ci_high_pp"], 0.0 - r["ci_low_pp"]
            neg = {**r, "difference_pp": 0.0 - r["difference_pp"], "ci_low_pp": low, "ci_high_pp": high}
            cell[(r["setting_b"], r["setting_a"])] = _interval(neg)
    return [{"setting": a, **{b: ("" if a == b else cell.get((a, b), "-")) for b in names}} for a in names]


def leaderboard_tables(board: Leaderboard) -> list[Table]:
    """Every table of the leaderboard, in page order."""
    c = board.config
    note = _NOTE.format(level=c.level, replicates=c.replicates, seed=c.seed)
    t = [
        make_table(
            "leaderboard", "Leaderboard: one row per setting, best C/N first", board.overall, note=note + _HORIZON
        ),
        make_table("accuracy_by_arm", "Accuracy by arm", board.by_arm, note=note),
        make_table("accuracy_by_study", "Accuracy by study", board.by_study, note=note),
        make_table(
            "decrement",
            f"Short-to-long paired decrement per setting (cohort {COHORT})",
            _decrement_rows(board),
            note="decrement_pp = 100 x (short correct - long correct) / pairs; ci_low_pp, ci_high_pp: the paired "
            "comparison's source-cluster bootstrap interval, as execstate analyze writes it (ci_low, ci_high).",
        ),
        make_table(
            "pairwise_matrix",
            "Pairwise differences in C/N (row minus column, pp)",
            pairwise_matrix(board),
            note=f"Paired over the cells both settings answered; [{c.level:.0%} interval]; * = Holm-adjusted "
            f"p < {1 - c.level:.2g}: a gap the data support.",
        ),
        make_table(
            "pairwise",
            "Pairwise differences, long form",
            board.pairwise,
            note="p: two-sided paired source-cluster bootstrap p-value; p_holm: Holm over all pairs.",
        ),
        make_table("cost", "Cost and tokens per setting and arm", board.cost, note=_COST_NOTE),
        make_table(
            "budget",
            "Budget-matched accuracy (responses with finish_reason stop)",
            board.budget,
            note="acc_stopped_pct: C/R over the responses that finished on their own, with a Wilson interval; "
            "truncated_pct: finish_reason length. Compare settings of different output budget or reasoning on it.",
        ),
    ]
    return t


_DECREMENT_HIDDEN = ("cohort", "settings", "ci_low", "ci_high", "replicates", "level")
"""Keys of ``paired_comparison`` rows the page leaves out (one cohort; the interval shown in pp columns)."""


def _decrement_rows(board: Leaderboard) -> list[dict[str, Any]]:
    shown = [{k: v for k, v in r.items() if k not in _DECREMENT_HIDDEN} for r in board.decrement]
    return [{**s, "ci_low_pp": r["ci_low"], "ci_high_pp": r["ci_high"]} for s, r in zip(shown, board.decrement)]


_COST_NOTE = (
    "cost in the settings' price currency (prices per million tokens); reasoning tokens priced as output unless a "
    "reasoning price is set; usage_missing responses add no cost; a flag marks reasoning settings whose responses "
    "do not report reasoning tokens."
)


@styled_figure
def accuracy_vs_cost(board: Leaderboard, out_dir: Path) -> FigureOut:
    """C/N with its interval against total cost (every setting priced) or mean output tokens."""
    rows = board.overall
    priced = bool(rows) and all(r["cost"] is not None for r in rows)
    key, label = ("cost", "total cost") if priced else ("mean_output_tokens", "mean output tokens per response")
    pts = [r for r in rows if r[key] is not None and r["acc_planned_pct"] is not None]
    fig = Figure(figsize=(5.5, 3.4))
    ax = fig.subplots()
    for r in pts:
        y, low, high = r["acc_planned_pct"], r["cn_low_pct"], r["cn_high_pct"]
        err = None if low is None or high is None else [[max(0.0, y - low)], [max(0.0, high - y)]]
        ax.errorbar([r[key]], [y], yerr=err, fmt="o", ms=4, capsize=2, elinewidth=0.8)
        ax.annotate(r["setting"], (r[key], y), textcoords="offset points", xytext=(4, 3), fontsize=6)
    ax.set_xlabel(label)
    ax.set_ylabel("C/N (%)")
    ax.set_ylim(-3, 103)
    fig.tight_layout()
    svg, paths = save_figure(fig, out_dir, FIGURE)
    caption = f"Accuracy (C/N, with its interval) against {label} per setting."
    if not priced:
        caption += " Not every setting declares prices, so output tokens stand in for cost."
    return FigureOut(FIGURE, f"Accuracy vs {label}", caption, svg, paths)


def _inputs_html(board: Leaderboard) -> str:
    i = board.inputs
    runs = "".join(
        f"<li>{_esc(r['path'])}: settings {_esc(', '.join(r['settings']))}; {r['planned_tasks']} planned tasks, "
        f"sha256 {_esc(r['tasks_sha256'][:12])}</li>"
        for r in i["runs"]
    )
    note = (
        f'<p class="banner">Compared on the intersection: {i["tasks"]} tasks every run planned; left out per run: '
        f"{_esc(', '.join(f'{k}: {v}' for k, v in i['dropped_task_ids'].items()))}.</p>"
        if i["intersect"]
        else f"<p>All runs answered the same {i['tasks']} tasks.</p>"
    )
    changed = [r for r in board.overall if r.get("snapshot_changed")]
    if changed:
        names = "; ".join(f"{r['setting']}: {r['served_models']}" for r in changed)
        note += (
            f'<p class="banner">The vendor served more than one model snapshot during a run (in the order they '
            f"first answered): {_esc(names)}. Their rows mix the snapshots' answers.</p>"
        )
    return f"{note}<ul>{runs}</ul>"


def _esc(value: Any) -> str:
    import html

    return html.escape(str(value), quote=True)


def leaderboard_html(board: Leaderboard, tables: list[Table], figure: FigureOut, grades: list[Grade]) -> str:
    """The whole page (sections: inputs, leaderboard, arms, studies, decrement, pairwise, cost, budget), with
    the report's banner when a setting's grades are pipeline checks (``grades``: the combined runs')."""
    t = {x.name: table_section(x) for x in tables}
    sections = [
        ("inputs", "Inputs", _inputs_html(board)),
        ("leaderboard", "Leaderboard", t["leaderboard"]),
        ("arms", "By arm", t["accuracy_by_arm"]),
        ("studies", "By study", t["accuracy_by_study"]),
        ("decrement", "Short-to-long decrement", t["decrement"]),
        ("pairwise", "Which gaps are real", t["pairwise_matrix"] + t["pairwise"]),
        ("cost", "Cost", figure_html(figure) + t["cost"]),
        ("budget", "Budget-matched", t["budget"] + f"<script>{_SORT_JS}</script>"),
    ]
    return page("execstate leaderboard", pipeline_check_banner(grades), sections)
