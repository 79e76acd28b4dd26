"""An analysis section as data: which tasks it takes, how it computes its keys of ``analysis.json``, and where the
report finds how to show it.

A ``Section`` is one row of the section registry (``execstate.analyze.SECTIONS``). ``analyze`` loops over the
registry: it computes every section on the same ``SectionInputs`` and writes what each returns, and the report
(``execstate.report``) loops over it too, showing each section with its view (``SectionView``: tables, figures,
HTML). A section is either a row of the report's "Beyond the paper" section (``beyond=True``: its keys go under
``analysis.json``'s ``beyond``, always written) or a section of its own (its data under its own top-level key,
written only when it has any, and its own part of the page).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from execstate.errors import UsageError
from execstate.records import Grade, Response, Task
from execstate.registry import resolve

if TYPE_CHECKING:
    import pandas as pd

    from execstate.analyze._config import AnalysisConfig

Hook = str | Callable[..., Any] | None
"""A hook: ``"module:attr"`` (imported on first use) or the object itself."""


@dataclass(frozen=True)
class SectionInputs:
    """What a section's ``compute`` reads.

    ``every_task``/``every_grade``: everything given to ``analyze``. ``tasks``/``grades``: the tasks no ``apart``
    section claims and their joinable grades (first grade per cell); ``paper``/``own``: the paper's tasks among
    them (``records.paper_tasks``) and their grades; ``frame``: the paper's cells (``load_cells``); ``responses``:
    the run's records (None when none were given). ``mine``/``mine_grades``: the tasks the section applies to (among
    ``every_task`` for an ``apart`` section, else among ``tasks``) and their joinable grades.
    """

    every_task: Sequence[Task]
    every_grade: Sequence[Grade]
    tasks: Sequence[Task]
    grades: Sequence[Grade]
    paper: list[Task]
    own: list[Grade]
    frame: pd.DataFrame
    config: AnalysisConfig
    responses: Sequence[Response] | None
    mine: Sequence[Task] = ()
    mine_grades: Sequence[Grade] = ()

    def for_section(self, section: Section) -> SectionInputs:
        """These inputs with ``mine`` and ``mine_grades`` those of ``section``."""
        pool, graded = (self.every_task, self.every_grade) if section.apart else (self.tasks, self.grades)
        mine = [t for t in pool if section.takes(t)]
        return dataclasses.replace(self, mine=mine, mine_grades=joinable_grades(mine, graded))


@dataclass(frozen=True)
class Section:
    """One analysis section, declared once: the analysis computes it and the report shows it."""

    name: str
    """Its key in ``analysis.json`` (for a ``beyond`` row: its first key under ``beyond``), its table folder
    (``tables/<name>/``; a ``beyond`` row's tables go to ``tables/beyond/``) and its anchor in the page."""
    heading: str
    """Its heading in the report."""
    compute: Hook
    """``(SectionInputs) -> data``. A section of its own returns its data (left out of ``analysis.json`` and the
    report when None or empty); a ``beyond`` row returns its keys under ``beyond``, ``name`` first, and the data of
    its figures, if it draws any, under ``"figures"`` (figure name -> data; they go to ``beyond["figures"]``)."""
    applies: Callable[[Task], bool] | None = None
    """Which tasks it is about (``SectionInputs.mine``); without any such task a section of its own is not computed
    (it would have nothing to say). None: every task, and the section is always computed."""
    apart: bool = False
    """True: the tasks it ``applies`` to are analysed here alone (and by other ``apart`` sections): every other
    section and the paper's tables see the rest, as if they were not there (fresh inputs, source variants)."""
    beyond: bool = False
    """True: a row of the report's "Beyond the paper" section (keys under ``analysis.json``'s ``beyond``, always
    written); False: a section of its own."""
    view: Hook = None
    """How the report shows it: an ``execstate.report.SectionView`` or ``"module:attr"`` naming one. None: the
    report's own view of this name (execstate's built-in sections)."""
    description: str = ""

    def takes(self, task: Task) -> bool:
        """True when the section ``applies`` to ``task``."""
        return self.applies is None or bool(self.applies(task))

    def run(self, inputs: SectionInputs) -> Any:
        """The section's data (``compute``'s result) on ``inputs``."""
        compute = resolve(self.compute)
        if compute is None:
            raise UsageError(f"section {self.name!r} has no compute. Fix: give its Section a compute function")
        return compute(inputs)


def joinable_grades(tasks: Iterable[Task], grades: Iterable[Grade]) -> list[Grade]:
    """Grades of known tasks, the first grade per cell (the rest are reported in ``inputs``)."""
    known = {t.task_id for t in tasks}
    seen: set[tuple[str, str, int]] = set()
    out = []
    for g in grades:
        key = (g.task_id, g.setting, g.sample)
        if g.task_id in known and key not in seen:
            seen.add(key)
            out.append(g)
    return out


def check_section(name: str, section: object) -> None:
    """``UsageError`` unless ``section`` is a ``Section`` calling itself ``name`` (the registry's check)."""
    if not isinstance(section, Section):
        raise UsageError(
            f"section {name!r} is a {type(section).__name__}, not a Section. "
            "Fix: point it at an execstate.analyze.Section"
        )
    if section.name != name:
        raise UsageError(f"section entry registered as {name!r} calls itself {section.name!r}; the two must agree")
