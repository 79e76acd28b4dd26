"""execstate.report stage: tables, figures and the self-contained HTML page of an analysis."""

from execstate.report._build import ReportFiles, analyze_files, write_report
from execstate.report._figures import FigureOut, render_figures
from execstate.report._html import page, table_section

__all__ = [
    "FigureOut",
    "ReportFiles",
    "analyze_files",
    "page",
    "render_figures",
    "table_section",
    "write_report",
]
