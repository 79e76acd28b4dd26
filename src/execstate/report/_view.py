"""The report half of an analysis section: ``SectionView`` (its tables, figures and HTML from its data).

A section (``execstate.analyze.Section``) names its view, or, for execstate's own sections, the report has one of
the same name (``_sections``). The report builder loops over the sections and asks each view for its tables
(written to ``tables/<section>/``, a beyond row's to ``tables/beyond/``), draws the figures whose data the
section computed, and places the HTML: under the section's heading in "Beyond the paper" for a beyond row, else
as its own part of the page, before the task browser.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from execstate.analyze import AnalysisConfig
from execstate.report._figures import FigureOut
from execstate.report._html import table_section
from execstate.tables import Table, make_table

Page = tuple[str, str, str]
"""A part of the page: (anchor, heading, inner HTML)."""
Drawer = Callable[[dict[str, Any], Path], FigureOut]
"""Draws one figure from its data into a folder: ``(data, figures_dir) -> FigureOut``."""


@dataclass(frozen=True)
class SectionView:
    """How the report shows one section, from the section's data (its value in ``analysis.json``; for a beyond
    row, the whole ``beyond`` object, since a row may read several keys).

    The report calls ``tables(data, config)``, draws every figure of the section's data whose name ``figures``
    has a drawer for, then calls ``html(data, tables, figures_html, config)`` (``figures_html``: figure name ->
    its HTML). Nothing here computes a number: every number comes from the analysis."""

    tables: Callable[[Any, AnalysisConfig], list[Table]]
    """Its tables (empty ones included for a beyond row, so a reader sees what was not measurable)."""
    html: Callable[[Any, list[Table], Mapping[str, str], AnalysisConfig], str | Sequence[Page]]
    """Its HTML: a string (a beyond row's body under its heading; a section of its own: one part of the page,
    anchored at its name under its heading), or the parts of the page it fills (any number, even none)."""
    figures: Mapping[str, Drawer] = field(default_factory=dict)
    """A drawer for each figure it may have data for, by figure name."""
    inputs: Callable[[Any], str] | None = None
    """Its line in the report's Inputs list (how many tasks it took), for a section of its own with data."""
    order: int = 100
    """Where its parts go among the sections' own parts of the page (ascending, then registry order); execstate's
    own: 10 fresh, 20 variants, 30 further arms."""


def plain_view(name: str, title: str, note: str = "") -> SectionView:
    """The view of a beyond row that is one plain table: the rows of ``beyond[name]`` under ``title`` and ``note``."""

    def tables(data: Any, config: AnalysisConfig) -> list[Table]:
        return [make_table(name, title, data.get(name, []), note=note)]

    return SectionView(tables, lambda data, shown, figures, config: table_section(shown[0]))
