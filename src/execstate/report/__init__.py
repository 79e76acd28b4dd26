"""execstate.report stage: tables, figures and the self-contained HTML page of an analysis."""

from execstate.report._build import ReportFiles, analyze_files, write_report
from execstate.report._figures import FigureOut, render_figures

__all__ = [
    "FigureOut",
    "ReportFiles",
    "analyze_files",
    "render_figures",
    "write_report",
]
