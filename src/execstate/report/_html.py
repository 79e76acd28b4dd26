"""The self-contained HTML report: one page, figures inlined as data URIs, every string escaped.

The page has no external assets (no scripts, fonts, stylesheets or images
fetched), no timestamps, and a stable order, so re-running the analysis
yields the same bytes. The per-task browser uses ``<details>`` elements so
the page stays usable with thousands of tasks; one small inline script adds
its filters (study, arm, setting, status) and its sort. Cases are listed in
natural id order (``sample_2`` before ``sample_10``) with or without it.
"""

from __future__ import annotations

import base64
import html
import json
import re
from collections.abc import Callable, Iterable
from typing import Any

from execstate.arms import arm_names
from execstate.errors import clip_text
from execstate.records import Grade, Task
from execstate.report._figures import FigureOut
from execstate.tables import Table, format_value

_MAX_SHOWN = 20_000  # characters of one input/oracle/answer shown inline; the files hold the rest
_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:1.5rem auto;max-width:1200px;
padding:0 1rem;color:#222;line-height:1.4}
h1{font-size:1.6rem}h2{border-bottom:1px solid #ccc;padding-bottom:.2rem;margin-top:2rem}h3{font-size:1.05rem}
table{border-collapse:collapse;font-size:.8rem;margin:.5rem 0 1rem;display:block;overflow-x:auto}
th,td{border:1px solid #ddd;padding:.15rem .4rem;text-align:left;white-space:nowrap}th{background:#f3f3f3}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.banner{background:#fff3cd;border:2px solid #d39e00;padding:.6rem 1rem;font-weight:600}
.note{color:#555;font-size:.85rem}figure{margin:1rem 0}figure img{max-width:100%;border:1px solid #eee}
figcaption{font-size:.85rem;color:#444}pre{background:#f7f7f7;padding:.5rem;overflow-x:auto;font-size:.78rem;
max-height:30rem}details{margin:.2rem 0}summary{cursor:pointer}.correct-valid,.correct-invalid{color:#1a7f37}
.wrong-valid,.wrong-invalid{color:#b42318}.no-response{color:#777}nav a{margin-right:.8rem}
.filters{display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:center;font-size:.85rem;margin:.5rem 0}
[hidden]{display:none!important}.headline td.num{font-size:.9rem}
"""
_STATUSES = ("correct-valid", "correct-invalid", "wrong-valid", "wrong-invalid", "no-response")
# Filters and sort of the task browser (the sort is natural_key's order). A task is shown when its study
# and arm match and one of its grades matches the setting and status filters together; a case is shown
# when one of its tasks is.
_BROWSER_JS = """(function(){
var root=document.getElementById('task-browser');if(!root)return;
var list=root.querySelector('.cases'),count=root.querySelector('.shown');
var f={};root.querySelectorAll('select[data-filter]').forEach(function(s){f[s.dataset.filter]=s;});
var sort=root.querySelector('select[data-sort]');
function parts(s){return s.toLowerCase().match(/\\d+|\\D+/g)||[];}
function natural(a,b){var x=parts(a),y=parts(b);for(var i=0;i<Math.min(x.length,y.length);i++){
var p=x[i],q=y[i],dp=/^\\d/.test(p),dq=/^\\d/.test(q);
if(dp&&dq){var d=parseInt(p,10)-parseInt(q,10);if(d)return d;}else if(dp!==dq){return dp?-1:1;}
else if(p!==q){return p<q?-1:1;}}return x.length-y.length;}
function cellOk(t){var s=f.setting.value,st=f.status.value;if(!s&&!st)return true;
return JSON.parse(t.dataset.cells||'[]').some(function(p){return (!s||p[0]===s)&&(!st||p[1]===st);});}
function apply(){var shown=0,total=0;
list.querySelectorAll(':scope>details.case').forEach(function(c){var any=false;
c.querySelectorAll('details.task').forEach(function(t){total++;
var ok=(!f.study.value||t.dataset.study===f.study.value)&&(!f.arm.value||t.dataset.arm===f.arm.value)&&cellOk(t);
t.hidden=!ok;if(ok){any=true;shown++;}});c.hidden=!any;});
count.textContent=shown+' of '+total+' tasks shown';}
function order(){var cs=Array.prototype.slice.call(list.querySelectorAll(':scope>details.case'));
var dir=sort.value==='id-desc'?-1:1;cs.sort(function(a,b){return dir*natural(a.dataset.id,b.dataset.id);});
cs.forEach(function(c){list.appendChild(c);});}
Object.keys(f).forEach(function(k){f[k].addEventListener('change',apply);});
sort.addEventListener('change',order);order();apply();})();"""


def to_html(table: Table, link: Callable[[dict[str, Any]], str | None] | None = None) -> str:
    """An HTML ``<table>`` (escaped); numbers right-aligned. ``link``: a last column ``cells`` whose link (the
    URL ``link(row)`` returns, escaped) opens the row's cells in ``execstate view`` (``view_href``)."""
    if not table.rows:
        return "<p><em>(no rows)</em></p>"
    head = "".join(f"<th>{html.escape(c)}</th>" for c in table.columns) + ("<th>cells</th>" if link else "")
    body = []
    for row in table.rows:
        cells = []
        for c in table.columns:
            v = row.get(c)
            cls = ' class="num"' if isinstance(v, (int, float)) and not isinstance(v, bool) else ""
            cells.append(f"<td{cls}>{html.escape(format_value(c, v))}</td>")
        if link:
            href = link(row)
            cells.append(f'<td><a class="view-link" href="{esc(href)}">view</a></td>' if href else "<td></td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


VIEW_FILTERS = ("study", "arm", "setting")
"""The columns of a report table that become ``execstate view``'s list filters in its link."""


def view_href(base: str, row: dict[str, Any]) -> str | None:
    """The URL of ``execstate view``'s list at ``base`` filtered to a table row's study, arm and setting (the
    row's values of ``VIEW_FILTERS``, URL-quoted into the page's hash); None for a row with none of them."""
    from urllib.parse import quote

    parts = [f"{k}={quote(str(row[k]), safe='')}" for k in VIEW_FILTERS if row.get(k) not in (None, "")]
    return f"{base}#{'&'.join(parts)}" if parts else None


def esc(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _clip(text: str | None) -> str:
    if text is None:
        return "(none)"
    return clip_text(text, _MAX_SHOWN, "\n... [{left_out} more characters; see the JSONL file]")


def figure_html(fig: FigureOut) -> str:
    data = base64.b64encode(fig.svg.encode("utf-8")).decode("ascii")
    return (
        f'<figure id="fig-{esc(fig.name)}"><h3>{esc(fig.title)}</h3>'
        f'<img alt="{esc(fig.title)}" src="data:image/svg+xml;base64,{data}">'
        f"<figcaption>{esc(fig.caption)} Files: {esc(fig.name)}.svg, {esc(fig.name)}.png</figcaption></figure>"
    )


def table_section(table: Table, link: Callable[[dict[str, Any]], str | None] | None = None) -> str:
    """A table's heading, note and HTML (``link``: as ``to_html``'s)."""
    note = f'<p class="note">{esc(table.note)}</p>' if table.note else ""
    return f'<h3 id="table-{esc(table.name)}">{esc(table.title)}</h3>{note}{to_html(table, link)}'


def _grade_rows(grades: list[Grade]) -> str:
    rows = "".join(
        f'<tr><td>{esc(g.setting)}</td><td class="num">{g.sample}</td><td class="{esc(g.status)}">{esc(g.status)}'
        f"</td><td><pre>{esc(_clip(g.answer))}</pre></td></tr>"
        for g in grades
    )
    return (
        f"<table><thead><tr><th>setting</th><th>sample</th><th>status</th><th>answer</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
        if grades
        else "<p><em>(no grades for this task)</em></p>"
    )


def _task_html(task: Task, grades: list[Grade]) -> str:
    correct = sum(g.status.startswith("correct") for g in grades)
    m = task.metrics
    meta = (
        f"trace {m.trace_length}, peak {m.peak_state}, load {m.state_load}, cyclomatic {m.cyclomatic}; "
        f"rule {task.grading_rule}; source sha256 {task.source_sha256[:12]}"
    )
    cells = json.dumps([[g.setting, g.status] for g in grades], ensure_ascii=False)
    return (
        f'<details class="task" id="task-{esc(task.task_id)}" data-study="{esc(task.study)}" '
        f'data-arm="{esc(task.arm)}" data-cells="{esc(cells)}">'
        f"<summary>{esc(task.arm)}: {correct}/{len(grades)} correct "
        f'<span class="note">({esc(task.task_id)})</span></summary>'
        f'<p class="note">{esc(meta)}</p>'
        f"<h4>Source</h4><pre>{esc(task.source)}</pre><h4>Input</h4><pre>{esc(_clip(task.input))}</pre>"
        f"<h4>Oracle</h4><pre>{esc(_clip(task.oracle))}</pre>{_grade_rows(grades)}</details>"
    )


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key that orders digit runs by value: ``sample_2`` before ``sample_10``."""
    return tuple((0, int(p)) if p.isdigit() else (1, p.lower()) for p in re.split(r"(\d+)", text) if p)


def _select(name: str, label: str, values: Iterable[str]) -> str:
    options = "".join(f'<option value="{esc(v)}">{esc(v)}</option>' for v in values)
    head = f'<label>{esc(label)} <select data-filter="{esc(name)}"><option value="">all</option>'
    return f"{head}{options}</select></label>"


def _controls(tasks: list[Task], grades: list[Grade]) -> str:
    studies = sorted({t.study for t in tasks})
    paper = arm_names(group="paper")
    arms = [a for a in (*paper, *sorted({t.arm for t in tasks} - set(paper))) if a in {t.arm for t in tasks}]
    sort = (
        '<label>sort <select data-sort="1"><option value="id">case id</option>'
        '<option value="id-desc">case id, descending</option></select></label>'
    )
    return (
        '<div class="filters">'
        + _select("study", "study", studies)
        + _select("arm", "arm", arms)
        + _select("setting", "setting", sorted({g.setting for g in grades}))
        + _select("status", "status", _STATUSES)
        + sort
        + '<span class="shown note"></span></div>'
    )


def task_browser(tasks: Iterable[Task], grades: Iterable[Grade]) -> str:
    """Filters (study, arm, setting, status) and a sort over one ``<details>`` per case (natural id order),
    holding one per task with source, input, oracle and every setting's answer and status."""
    tasks, grades = list(tasks), list(grades)
    return (
        f'<div id="task-browser">{_controls(tasks, grades)}<div class="cases">{_cases_html(tasks, grades)}</div>'
        f"</div><script>{_BROWSER_JS}</script>"
    )


def _cases_html(tasks: list[Task], grades: list[Grade]) -> str:
    by_task: dict[str, list[Grade]] = {}
    for g in grades:
        by_task.setdefault(g.task_id, []).append(g)
    cases: dict[str, list[Task]] = {}
    for t in tasks:
        cases.setdefault(t.case_id, []).append(t)
    rank = {a: i for i, a in enumerate(arm_names(group="paper"))}
    parts = []
    for case_id, members in sorted(cases.items(), key=lambda kv: natural_key(kv[0])):
        members.sort(key=lambda t: rank.get(t.arm, len(rank)))
        first = members[0]
        inner = "".join(
            _task_html(t, sorted(by_task.get(t.task_id, []), key=lambda g: (g.setting, g.sample))) for t in members
        )
        parts.append(
            f'<details class="case" data-id="{esc(case_id)}"><summary><strong>{esc(case_id)}</strong> '
            f"({esc(first.study)}, "
            f"{esc(first.language)}, {len(members)} tasks)</summary>{inner}</details>"
        )
    return "".join(parts)


def page(title: str, banner: str | None, sections: list[tuple[str, str, str]]) -> str:
    """The whole document; ``sections`` are (anchor, heading, inner HTML)."""
    nav = "".join(f'<a href="#{esc(a)}">{esc(h)}</a>' for a, h, _ in sections)
    body = "".join(f'<section id="{esc(a)}"><h2>{esc(h)}</h2>{inner}</section>' for a, h, inner in sections)
    top = f'<p class="banner">{esc(banner)}</p>' if banner else ""
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{esc(title)}</title>'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><style>{_CSS}</style></head>'
        f"<body><h1>{esc(title)}</h1>{top}<nav>{nav}</nav>{body}</body></html>\n"
    )
