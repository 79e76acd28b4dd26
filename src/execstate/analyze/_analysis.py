"""The whole analysis of one tasks+grades pair as one record, and its JSON file."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from execstate.analyze._beyond import beyond_paper
from execstate.analyze._cells import Cells, load_cells
from execstate.analyze._config import AnalysisConfig
from execstate.analyze._figures import figure_data
from execstate.analyze._fresh import fresh_comparison
from execstate.analyze._further import further_arms
from execstate.analyze._paired import paired_comparison, paired_studies
from execstate.analyze._regression import cluster_regression
from execstate.analyze._series import series_summary, start_series_tests
from execstate.analyze._variants import variant_comparison
from execstate.grade import accuracy_tables
from execstate.records import Grade, Response, Task, is_fresh, is_variant, paper_tasks

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
    """Analyses beyond the paper (SPEC 11; ``execstate.analyze._beyond``); filled by ``analyze``."""
    fresh: dict[str, Any] = field(default_factory=dict)
    """Published vs fresh inputs (``execstate.analyze._fresh.fresh_comparison``): ``{}`` when no task is
    fresh, and then left out of the JSON, so an analysis without fresh tasks is written as before."""
    further: dict[str, Any] = field(default_factory=dict)
    """The further arms' tables (``execstate.analyze._further.further_arms``: loop-trace step curve, coherence of
    a case's arms, line counts by imbalance): ``{}`` without a loop-trace or line-count task, and then left out
    of the JSON, so an analysis of a build without them is written as before."""
    variants: dict[str, Any] = field(default_factory=dict)
    """Originals vs their source variants (``execstate.analyze._variants.variant_comparison``): ``{}`` when no
    task is a variant, and then left out of the JSON, so an analysis without variants is written as before."""

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
            **({"fresh": self.fresh} if self.fresh else {}),
            **({"further": self.further} if self.further else {}),
            **({"variants": self.variants} if self.variants else {}),
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
    Fresh tasks (``records.is_fresh``) and their grades enter the published-vs-fresh rows (``fresh``) alone:
    every other table analyses the published tasks, as if the fresh ones were not there. Source variants' tasks
    (``records.is_variant``) enter the original-vs-variant rows (``variants``) alone, likewise.
    The further arms' tasks (``records.FURTHER_ARMS``) and their grades enter ``further`` alone.
    """
    tasks, grades = list(tasks), list(grades)
    config = config or AnalysisConfig()
    fresh = fresh_comparison(tasks, grades, config)
    variants = variant_comparison(tasks, grades, config)
    fresh_ids = {t.task_id for t in tasks if is_fresh(t) or is_variant(t)}  # variants: compared apart
    tasks = [t for t in tasks if t.task_id not in fresh_ids]
    grades = [g for g in grades if g.task_id not in fresh_ids]
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
    beyond = beyond_paper(tasks, joined, cells.frame, config, None if responses is None else list(responses))
    further = further_arms(tasks, joined, config)
    return dataclasses.replace(
        analysis, accuracy=accuracy, beyond=beyond, fresh=fresh, further=further, variants=variants
    )


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
