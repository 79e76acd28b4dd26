"""Command line of the grade stage: ``grade``, ``tables``, ``cruxeval-score``."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

COMMANDS: dict[str, str] = {
    "grade": "grade responses against tasks (SPEC 9): one grade per planned cell",
    "tables": "accuracy tables (SPEC 10 items 1-2) as CSV, JSON and Markdown",
    "cruxeval-score": "re-score a CRUXEval generations file: pass@1 and pass@5",
}
"""This module's commands -> their line in ``execstate --help``, which lists them without building their options."""


def add_run_or_files(p: argparse.ArgumentParser, flag: str, file_help: str, run_help: str) -> None:
    """``--run RUN`` or ``FLAG FILE`` (exactly one), and ``--tasks`` (with --run: default the manifest's)."""
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--run", type=Path, help=run_help)
    source.add_argument(flag, type=Path, help=f"{file_help}; needs --tasks")
    p.add_argument(
        "--tasks",
        type=Path,
        help="tasks.jsonl written by `execstate build` (with --run default: the "
        "tasks file its run_manifest.json names)",
    )


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the grade stage's subcommands to the ``execstate`` parser."""
    p = subparsers.add_parser("grade", help=COMMANDS["grade"])
    add_run_or_files(
        p,
        "--responses",
        "responses.jsonl (Response records)",
        "run directory: grade exactly the cells its run_manifest.json planned (a --limit run included)",
    )
    p.add_argument("--out", type=Path, help="grades.jsonl to write (with --run default: RUN/grades.jsonl)")
    p.add_argument("--settings", help="comma-separated planned settings (default: those in the responses)")
    p.add_argument("--samples", type=int, help="planned samples per cell (default: 1 + highest sample seen)")
    p.set_defaults(func=_grade)

    p = subparsers.add_parser("tables", help=COMMANDS["tables"])
    add_run_or_files(
        p,
        "--grades",
        "grades.jsonl from `execstate grade`",
        "graded run directory: its tasks (from the manifest, the planned ones) and RUN/grades.jsonl",
    )
    p.add_argument("--out", type=Path, help="directory to write the tables into (with --run default: RUN/tables)")
    p.set_defaults(func=_tables)

    p = subparsers.add_parser("cruxeval-score", help=COMMANDS["cruxeval-score"])
    p.add_argument(
        "generations",
        type=Path,
        help='JSON object {sample_id: [generation, ...]}, or the leaderboard\'s {"raw_generations": {...}, ...}',
    )
    p.add_argument(
        "--mode",
        choices=("literal", "upstream"),
        default="literal",
        help="literal (default): compare literals, execute nothing (--task input: parse each generation as a "
        "call of f with literal arguments and run f in the sandbox); upstream: CRUXEval's own check, "
        "`assert <output> == <generation>` run in the sandbox, with its f(<input>) rule (input: its f( rule). "
        "Whatever runs, runs under PYTHONHASHSEED 0 to 7 (GRADE_HASH_SEEDS) and is right only if right under all "
        "eight; the report counts the others (seed_dependent) and lists them (seed_dependent_generations)",
    )
    p.add_argument(
        "--task",
        choices=("output", "input"),
        default="output",
        help="output (default): CRUXEval-O generations (output literals); input: CRUXEval-I generations (calls f(...))",
    )
    p.add_argument("--data", type=Path, help="cruxeval.jsonl (default: the copy bundled with execstate)")
    p.add_argument("--out", type=Path, help="also write a scored file in CRUXEval's format")
    p.set_defaults(func=_cruxeval_score)


def _missing(args: argparse.Namespace, form: str, *names: str) -> None:
    from execstate.errors import UsageError

    absent = [f"--{n}" for n in names if getattr(args, n) is None]
    if absent:
        raise UsageError(f"{form} needs {' and '.join(absent)}. Fix: add them, or pass --run RUN_DIR instead")


def _grade(args: argparse.Namespace) -> int:
    if args.run is not None:
        return _grade_run(args)
    from execstate.errors import PlanError, require_file
    from execstate.grade import GradePlanError, grade_all
    from execstate.records import Response, Task, read_jsonl

    _missing(args, "--responses", "tasks", "out")
    require_file(args.tasks, "--tasks", "pass the tasks.jsonl that `execstate build` wrote")
    require_file(args.responses, "--responses", "pass the responses.jsonl in the directory `execstate run` wrote")
    settings = [s.strip() for s in args.settings.split(",") if s.strip()] if args.settings else None
    tasks = list(read_jsonl(args.tasks, Task))
    responses = list(read_jsonl(args.responses, Response))
    try:
        grades = grade_all(tasks, responses, settings=settings, samples=args.samples)
    except GradePlanError as exc:
        if not exc.missing:
            raise
        raise PlanError(str(exc) + _partial_hint(args.responses)) from None
    return _written(grades, args.out)


def _partial_hint(responses: Path) -> str:
    from execstate.records import RUN_MANIFEST_NAME

    run_dir = responses.parent
    here = f" (here: --run {run_dir})" if (run_dir / RUN_MANIFEST_NAME).is_file() else ""
    return (
        ". Fix: to grade only the cells a run planned (e.g. a --limit run), pass --run RUN_DIR instead of "
        f"--responses{here}"
    )


def _grade_run(args: argparse.Namespace) -> int:
    from execstate.errors import UsageError
    from execstate.grade import GRADES_NAME, grade_run
    from execstate.records import RUN_MANIFEST_NAME

    if args.settings is not None or args.samples is not None:
        raise UsageError(
            "--settings and --samples apply to --responses; with --run the plan comes from "
            f"{args.run / RUN_MANIFEST_NAME}. Fix: drop them"
        )
    result = grade_run(args.run, args.tasks)
    return _written(result.grades, args.out or args.run / GRADES_NAME)


def _written(grades: list, out: Path) -> int:
    from execstate.errors import output_file
    from execstate.records import write_jsonl

    write_jsonl(output_file(out), grades)
    counts = Counter(g.status for g in grades)
    summary = ", ".join(f"{s} {n}" for s, n in sorted(counts.items()))
    print(f"graded {len(grades)} cells -> {out} ({summary})", file=sys.stderr)
    return 0


def _tables(args: argparse.Namespace) -> int:
    from execstate.errors import require_file
    from execstate.grade import accuracy_tables, load_run_plan, print_tables, write_tables
    from execstate.records import Grade, Task, read_jsonl

    if args.run is None:
        _missing(args, "--grades", "tasks", "out")
        require_file(args.tasks, "--tasks", "pass the tasks.jsonl that `execstate build` wrote")
        require_file(args.grades, "--grades", "pass the grades.jsonl that `execstate grade` wrote")
        tasks, grades, out = list(read_jsonl(args.tasks, Task)), args.grades, args.out
    else:
        plan = load_run_plan(args.run, args.tasks)
        tasks, grades, out = plan.tasks, plan.existing_grades(), args.out or args.run / "tables"
    tables = accuracy_tables(tasks, read_jsonl(grades, Grade))
    print_tables(tables)
    written = write_tables(tables, out)
    print(f"wrote {len(written)} files to {out}", file=sys.stderr)
    return 0


def _cruxeval_score(args: argparse.Namespace) -> int:
    import json

    from execstate.errors import output_file
    from execstate.grade import read_generations, score_file

    score, provenance = score_file(args.generations, args.data, mode=args.mode, task=args.task)
    if args.out is not None:
        generations, _ = read_generations(args.generations)
        scored = {
            "raw_generations": generations,
            "raw_scored_generations": score.scored,
            **{f"pass_at_{k}": v for k, v in score.pass_at.items()},
        }
        output_file(args.out).write_text(json.dumps(scored, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps({**score.report(), **provenance}, indent=1))
    return 0
