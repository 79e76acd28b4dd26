"""Statistical primitives: cluster bootstrap, rank statistic, permutation test, BH, Wilson.

Every random procedure takes a ``numpy.random.Generator``; callers derive it with
:func:`seeded_rng` from a fixed base seed and a key naming the computation, so
each result depends only on its own data and key, never on evaluation order.
"""

from __future__ import annotations

import hashlib
import importlib
from types import ModuleType

import numpy as np
from scipy import stats


def _accelerator() -> ModuleType | None:
    """The optional C accelerator of the permutation test (setup.py builds it; the same counts without it)."""
    try:
        return importlib.import_module("execstate.analyze._cperm")
    except ImportError:  # pragma: no cover - depends on the build
        return None


_cperm = _accelerator()

# Replicate/shuffle rows per vectorised chunk: bounds memory at ~16 MB per array.
_CHUNK_ELEMENTS = 2_000_000


def seeded_rng(seed: int, *key: str) -> np.random.Generator:
    """A generator determined by ``seed`` and the key strings (stable across processes)."""
    digest = hashlib.sha256("\x1f".join(key).encode("utf-8")).digest()
    return np.random.default_rng([seed, int.from_bytes(digest[:8], "little")])


def _chunks(total: int, width: int) -> list[int]:
    """Split ``total`` rows into chunk sizes so each chunk holds <= _CHUNK_ELEMENTS cells."""
    per = max(1, _CHUNK_ELEMENTS // max(1, width))
    return [min(per, total - start) for start in range(0, total, per)]


def cluster_bootstrap_ratio(
    numerators: np.ndarray, denominators: np.ndarray, replicates: int, rng: np.random.Generator
) -> np.ndarray:
    """Bootstrap replicates of ``sum(num) / sum(den)`` resampling whole clusters.

    ``numerators[g]`` and ``denominators[g]`` are cluster g's totals. Each
    replicate draws G clusters with replacement (G = number of clusters) and
    divides the drawn numerator total by the drawn denominator total.
    Denominators must be positive. Returns an array of ``replicates`` values.
    """
    num = np.asarray(numerators, dtype=float)
    den = np.asarray(denominators, dtype=float)
    if num.shape != den.shape or num.ndim != 1 or num.size == 0:
        raise ValueError("cluster bootstrap needs two equal-length, non-empty 1-d arrays")
    if np.any(den <= 0):
        raise ValueError("cluster bootstrap denominators must be positive (every cluster holds a pair)")
    g = num.size
    out = []
    for size in _chunks(replicates, g):
        idx = rng.integers(0, g, size=(size, g))
        out.append(num[idx].sum(axis=1) / den[idx].sum(axis=1))
    return np.concatenate(out) if out else np.empty(0)


def percentile_interval(values: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """Equal-tailed percentile interval (linear interpolation, numpy's default)."""
    alpha = (1.0 - level) / 2.0
    low, high = np.percentile(values, [100 * alpha, 100 * (1 - alpha)])
    return float(low), float(high)


def _doubled_midranks(x: np.ndarray) -> np.ndarray:
    """Twice the average ranks of ``x`` as exact integers (midranks are multiples of 1/2)."""
    return np.rint(2.0 * stats.rankdata(x, method="average")).astype(np.int64)


def rank_theta(x: np.ndarray, fail: np.ndarray) -> float:
    """theta = P(x_fail > x_success) + P(tie)/2 over all failure-success pairs.

    ``fail`` is a boolean mask; both groups must be non-empty.
    """
    x = np.asarray(x, dtype=float)
    fail = np.asarray(fail, dtype=bool)
    n_f, n_s = int(fail.sum()), int((~fail).sum())
    if n_f == 0 or n_s == 0:
        raise ValueError("theta needs at least one failure and one success")
    return _theta(_doubled_midranks(x), fail, n_f, n_s)


def _theta(r2: np.ndarray, fail: np.ndarray, n_f: int, n_s: int) -> float:
    """theta from doubled midranks (Mann-Whitney U of the failures over n_f * n_s)."""
    u2 = int(r2[fail].sum()) - n_f * (n_f + 1)
    return u2 / (2.0 * n_f * n_s)


def permutation_theta(
    x: np.ndarray, fail: np.ndarray, permutations: int, rng: np.random.Generator
) -> tuple[float, float]:
    """(theta, one-sided p) for one metric; see :func:`permutation_thetas`."""
    return permutation_thetas(np.asarray(x, dtype=float)[None, :], fail, permutations, rng)[0]


def permutation_thetas(
    xs: np.ndarray, fail: np.ndarray, permutations: int, rng: np.random.Generator
) -> list[tuple[float, float]]:
    """(theta, one-sided p) for each row of ``xs`` (metrics of the same observations).

    The outcome labels are shuffled ``permutations`` times (numpy's
    ``Generator.permuted`` shuffles, drawn by the optional C accelerator when
    it is built) and every metric is scored on the same shuffles. p estimates
    P(theta_perm >= theta_obs) as ``(1 + hits) / (1 + permutations)``, which
    never reports 0 and converges to the exact permutation p-value.
    Comparisons are exact: ranks are kept as doubled integers.
    """
    xs = np.atleast_2d(np.asarray(xs, dtype=float))
    fail = np.asarray(fail, dtype=bool)
    r2 = np.stack([_doubled_midranks(x) for x in xs])
    n, n_f = xs.shape[1], int(fail.sum())
    if n_f == 0 or n_f == n:
        raise ValueError("theta needs at least one failure and one success")
    thetas = [_theta(row, fail, n_f, n - n_f) for row in r2]
    # Draw the smaller group: failures' rank sum = total - successes' rank sum.
    use_fail = n_f <= n - n_f
    m = n_f if use_fail else n - n_f
    observed = r2[:, fail].sum(axis=1)
    bound = observed if use_fail else r2.sum(axis=1) - observed
    hits = _permutation_hits(r2, bound, m, use_fail, permutations, rng)
    return [(t, (1.0 + h) / (1.0 + permutations)) for t, h in zip(thetas, hits.tolist())]


def _permutation_hits(
    r2: np.ndarray, bound: np.ndarray, m: int, use_fail: bool, permutations: int, rng: np.random.Generator
) -> np.ndarray:
    """For each row k of ``r2``: how many of ``permutations`` shuffles put a rank sum over their first ``m``
    positions at or beyond ``bound[k]`` (>= when ``use_fail``, else <=).

    The C accelerator draws the very shuffles ``Generator.permuted`` draws below (tests compare the two)
    without materialising them; without it the shuffles are drawn by numpy in chunks."""
    k, n = r2.shape
    hits = np.zeros(k, dtype=np.int64)
    if _cperm is not None:
        with rng.bit_generator.lock:
            _cperm.permutation_hits(
                rng.bit_generator.capsule,
                np.ascontiguousarray(r2, dtype=np.int64),
                np.ascontiguousarray(bound, dtype=np.int64),
                hits,
                n,
                m,
                permutations,
                use_fail,
            )
        return hits
    base = np.arange(n, dtype=np.int32)
    for size in _chunks(permutations, n):
        drawn = rng.permuted(np.broadcast_to(base, (size, n)), axis=1)[:, :m]
        for j in range(k):
            sums = r2[j][drawn].sum(axis=1)
            hits[j] += np.count_nonzero(sums >= bound[j] if use_fail else sums <= bound[j])
    return hits


def benjamini_hochberg(pvalues: np.ndarray) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values (q), in the input order; NaN in, NaN out."""
    p = np.asarray(pvalues, dtype=float)
    q = np.full(p.shape, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    if ok.size == 0:
        return q
    order = ok[np.argsort(p[ok], kind="stable")]
    m = order.size
    scaled = p[order] * m / np.arange(1, m + 1)
    q[order] = np.minimum(1.0, np.minimum.accumulate(scaled[::-1])[::-1])
    return q


def wilson_interval(successes: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion; (nan, nan) when n == 0."""
    if n <= 0:
        return float("nan"), float("nan")
    z = float(stats.norm.ppf(0.5 + level / 2.0))
    phat = successes / n
    denom = 1.0 + z * z / n
    centre = (phat + z * z / (2 * n)) / denom
    half = z * np.sqrt(phat * (1 - phat) / n + z * z / (4 * n * n)) / denom
    # The exact interval always contains phat (bounds 0 at k=0, 1 at k=n); centre -/+ half misses it there by
    # floating-point cancellation (e.g. 5.6e-17 > 0), so the bounds are clamped to phat.
    return float(max(0.0, min(phat, centre - half))), float(min(1.0, max(phat, centre + half)))


def bootstrap_p_value(replicates: np.ndarray, null: float = 0.0) -> float:
    """Two-sided percentile-bootstrap p-value of ``null``: twice the smaller share of replicates on either
    side of it (ties count on both sides), each share as ``(1 + hits) / (1 + replicates)`` like the
    permutation test, capped at 1. It is about the smallest ``1 - level`` at which the equal-tailed
    percentile interval excludes ``null``, so p < 0.05 goes with a 95% interval that does not cover it."""
    r = np.asarray(replicates, dtype=float)
    if r.size == 0:
        raise ValueError("a bootstrap p-value needs at least one replicate")
    tail = min(np.count_nonzero(r <= null), np.count_nonzero(r >= null))
    return float(min(1.0, 2.0 * (1.0 + tail) / (1.0 + r.size)))
