"""The report's loop over the analysis sections (``execstate.analyze.SECTIONS``): each one's tables, figures and
HTML, from its data in the analysis and its view (``SectionView``).

A section names its own view (``Section.view``); execstate's built-in sections are shown by the views here, joined
by name (``BUILTIN_VIEWS``), so that the analysis, lower, never names the report.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from execstate.analyze import Analysis, Section, sections
from execstate.errors import UsageError
from execstate.registry import resolve
from execstate.report._beyond import MARK
from execstate.report._beyond import VIEWS as BEYOND_VIEWS
from execstate.report._figures import FigureOut
from execstate.report._fresh import VIEW as FRESH_VIEW
from execstate.report._further import VIEW as FURTHER_VIEW
from execstate.report._horizon import VIEW as HORIZON_VIEW
from execstate.report._html import esc, figure_html
from execstate.report._twins import VIEW as TWINS_VIEW
from execstate.report._variants import VIEW as VARIANTS_VIEW
from execstate.report._view import Drawer, Page, SectionView
from execstate.tables import Table

BUILTIN_VIEWS: dict[str, SectionView] = {
    **BEYOND_VIEWS,
    "fresh": FRESH_VIEW,
    "further": FURTHER_VIEW,
    "variants": VARIANTS_VIEW,
    "twins": TWINS_VIEW,
    "horizon": HORIZON_VIEW,
}
"""The view of each of execstate's own sections, by section name."""


def view_of(section: Section) -> SectionView:
    """The section's view: its own (``Section.view``), else the built-in one of its name."""
    declared = section.view
    view: Any = resolve(declared)
    if view is None:
        view = BUILTIN_VIEWS.get(section.name)
    if not isinstance(view, SectionView):
        raise UsageError(
            f"section {section.name!r} has no report view (got {type(view).__name__}). "
            "Fix: give its Section a view, an execstate.report.SectionView or its 'module:attr'"
        )
    return view


@dataclass
class ShownSections:
    """What the sections put in the report: tables by folder (``tables/<folder>/``), the figures drawn, the body
    of "Beyond the paper", the parts of the page of the sections of their own, and their Inputs lines."""

    tables: dict[str, list[Table]] = field(default_factory=dict)
    figures: list[FigureOut] = field(default_factory=list)
    beyond: str = ""
    pages: list[Page] = field(default_factory=list)
    inputs: list[str] = field(default_factory=list)


def _draw(owner: str, drawers: Mapping[str, Drawer], data: Mapping[str, Any], out_dir: Path) -> list[FigureOut]:
    """Every figure in ``data`` (figure name -> its data), in order, drawn by the drawer of its name."""
    drawn = []
    for name, figure in data.items():
        if name not in drawers:
            raise UsageError(
                f"{owner} computed figure {name!r} that no view draws. "
                "Fix: add a drawer of that name to its SectionView.figures"
            )
        drawn.append(drawers[name](figure, out_dir / "figures"))
    return drawn


def _show_beyond(shown: ShownSections, analysis: Analysis, out_dir: Path) -> None:
    """The beyond rows: their figures (in the analysis's order), tables, and the body of "Beyond the paper"."""
    config, beyond = analysis.config, analysis.beyond
    rows = [(s, view_of(s)) for s in sections() if s.beyond]
    drawers = {name: draw for _, view in rows for name, draw in view.figures.items()}
    drawn = _draw("a beyond row", drawers, beyond.get("figures", {}), out_dir)
    fig_html = {f.name: figure_html(f) for f in drawn}
    parts = [f'<p class="banner">{esc(MARK)}</p>']
    for s, view in rows:
        tables = view.tables(beyond, config)
        shown.tables.setdefault("beyond", []).extend(tables)
        parts += [f"<h3>{esc(s.heading)}</h3>", str(view.html(beyond, tables, fig_html, config))]
    shown.figures += drawn
    shown.beyond = "".join(parts)


def _show_own(shown: ShownSections, analysis: Analysis, out_dir: Path) -> None:
    """The sections of their own that have data: figures, tables, Inputs lines and parts of the page, the parts
    ordered by their views' ``order`` (then registry order)."""
    placed: list[tuple[int, int, list[Page]]] = []
    own = [s for s in sections() if not s.beyond and s.name in analysis.sections]
    for index, section in enumerate(own):
        view, data = view_of(section), analysis.sections[section.name]
        figures = data.get("figures", {}) if isinstance(data, dict) else {}
        drawn = _draw(f"section {section.name!r}", view.figures, figures, out_dir)
        tables = view.tables(data, analysis.config)
        html = view.html(data, tables, {f.name: figure_html(f) for f in drawn}, analysis.config)
        shown.figures += drawn
        if tables:
            shown.tables[section.name] = tables
        pages = [(section.name, section.heading, html)] if isinstance(html, str) else list(html)
        placed.append((view.order, index, pages))
        if view.inputs is not None:
            shown.inputs.append(view.inputs(data))
    shown.pages = [page for *_, pages in sorted(placed, key=lambda p: p[:2]) for page in pages]


def show_sections(analysis: Analysis, out_dir: Path) -> ShownSections:
    """Every section of the analysis, in registry order: the beyond rows under their headings (after the mark),
    the others with data as their own parts of the page; figures drawn under ``out_dir/figures``."""
    shown = ShownSections()
    _show_beyond(shown, analysis, out_dir)
    _show_own(shown, analysis, out_dir)
    return shown
