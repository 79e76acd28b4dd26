"""``execstate analyze``: tasks + grades (or a graded run directory) -> analysis.json, tables, figures, report.html."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from execstate.cli._grade import add_run_or_files

# The analysis defaults, repeated here so that building the parser imports no statistics library;
# tests/test_cli_defaults.py checks that they equal AnalysisConfig's.
SEED, REPLICATES, PERMUTATIONS = 20250101, 10_000, 10_000


COMMANDS: dict[str, str] = {
    "analyze": "statistics, figures and the HTML report of graded tasks",
}
"""This module's commands -> their line in ``execstate --help``, which lists them without building their options."""


def _names(text: str | None) -> tuple[str, ...] | None:
    return None if text is None else tuple(n for n in (s.strip() for s in text.split(",")) if n)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("analyze", help=COMMANDS["analyze"], description=__doc__)
    add_run_or_files(
        p,
        "--grades",
        "grades.jsonl written by `execstate grade`",
        "graded run directory: its planned tasks (tasks file from run_manifest.json) and RUN/grades.jsonl",
    )
    p.add_argument("--out", type=Path, required=True, help="output directory (created if missing)")
    p.add_argument("--seed", type=int, default=SEED, help="base seed (default %(default)s)")
    p.add_argument(
        "--replicates", type=int, default=REPLICATES, help="cluster-bootstrap replicates (default %(default)s)"
    )
    p.add_argument(
        "--permutations", type=int, default=PERMUTATIONS, help="label shuffles per series test (default %(default)s)"
    )
    p.add_argument("--high-settings", help="comma-separated high-reasoning settings (default: names ending in -high)")
    p.add_argument(
        "--exclude-study",
        default=None,
        help="study left out by the sensitivity cohorts and the regression (default: the registered "
        "study whose cases share one source, networkx; '' for none)",
    )
    p.add_argument("--figure-studies", help="comma-separated studies to draw (default: all)")
    p.add_argument(
        "--responses",
        type=Path,
        default=None,
        help="responses.jsonl of the run, for the truncation and token tables (with --run default: RUN's)",
    )
    p.add_argument(
        "--view-link",
        default=None,
        metavar="URL",
        help="the URL of an `execstate view` page over the same run: the report's accuracy tables link each "
        "row into its filtered list of cells (docs/view.md)",
    )
    p.set_defaults(func=handle)


def _inputs(args: argparse.Namespace) -> tuple[Path, Path, set[str] | None]:
    """Tasks file, grades file and (with --run) the planned task ids."""
    from execstate.errors import UsageError, require_file

    if args.run is not None:
        from execstate.grade import load_run_plan

        plan = load_run_plan(args.run, args.tasks)
        return plan.tasks_path, plan.existing_grades(), {t.task_id for t in plan.tasks}
    if args.tasks is None:
        raise UsageError(
            "--grades needs --tasks. Fix: add --tasks TASKS.jsonl, or pass --run RUN_DIR for a graded run directory"
        )
    require_file(args.tasks, "--tasks", "pass the tasks.jsonl that `execstate build` wrote")
    require_file(args.grades, "--grades", "pass the grades.jsonl that `execstate grade` wrote")
    return args.tasks, args.grades, None


def handle(args: argparse.Namespace) -> int:
    tasks, grades, task_ids = _inputs(args)
    from execstate.analyze import AnalysisConfig
    from execstate.errors import require_file
    from execstate.records import RUN_RESPONSES_NAME as RESPONSES_NAME
    from execstate.report import analyze_files

    extra: dict[str, Any] = {} if args.exclude_study is None else {"exclude_study": args.exclude_study or None}
    config = AnalysisConfig(
        seed=args.seed,
        replicates=args.replicates,
        permutations=args.permutations,
        high_settings=_names(args.high_settings),
        figure_studies=_names(args.figure_studies),
        **extra,
    )
    responses = args.responses
    if responses is None and args.run is not None and (args.run / RESPONSES_NAME).is_file():
        responses = args.run / RESPONSES_NAME
    elif responses is not None:
        require_file(responses, "--responses", "pass the responses.jsonl that `execstate run` wrote")
    files = analyze_files(
        tasks, grades, args.out, config, task_ids=task_ids, responses_path=responses, view_link=args.view_link
    )
    print(f"analysis: {files.analysis_json}\nreport:   {files.report_html}")
    return 0
