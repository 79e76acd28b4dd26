"""The choice rule and the stop rule of adaptive horizon testing (pure: no files, no network).

Choice: a round of ``n`` cells is picked one at a time. Each pick goes to the program asked least so far
(this round's picks included; ties in a seeded order of the programs, so every program is visited in turn),
and within it to the rung whose answer is expected to shrink the variance of log2 H50 the most under the current
fit (a locally c-optimal sequential design): with ``g = (1/b, -c/b^2)`` the gradient of log2 H50 in (c, b),
``M`` the information (the fit's precision plus the expected information of the cells already picked this
round), ``z = (1, -(x - centre))`` and ``w = p (1 - p)`` the fitted Bernoulli variance at the rung,

    gain(x) = w (g' M^-1 z)^2 / (1 + w z' M^-1 z)

(Sherman-Morrison: the drop of g' M^-1 g when the cell's information is added). A logistic's information does
not depend on the answer, so a whole round is chosen before any of its answers is in: rounds go out together
(batches) without changing the rule. Ties go to the lower rung.

Stop (checked before each round, on every recorded answer): ``width`` when the report's own 95% interval of
log2 H50 (``analyze.fit_horizon``, program-cluster bootstrap) on the answers so far is narrower than the target,
the interval the report will show; it is computed once the quick interval is bounded, within the ladder's log2
trace range and narrower than ``QUICK_GATE`` times the target, with at least ``MIN_ANSWERS_PER_PROGRAM`` answers
per program (``width_in_reach``; without the report's fit the quick interval decides);
``censored-above`` when the 95% interval of the fitted logit at the top rung lies above 0 (right more often
than not on the longest inputs, so H50 is beyond the ladder: docs/horizon.md, a censored horizon) or the whole
interval of log2 H50 lies above the top rung, ``censored-below`` likewise at the lowest rung; ``budget`` when
the setting has made its budget of calls; ``exhausted`` when every cell has been asked its samples.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from execstate.adaptive._fit import MIN_SLOPE, QuickFit
from execstate.analyze import ladder_trace, program_of
from execstate.errors import UsageError
from execstate.records import Task

QUICK_GATE = 1.5
"""The report's interval is computed for a ``width`` stop once the quick interval is narrower than this many
times the target: the quick interval (Fieller's, with the program-cluster sandwich) is wider than the report's
bootstrap interval on the same answers, so requiring it below the target itself made runs go on long after the
report's interval was narrow enough (docs/adaptive.md, "How many calls it saves")."""
MIN_ANSWERS_PER_PROGRAM = 3
"""A ``width`` stop needs at least this many answers per program (on average): the report's interval resamples
whole programs, and with one or two answers each, most of them on one or two rungs near H50, it is often
narrower than the answers' information allows (a slope overestimated by chance), so a run stopping there covers
the horizon less often (docs/adaptive.md: with 2, 16 of 20 seeds at slope 2; with 3, 19 of 20)."""

STOP_REASONS = ("width", "censored-above", "censored-below", "budget", "exhausted")
"""Why a setting's adaptive run ended (docs/adaptive.md)."""


@dataclass(frozen=True)
class LadderCell:
    """One task of a ladder: a program's input at one rung."""

    task_id: str
    program: str
    """The ladder's program (``analyze.program_of``: the case the rung was built from): the cluster of the fit and
    the unit of rotation."""
    rung: int
    x: float
    """log2 of the rung's counted trace length."""


def ladder_cells(tasks: Iterable[Task], arm: str | None = None) -> list[LadderCell]:
    """The ladder rungs among ``tasks`` (tasks with ``meta["ladder"]``) of one arm.

    ``arm`` picks the arm when the ladder has tasks of several; ``UsageError`` naming the fix when there is no
    ladder task, when the arm is ambiguous or has none, or when a rung has no positive trace length."""
    ladder = [t for t in tasks if t.meta.get("ladder")]
    if not ladder:
        raise UsageError(
            "adaptive testing needs ladder tasks (meta.ladder) and the tasks file has none. "
            "Fix: build them with `execstate build --ladder` and pass that tasks.jsonl"
        )
    arms = sorted({t.arm for t in ladder})
    if arm is None and len(arms) > 1:
        raise UsageError(f"the ladder has tasks of arms {arms}. Fix: pass --adaptive-arm with one of them")
    chosen = arm if arm is not None else arms[0]
    cells = []
    for t in ladder:
        if t.arm != chosen:
            continue
        trace = ladder_trace(t)
        if not trace or trace <= 0:
            raise UsageError(
                f"ladder task {t.task_id!r} has no positive counted trace length (meta.ladder.trace). "
                "Fix: rebuild the ladder with `execstate build --ladder`"
            )
        cells.append(LadderCell(t.task_id, program_of(t), int(t.meta["ladder"].get("rung", 0)), math.log2(trace)))
    if not cells:
        raise UsageError(f"the ladder has no task of arm {chosen!r}. Fix: pass --adaptive-arm with one of {arms}")
    return sorted(cells, key=lambda c: (c.program, c.rung, c.task_id))


def centre_of(cells: Sequence[LadderCell]) -> float:
    """The middle of the ladder's log2 trace range (where the fit's prior sits)."""
    return (min(c.x for c in cells) + max(c.x for c in cells)) / 2


def stop_reason(
    fit: QuickFit,
    cells: Sequence[LadderCell],
    *,
    calls: int,
    budget: int,
    target_width: float,
    exhausted: bool,
    confirm: Callable[[], tuple[float, float]] | None = None,
) -> str | None:
    """Which stop rule of the module docstring holds now (the first in ``STOP_REASONS`` order), or ``None``.

    ``confirm`` (called only when ``width_in_reach``) gives the interval a ``width`` stop is decided by: the
    engine passes the report's fit (``horizon_interval``), so the run stops when the interval the report will
    show is narrow enough; without it the quick interval decides."""
    lo, hi = fit.interval
    bottom, top = min(c.x for c in cells), max(c.x for c in cells)
    if width_in_reach(fit, cells, target_width):
        c_lo, c_hi = confirm() if confirm is not None else (lo, hi)
        if c_hi - c_lo < target_width:
            return "width"
    if (math.isfinite(lo) and lo > top) or fit.logit_bounds(top)[0] > 0:
        return "censored-above"
    if (math.isfinite(hi) and hi < bottom) or fit.logit_bounds(bottom)[1] < 0:
        return "censored-below"
    if calls >= budget:
        return "budget"
    if exhausted:
        return "exhausted"
    return None


def width_in_reach(fit: QuickFit, cells: Sequence[LadderCell], target_width: float) -> bool:
    """Whether a ``width`` stop may be checked with the report's interval now: the quick interval is bounded,
    lies within the ladder's log2 trace range and is narrower than ``QUICK_GATE`` times the target, and the fit
    has at least ``MIN_ANSWERS_PER_PROGRAM`` answers per program of the ladder (on average)."""
    lo, hi = fit.interval
    bottom, top = min(c.x for c in cells), max(c.x for c in cells)
    programs = len({c.program for c in cells})
    return (
        fit.width < QUICK_GATE * target_width
        and lo >= bottom
        and hi <= top
        and fit.n >= MIN_ANSWERS_PER_PROGRAM * programs
    )


def program_order(programs: Iterable[str], seed: int) -> list[str]:
    """The seeded order in which programs take turns (the same on any machine)."""
    return sorted(set(programs), key=lambda p: (hashlib.sha256(f"{seed}\x1f{p}".encode()).hexdigest(), p))


@dataclass(frozen=True)
class Pick:
    """One chosen cell and why."""

    cell: LadderCell
    sample: int
    reason: dict[str, Any]


def choose_round(
    cells: Sequence[LadderCell],
    fit: QuickFit,
    asked: Mapping[str, int],
    n: int,
    *,
    samples: int,
    seed: int,
) -> list[Pick]:
    """Up to ``n`` cells by the choice rule of the module docstring; ``asked`` counts each task's asks so far
    (a task is asked at most ``samples`` times, sample ``k`` being its ``k``-th ask)."""
    counts: Counter[str] = Counter(asked)
    per_program: Counter[str] = Counter()
    by_program: dict[str, list[LadderCell]] = {}
    for c in cells:
        by_program.setdefault(c.program, []).append(c)
        per_program[c.program] += counts[c.task_id]
    order = {p: i for i, p in enumerate(program_order(by_program, seed))}
    info = np.array(fit.precision, dtype=float)
    b = max(fit.b, MIN_SLOPE)
    g = np.array([1.0 / b, -fit.c / b**2])
    picks: list[Pick] = []
    for _ in range(n):
        open_programs = [p for p, cs in by_program.items() if any(counts[c.task_id] < samples for c in cs)]
        if not open_programs:
            break
        program = min(open_programs, key=lambda p: (per_program[p], order[p]))
        cov = np.linalg.inv(info)
        best: tuple[float, LadderCell, np.ndarray, float] | None = None
        for c in by_program[program]:
            if counts[c.task_id] >= samples:
                continue
            z = np.array([1.0, -(c.x - fit.centre)])
            p = fit.p_right(c.x)
            weight = p * (1 - p)
            gain = weight * float(g @ cov @ z) ** 2 / (1 + weight * float(z @ cov @ z))
            if best is None or gain > best[0] * (1 + 1e-12):
                best = (gain, c, z, weight)
        assert best is not None
        gain, cell, z, weight = best
        picks.append(
            Pick(
                cell,
                counts[cell.task_id],
                {
                    "rule": "information",
                    "turn_of": program,
                    "p_right": round(fit.p_right(cell.x), 6),
                    "gain": float(f"{gain:.9g}"),
                    "h50_log2": round(fit.h50_log2, 6),
                    "width": round(fit.width, 6) if math.isfinite(fit.width) else None,
                    "answers": fit.n,
                },
            )
        )
        info = info + weight * np.outer(z, z)
        counts[cell.task_id] += 1
        per_program[program] += 1
    return picks
