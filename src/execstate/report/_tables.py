"""Tables of the report: which rows and columns each shows, and their CSV/Markdown/HTML forms.

CSV keeps full values (empty cell = undefined); Markdown and HTML round for
reading: p-values to 3 significant digits, percentages to 1-2 decimals,
other floats to 3 decimals, ``-`` for undefined.
"""

from __future__ import annotations

import csv
import html
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Row = dict[str, Any]
_P_KEYS = {"p", "p_wald", "p_bh"}


@dataclass(frozen=True)
class Table:
    """A titled table: ``rows`` are dicts, ``columns`` the keys shown, in order."""

    name: str
    title: str
    rows: list[Row]
    columns: list[str]
    note: str = ""


def make_table(name: str, title: str, rows: list[Row], columns: list[str] | None = None, note: str = "") -> Table:
    """A table showing ``columns`` (default: every key of the first row, in its order)."""
    if columns is None:
        columns = list(rows[0]) if rows else []
    return Table(name=name, title=title, rows=rows, columns=columns, note=note)


def format_value(key: str, value: Any) -> str:
    """Human-readable cell text (see the module docstring)."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value)) if value else "-"
    if isinstance(value, float):
        if value != value:
            return "-"
        if key in _P_KEYS:
            return f"{value:.3g}"
        if key.endswith("_pct"):
            return f"{value:.1f}"
        if key.endswith("_pp"):
            return f"{value:.2f}"
        if value != 0 and (abs(value) < 1e-3 or abs(value) >= 1e5):
            return f"{value:.2e}"
        return f"{value:.3f}"
    return str(value)


def _csv_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return ";".join(map(str, value))
    return value


def to_csv(table: Table) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(table.columns)
    for row in table.rows:
        writer.writerow([_csv_value(row.get(c)) for c in table.columns])
    return buf.getvalue()


def to_markdown(table: Table) -> str:
    lines = [f"## {table.title}", ""]
    if table.note:
        lines += [table.note, ""]
    if not table.rows:
        return "\n".join(lines + ["(no rows)", ""])
    lines.append("| " + " | ".join(table.columns) + " |")
    lines.append("|" + "|".join(" --- " for _ in table.columns) + "|")
    for row in table.rows:
        cells = [format_value(c, row.get(c)).replace("|", "\\|") for c in table.columns]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines + [""])


def to_html(table: Table) -> str:
    """An HTML ``<table>`` (escaped); numbers right-aligned."""
    if not table.rows:
        return "<p><em>(no rows)</em></p>"
    head = "".join(f"<th>{html.escape(c)}</th>" for c in table.columns)
    body = []
    for row in table.rows:
        cells = []
        for c in table.columns:
            v = row.get(c)
            cls = ' class="num"' if isinstance(v, (int, float)) and not isinstance(v, bool) else ""
            cells.append(f"<td{cls}>{html.escape(format_value(c, v))}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f'<table><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def write_table_files(tables: list[Table], out_dir: Path) -> list[Path]:
    """``<name>.csv`` and ``<name>.md`` per table plus ``tables.md`` with all of them."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for table in tables:
        for suffix, text in ((".csv", to_csv(table)), (".md", to_markdown(table))):
            path = out_dir / f"{table.name}{suffix}"
            path.write_text(text, encoding="utf-8", newline="")
            written.append(path)
    combined = out_dir / "tables.md"
    combined.write_text("\n".join(to_markdown(t) for t in tables), encoding="utf-8", newline="")
    return written + [combined]
