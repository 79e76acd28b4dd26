"""execstate.analyze stage: the paper's statistics over tasks and grades (SPEC section 10 items 3-5)."""

from execstate.analyze._analysis import Analysis, analyze, analyze_cells, joinable_grades, write_analysis_json
from execstate.analyze._cells import DYNAMIC_METRICS, METRICS, Cells, load_cells
from execstate.analyze._config import AnalysisConfig, BHFamily, Cohort
from execstate.analyze._figures import binned_rates, figure_data, quantile_bins
from execstate.analyze._fresh import fresh_comparison, fresh_pairs, fresh_rows
from execstate.analyze._logit import LogitFit, fit_logit
from execstate.analyze._paired import final_pairs, paired_comparison, paired_difference
from execstate.analyze._regression import MODELS, build_design, cluster_regression, regression_rows
from execstate.analyze._series import series_summary, series_tests
from execstate.analyze._stats import (
    benjamini_hochberg,
    cluster_bootstrap_ratio,
    percentile_interval,
    permutation_theta,
    permutation_thetas,
    rank_theta,
    seeded_rng,
    wilson_interval,
)

__all__ = [
    "DYNAMIC_METRICS",
    "METRICS",
    "MODELS",
    "Analysis",
    "AnalysisConfig",
    "BHFamily",
    "Cells",
    "Cohort",
    "LogitFit",
    "analyze",
    "analyze_cells",
    "benjamini_hochberg",
    "binned_rates",
    "build_design",
    "cluster_bootstrap_ratio",
    "cluster_regression",
    "figure_data",
    "final_pairs",
    "fit_logit",
    "fresh_comparison",
    "fresh_pairs",
    "fresh_rows",
    "joinable_grades",
    "load_cells",
    "paired_comparison",
    "paired_difference",
    "percentile_interval",
    "permutation_theta",
    "permutation_thetas",
    "quantile_bins",
    "rank_theta",
    "regression_rows",
    "seeded_rng",
    "series_summary",
    "series_tests",
    "wilson_interval",
    "write_analysis_json",
]
