"""Logistic fits (statsmodels) with numerical diagnostics and a failure reason instead of a crash.

Two covariances are offered: ``"cluster"`` (CRV1 sandwich clustered by a group
label, finite-sample factor G/(G-1)*(N-1)/(N-p), t with G-1 degrees of
freedom) and ``"wald"`` (the inverse information, normal reference).
"""

from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass, field, replace

import numpy as np
import statsmodels.api as sm
from scipy import stats


@dataclass(frozen=True)
class LogitFit:
    """A fitted logistic model, or the reason it could not be estimated (``status``)."""

    columns: list[str]
    status: str
    """``"ok"`` or ``"inestimable: <reason>"``."""
    params: np.ndarray = field(default_factory=lambda: np.empty(0))
    cov: np.ndarray = field(default_factory=lambda: np.empty((0, 0)))
    df: int | None = None
    """Degrees of freedom of the t reference (cluster); ``None`` for the normal reference."""
    n: int = 0
    clusters: int | None = None
    converged: bool = False
    iterations: int = 0
    condition_number: float | None = None
    """Condition number of the information matrix X'WX at the estimate."""
    max_abs_score: float | None = None
    cov_min_eigenvalue: float | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def critical(self, level: float) -> float:
        """Two-sided critical value of the reference distribution."""
        return _critical(level, self.df)

    def summary(self, j: int, level: float) -> dict[str, float]:
        """coef, se, statistic, p, ci_low, ci_high (on the coefficient scale) for column j."""
        coef, se = float(self.params[j]), float(np.sqrt(self.cov[j, j]))
        stat = coef / se if se > 0 else float("nan")
        tail = stats.t.sf(abs(stat), self.df) if self.df is not None else stats.norm.sf(abs(stat))
        crit = self.critical(level)
        return {
            "coef": coef,
            "se": se,
            "statistic": stat,
            "p": float(2 * tail),
            "ci_low": coef - crit * se,
            "ci_high": coef + crit * se,
        }


@functools.lru_cache(maxsize=256)
def _critical(level: float, df: int | None) -> float:
    """Two-sided critical value of t with ``df`` degrees of freedom (normal when None); cached: the series
    tests ask for the same few hundreds of times and scipy's ppf costs about 0.1 ms a call."""
    q = 0.5 + level / 2.0
    return float(stats.t.ppf(q, df) if df is not None else stats.norm.ppf(q))


def _precheck(y: np.ndarray, groups: np.ndarray | None) -> str | None:
    if y.size == 0:
        return "inestimable: no observations"
    if y.min() == y.max():
        return "inestimable: every observation has the same outcome"
    if groups is not None and np.unique(groups).size < 2:
        return "inestimable: fewer than 2 clusters"
    return None


def fit_logit(
    y: np.ndarray, X: np.ndarray, columns: list[str], groups: np.ndarray | None = None, maxiter: int = 100
) -> LogitFit:
    """Newton maximum likelihood; cluster covariance when ``groups`` is given, else Wald."""
    y = np.asarray(y, dtype=float)
    reason = _precheck(y, groups)
    if reason:
        return LogitFit(columns=columns, status=reason, n=int(y.size))
    if y.size <= np.shape(X)[1]:  # the finite-sample factor (N-1)/(N-p) needs N > p
        return LogitFit(
            columns=columns, n=int(y.size), status=f"inestimable: {y.size} observations for {np.shape(X)[1]} parameters"
        )
    model = sm.Logit(y, X)
    kwargs: dict = {"method": "newton", "maxiter": maxiter, "disp": False}
    if groups is not None:
        codes = np.unique(np.asarray(groups), return_inverse=True)[1]
        kwargs.update(cov_type="cluster", cov_kwds={"groups": codes}, use_t=True)
    with warnings.catch_warnings(record=True) as caught, np.errstate(over="ignore"):
        warnings.simplefilter("always")
        try:
            res = model.fit(**kwargs)
            fit = _wrap(model, res, columns, groups)
        except (np.linalg.LinAlgError, ValueError, ZeroDivisionError) as exc:
            return LogitFit(columns=columns, status=f"inestimable: {type(exc).__name__}: {exc}", n=int(y.size))
    notes = [str(w.message) for w in caught]
    if groups is not None and fit.clusters is not None and fit.clusters <= len(columns):
        notes.append(
            f"only {fit.clusters} clusters for {len(columns)} parameters: the cluster covariance is rank-deficient"
        )
    return replace(fit, warnings=sorted(set(notes)))


def _wrap(model, res, columns: list[str], groups) -> LogitFit:
    params = np.asarray(res.params, dtype=float)
    cov = np.asarray(res.cov_params(), dtype=float)
    info = -model.hessian(params)
    finite = bool(np.all(np.isfinite(params)) and np.all(np.isfinite(cov)))
    return LogitFit(
        columns=columns,
        status="ok" if finite else "inestimable: non-finite estimate",
        params=params,
        cov=cov,
        df=int(res.df_resid_inference) if groups is not None else None,
        n=int(res.nobs),
        clusters=int(np.unique(groups).size) if groups is not None else None,
        converged=bool(res.mle_retvals.get("converged", False)),
        iterations=int(res.mle_retvals.get("iterations", 0)),
        condition_number=float(np.linalg.cond(info)) if finite else None,
        max_abs_score=float(np.max(np.abs(model.score(params)))) if finite else None,
        cov_min_eigenvalue=float(np.linalg.eigvalsh(cov).min()) if finite else None,
    )


def univariate_design(x: np.ndarray) -> np.ndarray:
    """[1, x] design matrix."""
    x = np.asarray(x, dtype=float)
    return np.column_stack([np.ones_like(x), x])
