"""Ladder tasks made by hand for the adaptive tests (the shape ``execstate build --ladder`` writes)."""

from __future__ import annotations

import hashlib
import math
import random
import re
from functools import partial

from execstate.adaptive import (
    LadderCell,
    Observation,
    QuickFit,
    centre_of,
    choose_round,
    fit_quick,
    horizon_interval,
    ladder_cells,
    stop_reason,
)
from execstate.records import Metrics, Task

_MARK = re.compile(r"print\('P(\d+)R(\d+)'\)")


def ladder_task(program: int, rung: int, *, low: int = 8) -> Task:
    """Rung ``rung`` of program ``p<program>``: counted trace 2^(low + rung), oracle ``<program>-<rung>``; its
    source carries the marker ``P<program>R<rung>`` a scripted server can read."""
    source = f"print('P{program}R{rung}')\n"
    trace = 2 ** (low + rung)
    return Task(
        task_id=f"ladder/p{program}~rung{rung}",
        case_id=f"ladder/p{program}",
        study="classic",
        language="python",
        arm="long-trace-final",
        source=source,
        input=f"{rung}\n",
        oracle=f"{program}-{rung}\n",
        answer_kind="text",
        grading_rule="json-or-tokens",
        source_sha256=hashlib.sha256(source.encode()).hexdigest(),
        metrics=Metrics(trace_length=trace),
        meta={"ladder": {"rung": rung, "target": trace, "trace": trace, "size": rung + 1, "seed": 0}},
    )


def ladder(programs: int, rungs: int, *, low: int = 8) -> list[Task]:
    """``programs`` x ``rungs`` ladder tasks, program-major."""
    return [ladder_task(p, k, low=low) for p in range(programs) for k in range(rungs)]


def marker(text: str) -> tuple[int, int]:
    """(program, rung) of the ladder task a request's text is about."""
    m = _MARK.search(text)
    assert m, f"no ladder marker in {text[:200]!r}"
    return int(m.group(1)), int(m.group(2))


def p_right(log2_trace: float, horizon_log2: float, slope: float) -> float:
    """The known truth of the tests: sigmoid(slope * (horizon - log2 trace))."""
    return 1 / (1 + math.exp(-slope * (horizon_log2 - log2_trace)))


def simulate(
    cells: list[LadderCell],
    horizon_log2: float,
    slope: float,
    *,
    seed: int,
    samples: int,
    target_width: float,
    budget: int,
    round_size: int = 10,
    replicates: int = 0,
) -> tuple[QuickFit, int, str, list[Observation]]:
    """An adaptive run in memory against the known truth ``p_right`` (answers drawn with ``seed``): the final
    quick fit, the calls made, the stop reason and the answers. ``replicates`` > 0: a ``width`` stop is decided by
    the report's interval (``horizon_interval`` with that many bootstrap replicates), as the engine decides it."""
    rng = random.Random(seed)
    observations: list[Observation] = []
    asked: dict[str, int] = {}
    centre = centre_of(cells)
    while True:
        fit = fit_quick(observations, centre)
        exhausted = all(asked.get(c.task_id, 0) >= samples for c in cells)
        confirm = partial(horizon_interval, list(observations), replicates=replicates) if replicates else None
        stop = stop_reason(
            fit,
            cells,
            calls=len(observations),
            budget=budget,
            target_width=target_width,
            exhausted=exhausted,
            confirm=confirm,
        )
        if stop is not None:
            return fit, len(observations), stop, observations
        n = min(round_size, budget - len(observations))
        for pick in choose_round(cells, fit, asked, n, samples=samples, seed=seed):
            asked[pick.cell.task_id] = asked.get(pick.cell.task_id, 0) + 1
            right = rng.random() < p_right(pick.cell.x, horizon_log2, slope)
            observations.append(Observation(pick.cell.x, right, pick.cell.program))


def grid_answers(cells: list[LadderCell], horizon_log2: float, slope: float, *, seed: int) -> list[Observation]:
    """Every cell asked once against the known truth (answers drawn with ``seed``)."""
    rng = random.Random(seed)
    return [Observation(c.x, rng.random() < p_right(c.x, horizon_log2, slope), c.program) for c in cells]


def grid_cells(programs: int, rungs: int, *, low: int = 8) -> list[LadderCell]:
    """The ``LadderCell``s of ``ladder(programs, rungs, low=low)`` (x = low + rung)."""
    return ladder_cells(ladder(programs, rungs, low=low))
