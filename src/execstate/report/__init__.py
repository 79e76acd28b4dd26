"""execstate.report stage: tables, figures and the self-contained HTML page of an analysis."""

from execstate.report._build import ReportFiles, analyze_files, write_report
from execstate.report._figures import FigureOut, render_figures
from execstate.report._tables import Table, make_table, to_csv, to_markdown, write_table_files

__all__ = [
    "FigureOut", "ReportFiles", "Table", "analyze_files",
    "make_table", "render_figures", "to_csv", "to_markdown", "write_report", "write_table_files",
]
