"""The execution horizon (issue 54): the counted trace length at which a setting stops being right.

The tasks are the rungs of input ladders (``records.task_kind == "ladder"``, docs/ladder.md): each program's
inputs put on a dial of counted steps. Per setting (and per arm family, where a ladder asks state arms too) the
correctness of every graded cell is fitted against x = log2 of the rung's counted trace length by one pooled
logistic,

    logit P(right | x) = intercept + slope * x,

whose 50% point log2 H50 = -intercept / slope is the setting's **execution horizon** and whose 80% point is
log2 H80 = (logit 0.8 - intercept) / slope. The program (the ladder's case, ``program_of``) is the cluster: the
95% interval is a percentile interval over a program-cluster bootstrap (whole programs resampled with
replacement, each replicate refitted; seeded, so the same inputs give the same interval).

Censoring: a horizon is a number only inside the traces observed (the lowest to the highest rung). A setting
still right at least half the time at the top rung has a horizon "above" the top rung (censored, written
``> top rung``), one under 50% already at the lowest rung "below"; neither is extrapolated. A bootstrap
replicate whose horizon falls outside the range (or whose accuracy does not fall with the trace) counts as
+-infinity, so an interval bound can be open. docs/horizon.md says why this model and not a per-program one.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from execstate.analyze._config import AnalysisConfig
from execstate.analyze._section import Section, SectionInputs
from execstate.analyze._stats import seeded_rng
from execstate.arms import arm_spec
from execstate.records import CORRECT_STATUSES, Grade, Response, Task, task_kind
from execstate.run.providers.synthetic import set_horizon

FIGURE = "horizon"
LOGIT80 = math.log(4.0)
"""logit(0.8): the log odds at the 80% point."""
_RUNG = re.compile(r"~rung\d+$")
PSEUDO = 0.05
"""Pseudo-answers per program, half right and half wrong, spread evenly over its rungs: a weak pull toward 50%
(one answer in 300 on a 15-rung ladder) that keeps every fit finite when right and wrong answers split
perfectly at one rung (the 50% point then sits at the split, where the data put it) and barely moves it
otherwise, since the pull is toward the 50% line itself."""
_STEP = 5.0
"""The largest Newton step per coefficient (a separated replicate converges without overshooting)."""
_ITERATIONS = 60
_CHUNK = 500_000
"""Bootstrap cells (replicates x aggregated cells) fitted at once: about 4 MB per array of the Newton step."""
BAND_POINTS = 41
"""Points of the fitted curve and its band over the observed range (the report draws them)."""
_COLUMNS = ("setting", "family", "arm", "program", "case_id", "task_id", "rung", "trace", "log2_trace", "sample")


def is_ladder(task: Task) -> bool:
    """True for a rung of an input ladder (``meta["ladder"]``)."""
    return task_kind(task) == "ladder"


def program_of(task: Task) -> str:
    """The ladder's program, every rung of which is one cluster: ``meta["ladder"]["of"]`` (the case the rung was
    built from), else the case id without its ``~rung<k>`` suffix."""
    record = task.meta.get("ladder")
    of = record.get("of") if isinstance(record, dict) else None
    return of if isinstance(of, str) and of else _RUNG.sub("", task.case_id)


def ladder_trace(task: Task) -> int | None:
    """The rung's counted trace length: ``meta["ladder"]["trace"]``, else the task's ``metrics.trace_length``."""
    record = task.meta.get("ladder")
    trace = record.get("trace") if isinstance(record, dict) else None
    if isinstance(trace, int) and not isinstance(trace, bool) and trace > 0:
        return trace
    return task.metrics.trace_length


def _rung(task: Task) -> int | None:
    record = task.meta.get("ladder")
    rung = record.get("rung") if isinstance(record, dict) else None
    return rung if isinstance(rung, int) and not isinstance(rung, bool) else None


def horizon_cells(tasks: Sequence[Task], grades: Sequence[Grade]) -> pd.DataFrame:
    """One row per graded cell of a ladder task with a positive trace (the first grade per cell): columns
    setting, family (the arm's family), arm, program, case_id, task_id, rung, trace, log2_trace, sample,
    completed (not ``no-response``) and correct."""
    by_id = {t.task_id: t for t in tasks if is_ladder(t)}
    rows: list[dict[str, Any]] = []
    seen: set[tuple[str, str, int]] = set()
    for g in grades:
        task = by_id.get(g.task_id)
        key = (g.task_id, g.setting, g.sample)
        trace = ladder_trace(task) if task is not None else None
        if task is None or key in seen or not trace or trace <= 0:
            continue
        seen.add(key)
        rows.append(
            {
                "setting": g.setting,
                "family": arm_spec(task.arm).family,
                "arm": task.arm,
                "program": program_of(task),
                "case_id": task.case_id,
                "task_id": task.task_id,
                "rung": _rung(task),
                "trace": int(trace),
                "log2_trace": math.log2(trace),
                "sample": g.sample,
                "completed": g.status != "no-response",
                "correct": g.status in CORRECT_STATUSES,
            }
        )
    frame = pd.DataFrame(rows, columns=[*_COLUMNS, "completed", "correct"])
    return frame.sort_values(["setting", "family", "task_id", "sample"], kind="stable").reset_index(drop=True)


@dataclass(frozen=True)
class HorizonFit:
    """One horizon fit: the logistic, its 50% and 80% points on the log2 trace scale, their censoring and their
    program-cluster bootstrap intervals (see the module docstring)."""

    status: str
    """``"ok"`` or ``"inestimable: <reason>"``."""
    n: int
    """Cells fitted."""
    clusters: int
    """Programs (bootstrap clusters)."""
    low: float
    """log2 of the lowest trace observed (the bottom of the range a horizon may take)."""
    high: float
    """log2 of the highest trace observed (the top rung)."""
    intercept: float | None = None
    """Log odds of a right answer at trace length 1 (x = 0)."""
    slope: float | None = None
    """Log odds per doubling of the trace (negative: accuracy falls)."""
    h50: float | None = None
    """log2 H50; None when censored or inestimable."""
    h80: float | None = None
    """log2 H80; None when censored or inestimable."""
    censored50: str = ""
    """``""``, ``"above"`` (still >= 50% at the top rung) or ``"below"`` (under 50% at the lowest rung)."""
    censored80: str = ""
    """As ``censored50`` for the 80% point."""
    ci50: tuple[float, float] = (math.nan, math.nan)
    """Percentile interval of log2 H50 over the bootstrap (a bound is -inf/+inf when open; nan without one)."""
    ci80: tuple[float, float] = (math.nan, math.nan)
    replicates: int = 0
    level: float = 0.95
    band: tuple[tuple[float, float, float], ...] = ()
    """The pointwise percentile band of the fitted P(right) over the bootstrap: (log2 trace, low, high) at
    ``BAND_POINTS`` evenly spaced points of the observed range (empty without a bootstrap)."""

    @property
    def ok(self) -> bool:
        """True when the logistic was fitted."""
        return self.status == "ok"

    @property
    def width50(self) -> float:
        """Width of the log2 H50 interval (inf when a side is open, nan without a bootstrap)."""
        return self.ci50[1] - self.ci50[0]

    def p(self, log2_trace: ArrayLike) -> np.ndarray:
        """The fitted P(right) at ``log2_trace``; ``UsageError``-free: nan everywhere when not fitted."""
        x = np.asarray(log2_trace, dtype=float)
        if self.intercept is None or self.slope is None:
            return np.full_like(x, math.nan)
        return 1.0 / (1.0 + np.exp(-(self.intercept + self.slope * x)))

    def to_json(self) -> dict[str, Any]:
        """Plain JSON: log2 values, the traces 2^x, the intervals with ``None`` for an open or missing side."""
        out: dict[str, Any] = {"status": self.status, "n": self.n, "programs": self.clusters}
        out |= {"low_log2": self.low, "high_log2": self.high, "intercept": self.intercept, "slope": self.slope}
        for name, point, censored, ci in (
            ("h50", self.h50, self.censored50, self.ci50),
            ("h80", self.h80, self.censored80, self.ci80),
        ):
            out[f"{name}_log2"] = point
            out[name] = None if point is None else 2.0**point
            out[f"{name}_censored"] = censored
            out[f"{name}_ci_low_log2"] = _finite(ci[0])
            out[f"{name}_ci_high_log2"] = _finite(ci[1])
            out[f"{name}_text"] = horizon_text(point, censored, ci, self.low, self.high)
        return out | {"width50_log2": _finite(self.width50), "replicates": self.replicates, "level": self.level}


def _finite(value: float) -> float | None:
    return float(value) if math.isfinite(value) else None


def horizon_text(point: float | None, censored: str, ci: tuple[float, float], low: float, high: float) -> str:
    """How a horizon reads in tables: ``2^13.2 [2^12.5, 2^13.9]``, ``> top rung (2^21.0)``, ``< lowest rung
    (2^7.0)``; an open interval side reads ``> top`` / ``< lowest``."""
    if censored == "above":
        return f"> top rung (2^{high:.1f})"
    if censored == "below":
        return f"< lowest rung (2^{low:.1f})"
    if point is None:
        return "n/a"
    text = f"2^{point:.1f}"
    if math.isnan(ci[0]):
        return text
    lo = f"2^{ci[0]:.1f}" if math.isfinite(ci[0]) else "< lowest"
    hi = f"2^{ci[1]:.1f}" if math.isfinite(ci[1]) else "> top"
    return f"{text} [{lo}, {hi}]"


def _newton(x: np.ndarray, k: np.ndarray, m: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Weighted binomial logistic fits, one per row of ``w`` (B x cells), of ``k`` right of ``m`` at centred
    ``x``: (intercepts, slopes), each of length B. Vectorised Newton with a capped step."""
    b = w.shape[0]
    a, s = np.zeros(b), np.zeros(b)
    wk, wm = w * k, w * m
    for _ in range(_ITERATIONS):
        eta = a[:, None] + s[:, None] * x[None, :]
        p = 1.0 / (1.0 + np.exp(-np.clip(eta, -40, 40)))
        r = wk - wm * p
        v = wm * p * (1.0 - p)
        g0, g1 = r.sum(1), (r * x).sum(1)
        h00, h01, h11 = v.sum(1), (v * x).sum(1), (v * x * x).sum(1)
        det = h00 * h11 - h01 * h01
        da = np.clip((h11 * g0 - h01 * g1) / det, -_STEP, _STEP)
        ds = np.clip((h00 * g1 - h01 * g0) / det, -_STEP, _STEP)
        a, s = a + da, s + ds
        if max(np.abs(da).max(), np.abs(ds).max()) < 1e-9:
            break
    return a, s


def _points(a: np.ndarray, s: np.ndarray, centre: float, target: float, low: float, high: float) -> np.ndarray:
    """log2 of the trace where the fitted log odds equal ``target``; +inf when above the range (or the
    accuracy does not fall and is >= target at the top), -inf when below."""
    with np.errstate(divide="ignore", invalid="ignore"):
        x = centre + (target - a) / s
    top = a + s * (high - centre)  # log odds at the top rung
    out = np.where(s < 0, x, np.where(top >= target, np.inf, -np.inf))
    out = np.where(out > high, np.inf, out)
    return np.where(out < low, -np.inf, out)


def _interval(values: np.ndarray, level: float, low: float, high: float) -> tuple[float, float]:
    """Equal-tailed percentile interval of ``values`` that may hold +-inf (open sides stay infinite)."""
    span = high - low + 1.0
    finite = np.where(np.isposinf(values), high + 1e3 * span, np.where(np.isneginf(values), low - 1e3 * span, values))
    alpha = (1.0 - level) / 2.0
    lo, hi = (float(q) for q in np.percentile(finite, [100 * alpha, 100 * (1 - alpha)]))
    return (
        -math.inf if lo < low else math.inf if lo > high else lo,
        math.inf if hi > high else -math.inf if hi < low else hi,
    )


def fit_horizon(
    log2_trace: ArrayLike,
    correct: ArrayLike,
    programs: ArrayLike,
    *,
    replicates: int = 2000,
    rng: np.random.Generator | None = None,
    seed: int = 20250101,
    level: float = 0.95,
) -> HorizonFit:
    """The horizon fit of cells at ``log2_trace`` (right where ``correct``), clustered by ``programs``.

    ``replicates`` program-cluster bootstrap replicates (0: the point fit only) drawn from ``rng`` (default
    ``seeded_rng(seed, "horizon")``). Inestimable (``status``) without cells or with fewer than 2 programs or
    2 distinct traces; one outcome throughout is no failure: it is censored (all right: above, all wrong: below).
    """
    x = np.asarray(log2_trace, dtype=float).ravel()
    y = np.asarray(correct, dtype=bool).ravel()
    labels = np.asarray(programs).ravel()
    if not x.size == y.size == labels.size:
        raise ValueError(f"fit_horizon: {x.size} traces, {y.size} outcomes and {labels.size} programs differ")
    if x.size == 0:
        return HorizonFit("inestimable: no cells", 0, 0, math.nan, math.nan, replicates=0, level=level)
    low, high = float(x.min()), float(x.max())
    codes, program_codes = np.unique(labels, return_inverse=True)
    if codes.size < 2 or np.unique(x).size < 2:
        why = "fewer than 2 programs" if codes.size < 2 else "fewer than 2 distinct traces"
        return HorizonFit(f"inestimable: {why}", int(x.size), int(codes.size), low, high, level=level)
    # aggregate to (program, x) binomial cells: the bootstrap reweights programs, so it stays exact
    frame = pd.DataFrame({"g": program_codes, "x": x, "y": y.astype(float)})
    agg = frame.groupby(["g", "x"], sort=True)["y"].agg(["sum", "count"]).reset_index()
    gx, xx = agg["g"].to_numpy(), agg["x"].to_numpy()
    k, m = agg["sum"].to_numpy(), agg["count"].to_numpy().astype(float)
    share = PSEUDO / np.bincount(gx)[gx]  # each program's pseudo-answers, spread over its rungs
    k, m = k + 0.5 * share, m + share
    centre = float(np.average(xx, weights=m))
    xc = xx - centre
    a, s = _newton(xc, k, m, np.ones((1, xc.size)))
    p50 = _points(a, s, centre, 0.0, low, high)[0]
    p80 = _points(a, s, centre, LOGIT80, low, high)[0]
    ci50 = ci80 = (math.nan, math.nan)
    band: tuple[tuple[float, float, float], ...] = ()
    if replicates > 0:
        stream = rng if rng is not None else seeded_rng(seed, "horizon")
        draws = stream.integers(0, codes.size, size=(replicates, codes.size))
        counts = np.stack([np.bincount(row, minlength=codes.size) for row in draws]).astype(float)
        per = max(1, _CHUNK // xc.size)  # replicates per chunk: memory stays bounded, results the same
        fits = [_newton(xc, k, m, counts[i : i + per, gx]) for i in range(0, replicates, per)]
        ba, bs = np.concatenate([f[0] for f in fits]), np.concatenate([f[1] for f in fits])
        ci50 = _interval(_points(ba, bs, centre, 0.0, low, high), level, low, high)
        ci80 = _interval(_points(ba, bs, centre, LOGIT80, low, high), level, low, high)
        band = _band(ba, bs, centre, low, high, level)
    return HorizonFit(
        "ok",
        int(x.size),
        int(codes.size),
        low,
        high,
        intercept=float(a[0] - s[0] * centre),
        slope=float(s[0]),
        h50=float(p50) if math.isfinite(p50) else None,
        h80=float(p80) if math.isfinite(p80) else None,
        censored50=_censored(p50),
        censored80=_censored(p80),
        ci50=ci50,
        ci80=ci80,
        replicates=replicates,
        level=level,
        band=band,
    )


def _band(
    a: np.ndarray, s: np.ndarray, centre: float, low: float, high: float, level: float
) -> tuple[tuple[float, float, float], ...]:
    """(x, low, high) of the replicates' fitted P(right) at ``BAND_POINTS`` points from ``low`` to ``high``."""
    xs = np.linspace(low, high, BAND_POINTS)
    p = 1.0 / (1.0 + np.exp(-np.clip(a[:, None] + s[:, None] * (xs[None, :] - centre), -40, 40)))
    alpha = 100 * (1.0 - level) / 2.0
    lo, hi = np.percentile(p, [alpha, 100 - alpha], axis=0)
    return tuple((float(x), float(u), float(v)) for x, u, v in zip(xs, lo, hi))


def _censored(point: float) -> str:
    return "above" if point == math.inf else "below" if point == -math.inf else ""


def _rungs(cells: pd.DataFrame) -> list[dict[str, Any]]:
    """The rung points of one fit: per rung, the median trace, cells, right answers, accuracy."""
    key = cells["rung"].fillna(-1).astype(int)
    out = []
    for rung, group in cells.groupby(key, sort=True):
        n, right = len(group), int(group["correct"].sum())
        trace = float(np.median(group["trace"]))
        row = {"rung": None if rung < 0 else int(rung), "trace": trace, "log2_trace": math.log2(trace)}
        out.append(row | {"cells": n, "right": right, "accuracy_pct": 100.0 * right / n})
    return out


def synthetic_truth(responses: Sequence[Response] | None) -> dict[str, dict[str, float]]:
    """The set horizon of every synthetic setting that has one: setting -> ``{"horizon", "slope"}``, read from
    its responses' ``model`` (``synthetic(..., horizon=H, horizon_slope=S)``)."""
    truth: dict[str, dict[str, float]] = {}
    for r in responses or ():
        if r.setting not in truth and r.provider == "synthetic" and r.model:
            found = set_horizon(r.model)
            if found is not None:
                truth[r.setting] = {"horizon": found[0], "slope": found[1]}
    return truth


def horizon_rows(
    tasks: Sequence[Task],
    grades: Sequence[Grade],
    config: AnalysisConfig,
    responses: Sequence[Response] | None = None,
) -> list[dict[str, Any]]:
    """One row per setting x arm family with graded ladder cells (sorted): counts, the fit (``HorizonFit.to_json``),
    the rung points, a curve to draw, and for a synthetic setting with a set horizon, that horizon (``set_h50``,
    its log2) and whether the interval covers it. No-response cells are left out of the fit (counted)."""
    cells = horizon_cells(tasks, grades)
    truth = synthetic_truth(responses)
    rows = []
    for (setting, family), group in cells.groupby(["setting", "family"], sort=True):
        done = group[group["completed"]]
        fit = fit_horizon(
            done["log2_trace"],
            done["correct"],
            done["program"],
            replicates=config.replicates,
            rng=seeded_rng(config.seed, "horizon", str(setting), str(family)),
            level=config.level,
        )
        row: dict[str, Any] = {"setting": setting, "family": family, "cells": len(group)}
        row |= {"no_response": int((~group["completed"]).sum()), "rungs": _rungs(done)}
        row |= {"fit": fit.to_json(), "curve": _curve(fit)}
        known = truth.get(str(setting))
        if known is not None and family == "final":
            log2h = math.log2(known["horizon"])
            lo, hi = fit.ci50
            row |= {"set_h50": known["horizon"], "set_h50_log2": log2h, "set_slope": known["slope"]}
            row["covered"] = bool(lo <= log2h <= hi) if not math.isnan(lo) else None
        rows.append(row)
    return rows


def _curve(fit: HorizonFit) -> list[list[float | None]]:
    """The fitted curve over the observed range: [log2 trace, P(right), band low, band high] at ``BAND_POINTS``
    points (the band None without a bootstrap; empty when not fitted)."""
    if not fit.ok:
        return []
    xs = np.linspace(fit.low, fit.high, BAND_POINTS)
    if not fit.band:
        return [[float(x), float(p), None, None] for x, p in zip(xs, fit.p(xs))]
    return [[float(x), float(p), lo, hi] for x, p, (_, lo, hi) in zip(xs, fit.p(xs), fit.band)]


def horizon_section(
    tasks: Sequence[Task], grades: Sequence[Grade], config: AnalysisConfig, responses: Sequence[Response] | None
) -> dict[str, Any]:
    """``tasks`` (ladder tasks), ``programs``, ``rows`` (``horizon_rows``) and ``figures`` (the horizon figure's
    data); ``{}`` without ladder tasks, so an analysis without a ladder is written as before."""
    ladder = [t for t in tasks if is_ladder(t)]
    if not ladder:
        return {}
    rows = horizon_rows(ladder, grades, config, responses)
    return {
        "tasks": len(ladder),
        "programs": len({program_of(t) for t in ladder}),
        "rows": rows,
        "figures": {FIGURE: {"figure": FIGURE, "level": config.level, "rows": rows}} if rows else {},
    }


def _section_data(d: SectionInputs) -> dict[str, Any]:
    """``horizon_section`` of the ladder tasks (they enter this section alone: ``apart``)."""
    return horizon_section(d.mine, d.mine_grades, d.config, d.responses)


SECTION = Section("horizon", "Execution horizon", _section_data, applies=is_ladder, apart=True)
"""The execution-horizon section: ladder tasks enter it alone (``apart``), so the paper's tables are as before."""
