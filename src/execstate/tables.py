"""The one table module: a titled table of dict rows and its CSV, Markdown and JSON forms.

Every stage that shows a table (the build's corpus row, the grade stage's
accuracy tables, the report) builds :class:`Table` objects and renders them
here. CSV and JSON keep full values (an empty CSV cell or JSON ``null`` is
undefined); Markdown rounds for reading: p-values to 3 significant digits,
percentages to 1 decimal, percentage points to 2, medians as written, other
floats to 3 decimals, ``-`` for undefined.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from execstate.errors import output_dir

Row = dict[str, Any]
_P_KEYS = {"p", "p_wald", "p_bh", "p_holm"}


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
        if key.endswith("_median"):
            return f"{value:g}"
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
    """Header of ``columns`` then one line per row; lists joined by ``;``, undefined left empty."""
    if not table.columns:
        return ""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(table.columns)
    for row in table.rows:
        writer.writerow([_csv_value(row.get(c)) for c in table.columns])
    return buf.getvalue()


def to_markdown(table: Table) -> str:
    """A ``## title`` heading, the note, and a pipe table of the shown columns."""
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


def to_json(table: Table) -> str:
    """The rows as a JSON list (every key of every row, full precision, ``null`` for undefined)."""
    return json.dumps(table.rows, indent=1, ensure_ascii=False) + "\n"


FORMATS = {".csv": to_csv, ".md": to_markdown, ".json": to_json}


def write_tables(
    tables: list[Table],
    out_dir: Path | str,
    formats: tuple[str, ...] = (".csv", ".md", ".json"),
) -> list[Path]:
    """``<name><suffix>`` per table and format, plus ``tables.md`` and ``tables.json`` holding all of them.

    Creates ``out_dir`` (``UsageError`` if a file is in the way); returns the
    written paths in a stable order. ``tables.json`` maps each name to its rows.
    """
    out = output_dir(out_dir)
    written = []
    for table in tables:
        for suffix in formats:
            path = out / f"{table.name}{suffix}"
            path.write_text(FORMATS[suffix](table), encoding="utf-8", newline="")
            written.append(path)
    combined_md, combined_json = out / "tables.md", out / "tables.json"
    combined_md.write_text("\n".join(to_markdown(t) for t in tables), encoding="utf-8", newline="")
    combined_json.write_text(
        json.dumps({t.name: t.rows for t in tables}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8", newline=""
    )
    return written + [combined_md, combined_json]


__all__ = ["FORMATS", "Row", "Table", "format_value", "make_table", "to_csv", "to_json", "to_markdown", "write_tables"]
