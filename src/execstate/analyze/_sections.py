"""The section registry: every analysis section in report order, and the loop that computes them all.

execstate's own sections are the rows beyond the paper (``_beyond.BEYOND_ROWS``), then the published-vs-fresh,
further-arm, source-variant, language-gap and execution-horizon sections. Another package adds one through the
entry-point group ``execstate.sections`` (``name = "pkg.module:SECTION"``), a test or notebook with
``register_section``; no file of execstate changes (docs/extending.md, "A new section"). Nothing the modules
named here import imports this one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from execstate.analyze._beyond import BEYOND_ROWS
from execstate.analyze._fresh import SECTION as FRESH
from execstate.analyze._further import SECTION as FURTHER
from execstate.analyze._horizon import SECTION as HORIZON
from execstate.analyze._section import Section, SectionInputs, check_section
from execstate.analyze._twins import SECTION as TWINS
from execstate.analyze._variants import SECTION as VARIANTS
from execstate.registry import Registry

SECTIONS: Registry[Section] = Registry(
    "section",
    group="execstate.sections",
    builtin={s.name: s for s in (*BEYOND_ROWS, FRESH, FURTHER, VARIANTS, TWINS, HORIZON)},
    check=check_section,
    fix="register one (execstate.analyze.register_section) or declare it in another package's "
    '[project.entry-points."execstate.sections"]',
)
"""Every analysis section by name, in report order: built-in, registered at run time, then from entry points."""


def sections() -> list[Section]:
    """Every section, in registry order (the order of ``analysis.json``'s keys and of the report)."""
    return SECTIONS.values()


def register_section(section: Section, *, replace: bool = False) -> None:
    """Add ``section`` for this process (a test, a notebook); a package adds one through its
    ``execstate.sections`` entry point instead."""
    SECTIONS.register(section.name, section, replace=replace)


def unregister_section(name: str) -> None:
    """Remove a section added with ``register_section``."""
    SECTIONS.unregister(name)


def apart_ids(tasks: Sequence[Any]) -> set[str]:
    """The ids of the tasks an ``apart`` section claims: they enter no other section nor the paper's tables."""
    claimed = [s for s in sections() if s.apart]
    return {t.task_id for t in tasks if any(s.takes(t) for s in claimed)}


def _empty(data: Any) -> bool:
    return data is None or (isinstance(data, (dict, list, tuple)) and not data)


def compute_sections(inputs: SectionInputs) -> tuple[dict[str, Any], dict[str, Any]]:
    """Every section on ``inputs``: (``beyond``: the beyond rows' keys in order, then ``figures``; the sections of
    their own that have data, by name, in order)."""
    beyond: dict[str, Any] = {}
    figures: dict[str, Any] = {}
    own: dict[str, Any] = {}
    for section in sections():
        mine = inputs.for_section(section)
        if section.beyond:
            keys = dict(section.run(mine))
            first = next(iter(keys), None)
            if first != section.name:
                raise ValueError(f"section {section.name!r}: its compute's first key is {first!r}, not its name")
            figures.update(keys.pop("figures", {}))
            beyond.update(keys)
        elif section.applies is None or mine.mine:
            data = section.run(mine)
            if not _empty(data):
                own[section.name] = data
    return {**beyond, "figures": figures}, own
