"""execstate.leaderboard: several graded runs side by side, with intervals, pairwise tests, cost and budgets."""

from execstate.leaderboard._board import COHORT, Leaderboard, leaderboard
from execstate.leaderboard._cost import cost_rows, reasoning_flag, response_cost
from execstate.leaderboard._page import leaderboard_html, leaderboard_tables, pairwise_matrix
from execstate.leaderboard._runs import Combined, GradedRun, combine_runs, load_graded_run
from execstate.leaderboard._write import LeaderboardFiles, write_leaderboard

__all__ = [
    "COHORT",
    "Combined",
    "GradedRun",
    "Leaderboard",
    "LeaderboardFiles",
    "combine_runs",
    "cost_rows",
    "leaderboard",
    "leaderboard_html",
    "leaderboard_tables",
    "load_graded_run",
    "pairwise_matrix",
    "reasoning_flag",
    "response_cost",
    "write_leaderboard",
]
