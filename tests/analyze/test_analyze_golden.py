"""Golden tables: the deterministic columns of the paired, regression and series tables on a fixed
synthetic set, as Markdown. A change in counts, estimates, row order or formatting shows up here.

Regenerate (after a deliberate change, and say why in the commit):

    python tests/analyze/test_analyze_golden.py --regenerate

Random columns (bootstrap intervals, permutation p-values) are left out: they
are checked against independent computations in test_analyze_stats.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

from execstate.analyze import AnalysisConfig, analyze
from execstate.tables import make_table, to_markdown
from execstate.testing import synthetic_grades, synthetic_tasks

GOLDEN = Path(__file__).parent / "golden" / "small_tables.md"
STUDIES = (("classic", "python", 12), ("lcb_python", "python", 30), ("networkx", "python", 6))


def render() -> str:
    tasks = synthetic_tasks(11, STUDIES)
    grades = synthetic_grades(tasks, 11, settings={"p-high": -0.5, "q-off": 1.2}, trace_odds_ratio=1.5)
    a = analyze(tasks, grades, AnalysisConfig(replicates=200, permutations=200))
    series = [r for r in a.series if r["arm"] in ("pooled", "long-trace-final")]
    tables = [
        make_table(
            "paired",
            "paired",
            a.paired,
            [
                "cohort",
                "setting",
                "pairs",
                "incomplete_pairs",
                "sources",
                "correct_to_wrong",
                "wrong_to_correct",
                "decrement_pp",
            ],
        ),
        make_table(
            "regression",
            "regression",
            a.regression,
            ["model", "predictor", "n", "clusters", "odds_ratio", "ci_low", "ci_high", "p", "status"],
        ),
        make_table(
            "regression_fits",
            "regression_fits",
            a.regression_fits,
            ["model", "n", "parameters", "converged", "dropped_columns", "separated_levels"],
        ),
        make_table(
            "series",
            "series (pooled and long-trace-final)",
            series,
            [
                "study",
                "setting",
                "arm",
                "metric",
                "n",
                "failures",
                "status",
                "theta",
                "odds_ratio",
                "ci_low",
                "ci_high",
                "p_wald",
            ],
        ),
    ]
    return "\n".join(to_markdown(t) for t in tables)


def test_tables_match_golden():
    assert GOLDEN.exists(), f"missing {GOLDEN}; run: python {Path(__file__).as_posix()} --regenerate"
    assert render() == GOLDEN.read_text(encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] == ["--regenerate"]:
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(render(), encoding="utf-8", newline="")
        print(f"wrote {GOLDEN}")
    else:
        print(__doc__)
