"""Statistical primitives checked against independent computations (scipy, statsmodels, enumeration)."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

from execstate.analyze import (
    benjamini_hochberg,
    cluster_bootstrap_ratio,
    percentile_interval,
    permutation_theta,
    permutation_thetas,
    rank_theta,
    seeded_rng,
    wilson_interval,
)


def _clusters(seed: int, g: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-cluster summed short-minus-long diffs and pair counts, with real between-cluster spread."""
    rng = np.random.default_rng(seed)
    den = rng.integers(1, 9, size=g)
    rate = rng.uniform(-0.2, 0.7, size=g)
    num = np.array([rng.binomial(n, max(r, 0)) - rng.binomial(n, max(-r, 0)) for n, r in zip(den, rate)])
    return num.astype(float), den.astype(float)


def test_cluster_bootstrap_matches_scipy_bootstrap_over_clusters():
    num, den = _clusters(1, 40)
    ours = percentile_interval(cluster_bootstrap_ratio(num, den, 10_000, np.random.default_rng(7)))
    ref = stats.bootstrap(
        (num, den),
        lambda n, d, axis=-1: n.sum(axis=axis) / d.sum(axis=axis),
        paired=True,
        vectorized=True,
        n_resamples=10_000,
        method="percentile",
        confidence_level=0.95,
        random_state=np.random.default_rng(8),
    )
    width = ref.confidence_interval.high - ref.confidence_interval.low
    assert width > 0.05
    assert ours[0] == pytest.approx(ref.confidence_interval.low, abs=0.06 * width)
    assert ours[1] == pytest.approx(ref.confidence_interval.high, abs=0.06 * width)


def test_cluster_bootstrap_distribution_matches_exact_enumeration():
    num, den = np.array([3.0, -1.0, 0.0]), np.array([4.0, 1.0, 2.0])
    exact: Counter[float] = Counter()
    for draw in itertools.product(range(3), repeat=3):  # every ordered resample, each 1/27
        exact[round(num[list(draw)].sum() / den[list(draw)].sum(), 12)] += 1
    reps = cluster_bootstrap_ratio(num, den, 54_000, np.random.default_rng(3))
    seen = Counter(np.round(reps, 12).tolist())
    assert set(seen) == set(exact)
    for value, count in exact.items():
        assert seen[value] / reps.size == pytest.approx(count / 27, abs=0.006)


def test_cluster_bootstrap_keeps_clusters_whole():
    # Every cluster has the same ratio, so any resample of whole clusters gives exactly that ratio;
    # resampling single pairs would not.
    reps = cluster_bootstrap_ratio(np.array([1.0, 2.0, 5.0]), np.array([2.0, 4.0, 10.0]), 500, np.random.default_rng(0))
    assert np.allclose(reps, 0.5)


def test_cluster_bootstrap_rejects_empty_clusters():
    with pytest.raises(ValueError, match="positive"):
        cluster_bootstrap_ratio(np.array([1.0]), np.array([0.0]), 10, np.random.default_rng(0))


def _brute_theta(x, fail):
    f, s = x[fail], x[~fail]
    return np.mean([(a > b) + 0.5 * (a == b) for a in f for b in s])


def test_rank_theta_matches_pairwise_definition_with_ties():
    rng = np.random.default_rng(5)
    x = rng.integers(0, 6, size=40).astype(float)
    fail = rng.random(40) < 0.4
    assert rank_theta(x, fail) == pytest.approx(_brute_theta(x, fail), abs=1e-12)


def test_permutation_p_matches_exact_enumeration():
    x = np.array([1, 2, 2, 3, 5, 5, 5, 8, 9, 13, 21, 34], dtype=float)
    fail = np.array([0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0], dtype=bool)
    observed = rank_theta(x, fail)
    subsets = list(itertools.combinations(range(x.size), int(fail.sum())))
    exact = 0
    for subset in subsets:
        mask = np.zeros(x.size, dtype=bool)
        mask[list(subset)] = True
        exact += rank_theta(x, mask) >= observed - 1e-12
    p_exact = exact / len(subsets)
    b = 40_000
    theta, p = permutation_theta(x, fail, b, np.random.default_rng(11))
    assert theta == pytest.approx(observed)
    assert 0.05 < p_exact < 0.95  # a p-value with room to be wrong either way
    assert p == pytest.approx(p_exact, abs=4 * np.sqrt(p_exact * (1 - p_exact) / b) + 1 / b)


def test_permutation_with_more_failures_than_successes_uses_complement_correctly():
    x = np.arange(10, dtype=float)
    fail = np.array([0, 1, 1, 1, 1, 1, 1, 1, 0, 1], dtype=bool)  # 8 failures, 2 successes
    subsets = list(itertools.combinations(range(10), 8))
    obs = rank_theta(x, fail)
    p_exact = np.mean([rank_theta(x, np.isin(np.arange(10), s)) >= obs - 1e-12 for s in subsets])
    _, p = permutation_theta(x, fail, 20_000, np.random.default_rng(2))
    assert p == pytest.approx(p_exact, abs=0.01)


def test_shared_shuffles_equal_single_metric_runs():
    rng = np.random.default_rng(9)
    xs = rng.lognormal(size=(3, 60))
    fail = rng.random(60) < 0.3
    together = permutation_thetas(xs, fail, 2000, seeded_rng(1, "k"))
    for x, result in zip(xs, together):
        assert permutation_theta(x, fail, 2000, seeded_rng(1, "k")) == result


def test_seeded_rng_is_stable_and_keyed():
    a = seeded_rng(3, "paired", "x").integers(0, 1 << 30, 4)
    assert np.array_equal(a, seeded_rng(3, "paired", "x").integers(0, 1 << 30, 4))
    assert not np.array_equal(a, seeded_rng(3, "paired", "y").integers(0, 1 << 30, 4))


def test_benjamini_hochberg_matches_statsmodels():
    p = np.array([0.001, 0.04, 0.03, 0.2, 0.5, 0.012, 0.049, 0.9, 0.0001, 0.04])
    ours = benjamini_hochberg(p)
    reject, ref, _, _ = multipletests(p, alpha=0.05, method="fdr_bh")
    assert np.allclose(ours, ref)
    assert np.array_equal(ours <= 0.05, reject)


def test_benjamini_hochberg_leaves_non_members_out():
    p = np.array([0.01, np.nan, 0.04, 0.03])
    ours = benjamini_hochberg(p)
    assert np.isnan(ours[1])
    assert np.allclose(ours[[0, 2, 3]], multipletests(p[[0, 2, 3]], method="fdr_bh")[1])


@pytest.mark.parametrize("k,n", [(0, 10), (3, 10), (10, 10), (1, 1), (57, 120), (499, 500)])
def test_wilson_matches_statsmodels(k, n):
    low, high = proportion_confint(k, n, alpha=0.05, method="wilson")
    assert wilson_interval(k, n) == pytest.approx((low, high), abs=1e-12)


@pytest.mark.parametrize("n", [3, 10, 12, 13, 14, 25, 199])
def test_wilson_bounds_are_exact_at_the_extremes(n):
    """k = 0 and k = n: the interval reaches the rate exactly (no 5.6e-17 lower bound, no 0.9999999999999999)."""
    assert wilson_interval(0, n)[0] == 0.0 and wilson_interval(n, n)[1] == 1.0
    assert all(lo <= k / n <= hi for k in range(n + 1) for lo, hi in [wilson_interval(k, n)])


def test_wilson_of_nothing_is_undefined():
    assert all(np.isnan(wilson_interval(0, 0)))


def test_logit_with_no_residual_degrees_of_freedom_is_inestimable_not_an_error():
    from execstate.analyze import fit_logit

    y = np.array([0.0, 1.0, 1.0])
    X = np.column_stack([np.ones(3), [1.0, 2.0, 4.0], [0.0, 1.0, 0.0]])
    fit = fit_logit(y, X, ["const", "a", "b"], groups=np.array([0, 1, 2]))
    assert fit.status.startswith("inestimable") and "3 observations for 3 parameters" in fit.status


@pytest.mark.parametrize("seed", range(40))
def test_c_permutation_counts_equal_numpys_shuffles(seed, monkeypatch):
    """The C accelerator draws numpy's own shuffles (Generator.permuted): same hits, same generator state after."""
    from execstate.analyze import _stats

    if _stats._cperm is None:
        pytest.skip("the _cperm accelerator is not built (setup.py builds it; without it numpy runs)")
    pick = np.random.default_rng(seed)
    n = int(pick.integers(1, 300)) if seed else 1
    k, m = int(pick.integers(1, 4)), int(pick.integers(0, n + 1))
    r2 = pick.integers(0, 2 * n, size=(k, n))
    bound = pick.integers(0, 2 * n * max(m, 1), size=k)
    use_fail, permutations = bool(seed % 2), int(pick.integers(0, 2500))
    fast, slow = seeded_rng(seed, "c"), seeded_rng(seed, "c")
    hits = _stats._permutation_hits(r2, bound, m, use_fail, permutations, fast)
    monkeypatch.setattr(_stats, "_cperm", None)
    assert np.array_equal(hits, _stats._permutation_hits(r2, bound, m, use_fail, permutations, slow))
    assert fast.bit_generator.state == slow.bit_generator.state


def test_c_permutation_p_values_equal_numpys_on_tied_metrics(monkeypatch):
    from execstate.analyze import _stats

    rng = np.random.default_rng(4)
    xs = rng.integers(1, 6, size=(3, 90)).astype(float)  # many ties: midranks are halves
    fail = rng.random(90) < 0.7  # more failures than successes: the complement is drawn
    fast = permutation_thetas(xs, fail, 5000, seeded_rng(1, "t"))
    monkeypatch.setattr(_stats, "_cperm", None)
    assert fast == permutation_thetas(xs, fail, 5000, seeded_rng(1, "t"))
