"""Adaptive testing (issue 54, docs/adaptive.md): ``execstate run --adaptive horizon`` chooses which ladder cell
to send next from the answers so far, until the interval of each setting's execution horizon is narrow enough.

It sits above ``analyze`` (it grades answers and fits the horizon between rounds) and below ``report``; each
round's cells are sent and recorded by the run engine (``run.arun_tasks``), every choice is journalled with its
reason in ``OUT/adaptive.jsonl``.
"""

from execstate.adaptive._design import (
    MIN_ANSWERS_PER_PROGRAM,
    QUICK_GATE,
    STOP_REASONS,
    LadderCell,
    Pick,
    centre_of,
    choose_round,
    ladder_cells,
    program_order,
    stop_reason,
    width_in_reach,
)
from execstate.adaptive._engine import (
    ADAPTIVE_RULES,
    DEFAULT_ROUND,
    AdaptiveOptions,
    AdaptiveSummary,
    SettingOutcome,
    arun_adaptive,
    format_adaptive,
    run_adaptive,
)
from execstate.adaptive._fit import Observation, QuickFit, fit_quick, horizon_interval
from execstate.adaptive._journal import ADAPTIVE_NAME, ADAPTIVE_SCHEMA_VERSION, AdaptiveJournal, AdaptiveRecord

__all__ = [
    "ADAPTIVE_NAME",
    "ADAPTIVE_RULES",
    "ADAPTIVE_SCHEMA_VERSION",
    "DEFAULT_ROUND",
    "MIN_ANSWERS_PER_PROGRAM",
    "QUICK_GATE",
    "STOP_REASONS",
    "AdaptiveJournal",
    "AdaptiveOptions",
    "AdaptiveRecord",
    "AdaptiveSummary",
    "LadderCell",
    "Observation",
    "Pick",
    "QuickFit",
    "SettingOutcome",
    "arun_adaptive",
    "centre_of",
    "choose_round",
    "fit_quick",
    "format_adaptive",
    "horizon_interval",
    "ladder_cells",
    "program_order",
    "run_adaptive",
    "stop_reason",
    "width_in_reach",
]
