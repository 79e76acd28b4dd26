"""The leaderboard's numbers: every table, computed by the analyze stage's statistics on combined runs.

Nothing here is a new statistic: accuracy and its intervals are
``analyze.accuracy_intervals``, the short-to-long decrement is
``analyze.paired_comparison`` restricted to the ``all-python`` cohort (the
same rows, keys and bootstrap streams as ``execstate analyze``), the pairwise
matrix is ``analyze.pairwise_differences``, the budget table is
``analyze.budget_rows`` and the language gap (C++ twin minus Python original,
arms pooled) is ``analyze.language_gap``'s ``all`` row. Tasks and grades are
filtered as ``analyze`` filters them: fresh and checkpoint-sweep tasks are left
out, and twin tasks enter the language gap only. The horizon column is the
execution horizon of ``analyze.horizon_rows`` (the final-output arms' fit on
the runs' ladder tasks, docs/horizon.md); empty for a setting without them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from execstate.analyze import (
    AnalysisConfig,
    Cohort,
    accuracy_intervals,
    budget_rows,
    horizon_rows,
    language_gap,
    load_cells,
    paired_comparison,
    pairwise_differences,
    response_frame,
    served_by_setting,
)
from execstate.leaderboard._cost import ALL_ARMS, cost_rows
from execstate.leaderboard._runs import Combined
from execstate.records import Grade, Task, is_fresh, paper_tasks, task_kind

COHORT = "all-python"
"""The paired cohort whose per-setting decrement the leaderboard shows."""
LEADERBOARD_SCHEMA_VERSION = 1
_BUDGET_FIELDS = ("reasoning", "max_output_tokens")
"""Setting fields shown in the budget table beside each row (from the run manifest)."""


@dataclass(frozen=True)
class Leaderboard:
    """Rows of every leaderboard table (plain dicts, keys name what they hold) and what they were made from."""

    inputs: dict[str, Any]
    config: AnalysisConfig
    overall: list[dict[str, Any]]
    """One row per setting, best C/N first: accuracy, decrement, cost, truncation and flags side by side."""
    by_arm: list[dict[str, Any]]
    by_study: list[dict[str, Any]]
    decrement: list[dict[str, Any]]
    pairwise: list[dict[str, Any]]
    cost: list[dict[str, Any]]
    budget: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        tables = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name not in ("inputs", "config")}
        return {
            "schema_version": LEADERBOARD_SCHEMA_VERSION,
            "inputs": self.inputs,
            "config": self.config.to_json(),
            **tables,
        }


def _inputs(c: Combined, n_tasks: int) -> dict[str, Any]:
    return {
        "runs": [
            {
                "path": str(r.path),
                "tasks_sha256": r.tasks_sha256,
                "planned_tasks": len(r.tasks),
                "settings": list(r.settings),
            }
            for r in c.runs
        ],
        "tasks": n_tasks,
        "intersect": c.intersect,
        "dropped_task_ids": c.dropped_task_ids,
        "settings": c.settings,
    }


def _overall(
    acc: list[dict[str, Any]],
    dec: list[dict[str, Any]],
    cost: list[dict[str, Any]],
    budget: list[dict[str, Any]],
    served: dict[str, dict[str, Any]],
    gap: list[dict[str, Any]],
    horizon: dict[str, dict[str, Any]],
) -> list[dict[str, Any]]:
    by = lambda rows: {r["setting"]: r for r in rows if r.get("arm", ALL_ARMS) == ALL_ARMS}
    d, c, b, g = by(dec), by(cost), by(budget), by(gap)
    rows = []
    for a in sorted(acc, key=lambda r: (-(r["acc_planned_pct"] or 0.0), r["setting"])):
        s = a["setting"]
        rows.append(
            {
                **a,
                "decrement_pp": d.get(s, {}).get("decrement_pp"),
                "decrement_low_pp": d.get(s, {}).get("ci_low"),
                "decrement_high_pp": d.get(s, {}).get("ci_high"),
                "truncated_pct": b.get(s, {}).get("truncated_pct"),
                "mean_output_tokens": c.get(s, {}).get("mean_output_tokens"),
                "cost": c.get(s, {}).get("cost"),
                "cost_per_correct": c.get(s, {}).get("cost_per_correct"),
                "flag": c.get(s, {}).get("flag"),
                "served_models": served.get(s, {}).get("served_models"),
                "snapshot_changed": served.get(s, {}).get("snapshot_changed", False),
                "language_gap_pp": g.get(s, {}).get("gap_pp"),
                "language_gap_low_pp": g.get(s, {}).get("ci_low"),
                "language_gap_high_pp": g.get(s, {}).get("ci_high"),
                "horizon": horizon.get(s, {}).get("h50_text"),
                "horizon_log2": horizon.get(s, {}).get("h50_log2"),
            }
        )
    return [{"rank": i + 1, **r} for i, r in enumerate(rows)]


def _horizons(tasks: list[Task], grades: list[Grade], combined: Combined, config: AnalysisConfig) -> dict[str, Any]:
    """Setting -> the horizon fit (``HorizonFit.to_json``) of its final-output answers on the ladder tasks."""
    ladder = [t for t in tasks if task_kind(t) == "ladder"]
    if not ladder:
        return {}
    rows = horizon_rows(ladder, grades, config, combined.responses)
    return {r["setting"]: r["fit"] for r in rows if r["family"] == "final"}


def leaderboard(combined: Combined, config: AnalysisConfig | None = None) -> Leaderboard:
    """Every table of the leaderboard of ``combined`` (``combine_runs``); deterministic for a config."""
    config = config or AnalysisConfig()
    fresh = {t.task_id for t in combined.tasks if is_fresh(t)}
    tasks = paper_tasks([t for t in combined.tasks if t.task_id not in fresh])
    keep = {t.task_id for t in tasks}
    grades = [g for g in combined.grades if g.task_id in keep]
    frame = load_cells(tasks, grades).frame
    acc = accuracy_intervals(frame, config)
    paired = paired_comparison(frame, dataclasses.replace(config, cohorts=(Cohort(COHORT),)))
    decrement = [r for r in paired if r["setting"] != "pooled"]
    cost = cost_rows(tasks, grades, combined.responses, combined.settings)
    budget = [
        {
            "setting": r["setting"],
            "arm": r["arm"],
            **{k: combined.settings[r["setting"]].get(k) for k in _BUDGET_FIELDS},
            **r,
        }
        for r in budget_rows(response_frame(tasks, grades, combined.responses)[0], config.level)
    ]
    gap = language_gap(combined.tasks, combined.grades, config).get("rows", [])
    horizon = _horizons(combined.tasks, combined.grades, combined, config)
    overall = _overall(acc, decrement, cost, budget, served_by_setting(combined.responses), gap, horizon)
    return Leaderboard(
        inputs=_inputs(combined, len(tasks)),
        config=config,
        overall=overall,
        by_arm=accuracy_intervals(frame, config, by="arm"),
        by_study=accuracy_intervals(frame, config, by="study"),
        decrement=decrement,
        pairwise=pairwise_differences(frame, config, order=[r["setting"] for r in overall]),
        cost=cost,
        budget=budget,
    )
