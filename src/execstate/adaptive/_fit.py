"""The quick horizon fit adaptive testing steers by: a pooled logistic in log2 trace with a weak prior.

    P(right | x) = sigmoid(c - b * (x - centre))        x = log2(counted trace length)

fitted by maximum a posteriori (Newton's method) with independent normal priors ``c ~ N(0, PRIOR_SD_C^2)`` and
``b ~ N(PRIOR_MEAN_B, PRIOR_SD_B^2)``, so a fit exists from the first response on (no separation, no infinite
estimate) and the data outweigh the prior after a few dozen responses. The 50% point is

    log2 H50 = centre + c / b

and its 95% interval is Fieller's: the log2 traces ``x`` where ``c - b (x - centre)`` (the fitted logit there)
is within 1.96 standard errors of 0, which is the classical interval of a 50% point (an LD50). Unlike
``estimate +- 1.96 se`` it widens, to unbounded, when the slope is uncertain, so a run cannot stop on a narrow
interval that a lucky slope estimate made. The covariance is the larger (in the variance of log2 H50) of the
model-based one (the inverse Hessian of the log posterior) and the program-cluster sandwich (answers on one
program are not independent when programs differ in difficulty). The fit is cheap (a few 2 x 2 solves), so the
engine refits after every round; the report's horizon (``analyze``, docs/horizon.md) is fitted afresh from the
recorded responses with its own model and bootstrap (``horizon_interval``), which decides a ``width`` stop.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from execstate.analyze import fit_horizon

PRIOR_SD_C = 4.0
"""Prior standard deviation of the logit at the ladder's centre (weak: 4 logits is 2% to 98%)."""
PRIOR_MEAN_B = 1.0
"""Prior mean of the slope: logits lost per doubling of the trace (accuracy falls with length)."""
PRIOR_SD_B = 2.0
"""Prior standard deviation of the slope."""
MIN_SLOPE = 0.05
"""A slope below this (logits per doubling) locates no 50% point: the interval is then unbounded."""
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Observation:
    """One graded response: the cell's log2 trace, whether the answer was right, and its program (the cluster)."""

    x: float
    right: bool
    program: str


@dataclass(frozen=True)
class QuickFit:
    """The fitted curve and the interval of log2 H50 (``math.inf`` width when no 50% point is located)."""

    centre: float
    c: float
    b: float
    cov: tuple[tuple[float, float], tuple[float, float]]
    """Model-based covariance of (c, b): the inverse of ``precision``."""
    precision: tuple[tuple[float, float], tuple[float, float]]
    """Hessian of the negative log posterior at the estimate (the information the choice rule adds to)."""
    spread: tuple[tuple[float, float], tuple[float, float]]
    """Covariance of (c, b) the interval uses: the model-based one or the program-cluster sandwich."""
    n: int

    @property
    def h50_log2(self) -> float:
        """log2 of the 50% point (the slope floored at ``MIN_SLOPE``: an estimate, not to be trusted when flat)."""
        return self.centre + self.c / max(self.b, MIN_SLOPE)

    @property
    def interval(self) -> tuple[float, float]:
        """Fieller's 95% interval of log2 H50 (``(-inf, inf)`` when the slope is not clearly above 0)."""
        (vcc, vcb), (_, vbb) = self.spread
        z2 = Z95**2
        a = self.b**2 - z2 * vbb
        if self.b < MIN_SLOPE or a <= 0:
            return (-math.inf, math.inf)
        half_b = self.c * self.b - z2 * vcb
        disc = half_b**2 - a * (self.c**2 - z2 * vcc)
        root = math.sqrt(max(disc, 0.0))
        return (self.centre + (half_b - root) / a, self.centre + (half_b + root) / a)

    @property
    def width(self) -> float:
        """Width of the 95% interval of log2 H50 (in doublings of the trace)."""
        lo, hi = self.interval
        return hi - lo

    def logit_bounds(self, x: float) -> tuple[float, float]:
        """The 95% interval of the fitted logit at log2 trace ``x`` (under the interval's covariance)."""
        (vcc, vcb), (_, vbb) = self.spread
        d = x - self.centre
        eta = self.c - self.b * d
        half = Z95 * math.sqrt(max(vcc - 2 * d * vcb + d * d * vbb, 0.0))
        return (eta - half, eta + half)

    def p_right(self, x: float) -> float:
        """The fitted probability of a right answer at log2 trace ``x``."""
        return _sigmoid(self.c - self.b * (x - self.centre))


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


def fit_quick(observations: Sequence[Observation], centre: float) -> QuickFit:
    """The MAP fit of the module docstring's model to ``observations`` (any number, none included).

    ``centre`` is the middle of the ladder's log2 traces (the prior is set there); deterministic: the same
    observations in any order give the same fit up to rounding."""
    x = np.array([o.x for o in observations], dtype=float) - centre
    y = np.array([1.0 if o.right else 0.0 for o in observations])
    prior_prec = np.diag([1 / PRIOR_SD_C**2, 1 / PRIOR_SD_B**2])
    prior_mean = np.array([0.0, PRIOR_MEAN_B])
    theta = prior_mean.copy()
    z = np.column_stack([np.ones_like(x), -x])

    def neg_log_post(t: np.ndarray) -> float:
        eta = z @ t
        loglik = float(np.sum(y * eta - np.logaddexp(0.0, eta)))
        d = t - prior_mean
        return -loglik + 0.5 * float(d @ prior_prec @ d)

    current = neg_log_post(theta)
    hess = prior_prec
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(z @ theta)))
        grad = -(z.T @ (y - p)) + prior_prec @ (theta - prior_mean)
        hess = (z.T * (p * (1 - p))) @ z + prior_prec
        step = np.linalg.solve(hess, grad)
        scale = 1.0
        while scale > 1e-6:
            trial = theta - scale * step
            value = neg_log_post(trial)
            if value <= current + 1e-12:
                break
            scale /= 2
        theta, current = trial, value
        if float(np.max(np.abs(scale * step))) < 1e-10:
            break
    p = 1.0 / (1.0 + np.exp(-(z @ theta)))
    hess = (z.T * (p * (1 - p))) @ z + prior_prec
    cov = np.linalg.inv(hess)
    c, b = float(theta[0]), float(theta[1])
    spread = cov
    g = np.array([1.0, -c / max(b, MIN_SLOPE)])  # the direction of log2 H50 (up to the factor 1/b)
    scores: dict[str, np.ndarray] = {}
    for row, o in enumerate(observations):
        scores[o.program] = scores.get(o.program, 0.0) + (y[row] - p[row]) * z[row]
    if len(scores) > 1:
        meat = sum((np.outer(s, s) for s in scores.values()), np.zeros((2, 2)))
        sandwich = cov @ meat @ cov
        if float(g @ sandwich @ g) > float(g @ cov @ g):
            spread = sandwich
    return QuickFit(
        centre=centre,
        c=c,
        b=b,
        cov=_pair(cov),
        precision=_pair(hess),
        spread=_pair(spread),
        n=len(observations),
    )


def _pair(m: np.ndarray) -> tuple[tuple[float, float], tuple[float, float]]:
    return ((float(m[0, 0]), float(m[0, 1])), (float(m[1, 0]), float(m[1, 1])))


def horizon_interval(observations: Sequence[Observation], *, replicates: int = 2000) -> tuple[float, float]:
    """The 95% interval of log2 H50 the report would give for ``observations``: ``analyze.fit_horizon`` (a
    pooled logistic with a program-cluster percentile bootstrap of ``replicates``, seeded by its default seed),
    ``(-inf, inf)`` when it cannot place H50 (inestimable or censored) or a side of its interval is open."""
    fit = fit_horizon(
        [o.x for o in observations],
        [o.right for o in observations],
        [o.program for o in observations],
        replicates=replicates,
    )
    lo, hi = fit.ci50
    if not fit.ok or fit.censored50 or not (math.isfinite(lo) and math.isfinite(hi)):
        return (-math.inf, math.inf)
    return (float(lo), float(hi))
