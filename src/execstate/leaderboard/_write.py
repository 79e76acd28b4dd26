"""Write a leaderboard: ``leaderboard.json``, ``tables/`` (CSV, Markdown, JSON), the figure and ``leaderboard.html``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from execstate.analyze import AnalysisConfig, write_json
from execstate.errors import output_dir
from execstate.leaderboard._board import Leaderboard, leaderboard
from execstate.leaderboard._page import accuracy_vs_cost, leaderboard_html, leaderboard_tables
from execstate.leaderboard._runs import combine_runs, load_graded_run
from execstate.tables import write_tables


@dataclass(frozen=True)
class LeaderboardFiles:
    """Where ``write_leaderboard`` wrote, and the numbers it wrote."""

    board: Leaderboard
    json: Path
    html: Path
    tables: list[Path]
    figures: tuple[Path, ...]


def write_leaderboard(
    runs: Sequence[Path | str],
    out_dir: Path | str,
    config: AnalysisConfig | None = None,
    intersect: bool = False,
) -> LeaderboardFiles:
    """Compare graded runs (directories, or their grades files) and write every leaderboard file to ``out_dir``.

    Raises ``UsageError`` (one line, naming the runs and the fix) when the runs planned different tasks
    and ``intersect`` is false, or when one setting name is graded in two runs; ``ExecstateError`` for a
    run directory that cannot be read (``grade.load_run_plan``). Same inputs and config: same bytes.
    """
    combined = combine_runs([load_graded_run(r) for r in runs], intersect)
    board = leaderboard(combined, config)
    out = output_dir(out_dir)
    json_path = write_json(board.to_json(), out / "leaderboard.json")
    tables = leaderboard_tables(board)
    table_paths = write_tables(tables, out / "tables", formats=(".csv", ".md"))
    figure = accuracy_vs_cost(board, out / "figures")
    html_path = out / "leaderboard.html"
    html_path.write_text(leaderboard_html(board, tables, figure, combined.grades), encoding="utf-8", newline="")
    return LeaderboardFiles(board, json_path, html_path, table_paths, figure.paths)
