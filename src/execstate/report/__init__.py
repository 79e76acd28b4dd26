"""execstate.report stage: tables, figures and the self-contained HTML page of an analysis."""

from execstate.report._build import ReportFiles, analyze_files, write_report
from execstate.report._build import _banner as pipeline_check_banner
from execstate.report._figures import FigureOut, render_figures
from execstate.report._figures import _save as save_figure
from execstate.report._figures import _styled as styled_figure
from execstate.report._html import figure_html, page, table_section

__all__ = [
    "FigureOut",
    "ReportFiles",
    "analyze_files",
    "figure_html",
    "page",
    "pipeline_check_banner",
    "render_figures",
    "save_figure",
    "styled_figure",
    "table_section",
    "write_report",
]
