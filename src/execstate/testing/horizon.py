"""Synthetic input ladders answered with a set execution horizon: known truth for the horizon fit.

``synthetic_ladder`` makes ladder tasks by hand (``meta["ladder"]`` as ``build --ladder`` writes it, ids
``<case>~rung<k>/long-trace-final``), one rung per power of ``ratio`` between 2^low and 2^high events, each
rung's trace a little off its target as a real ladder's is. ``synthetic_grades`` answers them with the synthetic
provider's own chance and draw (``SyntheticProvider.p_correct`` and the cell's ``"correct"`` draw, the same
numbers a ``run`` with ``synthetic_horizon`` uses), so the fitted horizon has a known value: log2 of
``horizon``. Nothing here is a model's result. Used by tests, ``benchmarks/horizon.py`` and adaptive testing's
benchmark.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence

import numpy as np

from execstate.analyze import AnalysisConfig, HorizonFit, fit_horizon, horizon_cells
from execstate.arms import arm_specs
from execstate.records import Grade, Metrics, Task
from execstate.run.providers.synthetic import HORIZON_SLOPE, CellDraws, SyntheticProvider
from execstate.studies import default_grading_rule

TOLERANCE = 1.25
"""How far a synthetic rung's trace may be from its target (a factor), as a real ladder's rung may."""


def synthetic_ladder(
    programs: int = 20, low: int = 7, high: int = 21, ratio: float = 2.0, seed: int = 0, arm: str | None = None
) -> list[Task]:
    """Ladder tasks of ``programs`` synthetic programs, a rung per target 2^low, 2^low * ratio, ... <= 2^high,
    each rung's counted trace the target times a seeded factor within ``TOLERANCE``; ``arm`` defaults to the
    final-output arm on the long input (the arm every rung of a real ladder has)."""
    if programs < 1 or high < low or ratio <= 1:
        raise ValueError(
            f"synthetic_ladder: need programs >= 1, high >= low, ratio > 1; got {programs}, {low}, {high}, {ratio}"
        )
    arm = arm or next(s.name for s in arm_specs(group="paper", family="final") if s.input_name == "long")
    rng = np.random.default_rng([seed, programs, low, high])
    steps = math.floor(math.log(2**high / 2**low, ratio) + 1e-9) + 1
    tasks = []
    for p in range(programs):
        case = f"classic/synthetic{p:03d}"
        source = f"# synthetic ladder program {p}\nn = int(input())\nprint(sum(range(n)))\n"
        sha = hashlib.sha256(source.encode()).hexdigest()
        for k in range(steps):
            target = round(2**low * ratio**k)
            trace = max(1, round(target * TOLERANCE ** rng.uniform(-1, 1)))
            size = max(1, trace // 3)
            tasks.append(
                Task(
                    task_id=f"{case}~rung{k}/{arm}",
                    case_id=f"{case}~rung{k}",
                    study="classic",
                    language="python",
                    arm=arm,
                    source=source,
                    input=f"{size}\n",
                    oracle=f"{size * (size - 1) // 2}\n",
                    answer_kind="text",
                    grading_rule=default_grading_rule("classic"),
                    source_sha256=sha,
                    metrics=Metrics(trace_length=trace),
                    meta={"ladder": {"rung": k, "target": target, "trace": trace, "size": size, "seed": seed}},
                )
            )
    return tasks


def synthetic_grades(
    tasks: Sequence[Task],
    *,
    horizon: float,
    slope: float = HORIZON_SLOPE,
    setting: str = "synthetic-horizon",
    samples: int = 1,
) -> list[Grade]:
    """One grade per task x sample: right exactly when the synthetic provider of ``setting`` with this horizon
    would answer right (its chance, its seeded ``"correct"`` draw), graded ``correct-valid`` or ``wrong-valid``."""
    provider = SyntheticProvider(setting, horizon=horizon, horizon_slope=slope)
    grades = []
    for task in tasks:
        chance = provider.p_correct(task)
        for sample in range(samples):
            right = CellDraws(provider, task, sample).uniform("correct") < chance
            grades.append(
                Grade(
                    task_id=task.task_id,
                    setting=setting,
                    sample=sample,
                    status="correct-valid" if right else "wrong-valid",
                    envelope_valid=True,
                    answer=task.oracle if right else "wrong",
                    rule=task.grading_rule,
                )
            )
    return grades


def grid_fit(
    tasks: Sequence[Task], grades: Sequence[Grade], *, replicates: int = 2000, seed: int = AnalysisConfig.seed
) -> HorizonFit:
    """The horizon fit of one setting's graded ladder cells (every cell of ``grades``; one setting expected)."""
    cells = horizon_cells(tasks, grades)
    if cells["setting"].nunique() > 1:
        raise ValueError(f"grid_fit: grades of {cells['setting'].nunique()} settings; pass one setting's grades")
    done = cells[cells["completed"]]
    return fit_horizon(done["log2_trace"], done["correct"], done["program"], replicates=replicates, seed=seed)
