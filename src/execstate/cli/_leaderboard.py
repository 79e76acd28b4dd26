"""``execstate leaderboard``: several graded runs -> leaderboard.json, tables, a figure and leaderboard.html."""

from __future__ import annotations

import argparse
from pathlib import Path

from execstate.cli._analyze import REPLICATES, SEED

COMMANDS: dict[str, str] = {
    "leaderboard": "compare graded runs: intervals, pairwise tests, cost, budgets",
}
"""This module's commands -> their line in ``execstate --help``, which lists them without building their options."""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("leaderboard", help=COMMANDS["leaderboard"], description=__doc__)
    p.add_argument("runs", nargs="+", type=Path, metavar="RUN", help="graded run directory (or its grades.jsonl)")
    p.add_argument("--out", type=Path, required=True, help="output directory (created if missing)")
    p.add_argument(
        "--intersect",
        action="store_true",
        help="runs over different tasks: compare on the tasks every run planned (the page says so)",
    )
    p.add_argument("--seed", type=int, default=SEED, help="base seed (default %(default)s)")
    p.add_argument(
        "--replicates", type=int, default=REPLICATES, help="cluster-bootstrap replicates (default %(default)s)"
    )
    p.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    from execstate.analyze import AnalysisConfig
    from execstate.leaderboard import write_leaderboard

    config = AnalysisConfig(seed=args.seed, replicates=args.replicates)
    files = write_leaderboard(args.runs, args.out, config, intersect=args.intersect)
    note = " (on the shared tasks)" if files.board.inputs["intersect"] else ""
    print(f"leaderboard{note}: {files.json}\npage:        {files.html}")
    return 0
