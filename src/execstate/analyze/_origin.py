"""The paired short- vs long-input comparison split by where the long input came from (``test``, ``generator``,
``synthesized``: ``execstate construct`` records it as ``long_origin`` in each task's provenance).

A synthesized long input is drawn from a shape inferred from a problem's samples, not
written by the problem's authors; this table shows whether the decrement differs with it.
Cases without the mark (hand-written specs) are in no row. Empty without marks.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from execstate.analyze._config import AnalysisConfig
from execstate.analyze._paired import POOLED, _row, final_pairs

ORIGINS = ("test", "generator", "synthesized")


def origin_rows(frame: pd.DataFrame, config: AnalysisConfig) -> list[dict[str, Any]]:
    """One pooled row per long-input origin present, then one per setting; the cohort is the origin."""
    origins = frame.drop_duplicates("case_id").set_index("case_id")["long_origin"]
    pairs = final_pairs(frame)
    pairs = pairs.assign(long_origin=pairs["case_id"].map(origins))
    rows = []
    for origin in ORIGINS:
        subset = pairs[pairs["long_origin"].eq(origin)]
        if subset.empty:
            continue
        rows.append(_row(origin, POOLED, subset, config))
        for setting in sorted(subset["setting"].unique()):
            rows.append(_row(origin, setting, subset[subset["setting"] == setting], config))
    return rows
