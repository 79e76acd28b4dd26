"""execstate.analyze stage: the paper's statistics over tasks and grades (SPEC section 10 items 3-5)."""

from execstate.analyze._analysis import (
    Analysis,
    analyze,
    analyze_cells,
    write_analysis_json,
    write_json,
)
from execstate.analyze._beyond import BEYOND_ROWS
from execstate.analyze._cells import DYNAMIC_METRICS, METRICS, Cells, load_cells
from execstate.analyze._compare import accuracy_intervals, pairwise_differences
from execstate.analyze._config import AnalysisConfig, BHFamily, Cohort
from execstate.analyze._figures import binned_rates, figure_data, quantile_bins
from execstate.analyze._fresh import fresh_comparison, fresh_pairs, fresh_rows
from execstate.analyze._further import (
    IMBALANCE_BINS,
    coherence_rows,
    further_arms,
    line_count_rows,
    step_curve_rows,
)
from execstate.analyze._horizon import (
    HorizonFit,
    fit_horizon,
    horizon_cells,
    horizon_rows,
    horizon_section,
    ladder_trace,
    program_of,
    synthetic_truth,
)
from execstate.analyze._logit import LogitFit, fit_logit
from execstate.analyze._paired import final_pairs, paired_comparison, paired_difference, paired_replicates
from execstate.analyze._regression import MODELS, build_design, cluster_regression, regression_rows
from execstate.analyze._section import Section, SectionInputs, joinable_grades
from execstate.analyze._sections import SECTIONS, register_section, sections, unregister_section
from execstate.analyze._series import series_summary, series_tests
from execstate.analyze._stats import (
    benjamini_hochberg,
    bootstrap_p_value,
    cluster_bootstrap_ratio,
    percentile_interval,
    permutation_theta,
    permutation_thetas,
    rank_theta,
    seeded_rng,
    wilson_interval,
)
from execstate.analyze._taxonomy import CLASSES as TAXONOMY_CLASSES
from execstate.analyze._taxonomy import Taxonomy, Verdict, classify, taxonomy
from execstate.analyze._truncation import budget_rows, response_frame, served_by_setting, served_rows, truncation_rows
from execstate.analyze._twins import language_gap, twin_pairs
from execstate.analyze._variants import variant_comparison, variant_pairs, variant_rows

__all__ = [
    "BEYOND_ROWS",
    "DYNAMIC_METRICS",
    "IMBALANCE_BINS",
    "METRICS",
    "MODELS",
    "SECTIONS",
    "TAXONOMY_CLASSES",
    "Analysis",
    "AnalysisConfig",
    "BHFamily",
    "Cells",
    "Cohort",
    "HorizonFit",
    "LogitFit",
    "Section",
    "SectionInputs",
    "Taxonomy",
    "Verdict",
    "accuracy_intervals",
    "analyze",
    "analyze_cells",
    "benjamini_hochberg",
    "binned_rates",
    "bootstrap_p_value",
    "budget_rows",
    "build_design",
    "classify",
    "cluster_bootstrap_ratio",
    "cluster_regression",
    "coherence_rows",
    "figure_data",
    "final_pairs",
    "fit_horizon",
    "fit_logit",
    "fresh_comparison",
    "fresh_pairs",
    "fresh_rows",
    "further_arms",
    "horizon_cells",
    "horizon_rows",
    "horizon_section",
    "joinable_grades",
    "ladder_trace",
    "language_gap",
    "line_count_rows",
    "load_cells",
    "paired_comparison",
    "paired_difference",
    "paired_replicates",
    "pairwise_differences",
    "percentile_interval",
    "permutation_theta",
    "permutation_thetas",
    "program_of",
    "quantile_bins",
    "rank_theta",
    "register_section",
    "regression_rows",
    "response_frame",
    "sections",
    "seeded_rng",
    "series_summary",
    "series_tests",
    "served_by_setting",
    "served_rows",
    "step_curve_rows",
    "synthetic_truth",
    "taxonomy",
    "truncation_rows",
    "twin_pairs",
    "unregister_section",
    "variant_comparison",
    "variant_pairs",
    "variant_rows",
    "wilson_interval",
    "write_analysis_json",
    "write_json",
]
