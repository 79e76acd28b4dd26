"""The whole analysis of one tasks+grades pair as one record, and its JSON file."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from execstate.analyze._cells import Cells, load_cells
from execstate.analyze._config import AnalysisConfig
from execstate.analyze._figures import figure_data
from execstate.analyze._paired import paired_comparison, paired_studies
from execstate.analyze._regression import cluster_regression
from execstate.analyze._section import SectionInputs, joinable_grades
from execstate.analyze._sections import apart_ids, compute_sections
from execstate.analyze._series import series_summary, start_series_tests
from execstate.grade import accuracy_tables
from execstate.records import Grade, Response, Task, paper_tasks

ANALYSIS_SCHEMA_VERSION = 1
_SIGNIFICANT = 12  # digits kept in JSON floats: re-runs compare equal as text


@dataclass(frozen=True)
class Analysis:
    """Rows of every analysis, each a flat dict whose keys name what they hold."""

    inputs: dict[str, Any]
    config: AnalysisConfig
    paired: list[dict[str, Any]] = field(default_factory=list)
    regression: list[dict[str, Any]] = field(default_factory=list)
    regression_fits: list[dict[str, Any]] = field(default_factory=list)
    correlations: list[dict[str, Any]] = field(default_factory=list)
    series: list[dict[str, Any]] = field(default_factory=list)
    series_summary: list[dict[str, Any]] = field(default_factory=list)
    figures: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Data of every report figure keyed by figure name, in report order (the report only draws it)."""
    accuracy: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """The corpus and accuracy tables (``corpus``, ``accuracy_by_arm``, ``_by_setting``, ``_by_study``) of
    the joinable grades; filled by ``analyze`` (which has the records), empty from ``analyze_cells``."""
    beyond: dict[str, Any] = field(default_factory=dict)
    """The rows beyond the paper (SPEC 11; the ``beyond`` sections of ``SECTIONS``), then their ``figures``;
    filled by ``analyze``."""
    sections: dict[str, Any] = field(default_factory=dict)
    """The data of every section of its own that has any (``SECTIONS``, not ``beyond``), by name in registry
    order: each is a top-level key of the JSON; a section without data is left out, so an analysis without
    fresh tasks, say, is written as if the fresh section did not exist. Filled by ``analyze``."""

    def section(self, name: str) -> Any:
        """The data of section ``name``; ``{}`` when the analysis has none (or no such section)."""
        return self.sections.get(name, {})

    def to_json(self) -> dict[str, Any]:
        return {
            "schema_version": ANALYSIS_SCHEMA_VERSION,
            "inputs": self.inputs,
            "config": self.config.to_json(),
            "paired": self.paired,
            "regression": self.regression,
            "regression_fits": self.regression_fits,
            "correlations": self.correlations,
            "series": self.series,
            "series_summary": self.series_summary,
            "figures": self.figures,
            "accuracy": self.accuracy,
            "beyond": self.beyond,
            **self.sections,
        }


def _inputs(cells: Cells, config: AnalysisConfig) -> dict[str, Any]:
    f = cells.frame
    settings = sorted(f["setting"].unique().tolist())
    return {
        "cells": len(f),
        "completed": int(f["completed"].sum()),
        "correct": int(f["correct"].sum()),
        "settings": settings,
        "studies": sorted(f["study"].unique().tolist()),
        "pipeline_check": bool(f["pipeline_check"].any()),
        "unknown_task_ids": cells.unknown_task_ids,
        "duplicate_cells": cells.duplicate_cells,
        "high_settings": list(config.high(settings)),
        "cohorts": [asdict(c) for c in config.declared_cohorts(settings, paired_studies(f))],
    }


def analyze_cells(cells: Cells, config: AnalysisConfig | None = None) -> Analysis:
    """Run the paired comparison, the cluster regression, the series tests and the figure data on joined cells."""
    config = config or AnalysisConfig()
    finish_series = start_series_tests(cells.frame, config)  # its shuffles run while the rest is computed
    try:
        reg = cluster_regression(cells.frame, config)
        paired = paired_comparison(cells.frame, config)
    except BaseException:
        finish_series.cancel()
        raise
    series = finish_series()
    studies = list(config.figure_studies or sorted(cells.frame["study"].unique().tolist()))
    return Analysis(
        inputs=_inputs(cells, config),
        config=config,
        paired=paired,
        regression=reg["regression"],
        regression_fits=reg["regression_fits"],
        correlations=reg["correlations"],
        series=series,
        series_summary=series_summary(series),
        figures=figure_data(cells.frame, series, studies, config.level),
    )


def analyze(
    tasks: Iterable[Task],
    grades: Iterable[Grade],
    config: AnalysisConfig | None = None,
    responses: Iterable[Response] | None = None,
) -> Analysis:
    """The full analysis of ``grades`` against ``tasks``, accuracy tables and the analyses beyond the paper
    included; deterministic for a config.

    The paper's analyses and tables use the four-arm tasks only: checkpoint-sweep tasks and their grades
    go to the sweep rows of ``beyond`` alone. The accuracy tables count the joinable grades
    (``joinable_grades``); the others are listed in ``inputs`` (unknown task ids, duplicate cells).
    ``responses`` (the run's records) add the truncation and token tables; without them those are None.
    Then every section of the registry (``SECTIONS``) in order: the rows beyond the paper into ``beyond``, the
    others into ``sections``. The tasks an ``apart`` section applies to (fresh tasks, ``records.is_fresh``; source
    variants, ``records.is_variant``) and their grades enter the ``apart`` sections alone: every other table
    analyses the rest, as if they were not there. The further arms' tasks enter no paper table
    (``records.paper_tasks``), only their own section.
    """
    every_task, every_grade = list(tasks), list(grades)
    config = config or AnalysisConfig()
    apart = apart_ids(every_task)
    tasks = [t for t in every_task if t.task_id not in apart]
    grades = [g for g in every_grade if g.task_id not in apart]
    paper = paper_tasks(tasks)
    sweep_ids = {t.task_id for t in tasks} - {t.task_id for t in paper}
    own = [g for g in grades if g.task_id not in sweep_ids]
    cells = load_cells(paper, own)
    analysis = analyze_cells(cells, config)
    acc = accuracy_tables(paper, joinable_grades(paper, own))
    accuracy = {
        "corpus": acc.corpus,
        "accuracy_by_arm": acc.by_arm,
        "accuracy_by_setting": acc.by_setting,
        "accuracy_by_study": acc.by_study,
    }
    joined = joinable_grades(tasks, grades)
    ids = {t.task_id for t in paper}
    inputs = SectionInputs(
        every_task=every_task,
        every_grade=every_grade,
        tasks=tasks,
        grades=joined,
        paper=paper,
        own=[g for g in joined if g.task_id in ids],
        frame=cells.frame,
        config=config,
        responses=None if responses is None else list(responses),
    )
    beyond, sections = compute_sections(inputs)
    return dataclasses.replace(analysis, accuracy=accuracy, beyond=beyond, sections=sections)


def _clean(value: Any) -> Any:
    """JSON-safe copy: floats rounded to 12 significant digits, NaN/inf -> None, numpy -> Python."""
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float):
        return float(f"{value:.{_SIGNIFICANT}g}") if math.isfinite(value) else None
    return value


def write_analysis_json(analysis: Analysis, path: Path, extra: dict[str, Any] | None = None) -> Path:
    """Write ``analysis.json`` (UTF-8, 1-space indent, stable order); ``extra`` keys are appended."""
    return write_json({**analysis.to_json(), **(extra or {})}, path)


def write_json(payload: dict[str, Any], path: Path) -> Path:
    """Write ``payload`` as ``analysis.json`` is written: floats to 12 significant digits, NaN as null, numpy
    values as Python ones, 1-space indent; the same payload always gives the same bytes."""
    path.write_text(json.dumps(_clean(payload), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
