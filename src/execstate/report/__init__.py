"""execstate.report stage: tables, figures and the self-contained HTML page of an analysis.

Its names are imported on first use: the helper process that draws figures (``_figures``) then loads
matplotlib alone, not the statistics stack that ``_build`` needs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from execstate.report._build import ReportFiles, analyze_files, pipeline_check_banner, write_report
    from execstate.report._figures import FigureOut, render_figures, save_figure, styled_figure
    from execstate.report._html import figure_html, page, table_section, view_href
    from execstate.report._view import SectionView, plain_view

_WHERE = {
    "FigureOut": ("_figures", "FigureOut"),
    "ReportFiles": ("_build", "ReportFiles"),
    "SectionView": ("_view", "SectionView"),
    "analyze_files": ("_build", "analyze_files"),
    "figure_html": ("_html", "figure_html"),
    "page": ("_html", "page"),
    "pipeline_check_banner": ("_build", "pipeline_check_banner"),
    "plain_view": ("_view", "plain_view"),
    "render_figures": ("_figures", "render_figures"),
    "save_figure": ("_figures", "save_figure"),
    "styled_figure": ("_figures", "styled_figure"),
    "table_section": ("_html", "table_section"),
    "write_report": ("_build", "write_report"),
    "view_href": ("_html", "view_href"),
}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attribute = _WHERE[name]
    value = getattr(importlib.import_module(f"{__name__}.{module}"), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_WHERE})


__all__ = [
    "FigureOut",
    "ReportFiles",
    "SectionView",
    "analyze_files",
    "figure_html",
    "page",
    "pipeline_check_banner",
    "plain_view",
    "render_figures",
    "save_figure",
    "styled_figure",
    "table_section",
    "view_href",
    "write_report",
]
