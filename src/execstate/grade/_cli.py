"""Command line of the grade stage: ``grade``, ``tables``, ``cruxeval-score``, ``cruxeval-tasks``."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from execstate.grade._grader import GradePlanError, grade_all
from execstate.grade._plan import GRADES_NAME, grade_run, load_run_plan
from execstate.grade._tables import accuracy_tables, print_tables, write_tables
from execstate.records import RUN_MANIFEST_NAME, Grade, Response, Task, read_jsonl, write_jsonl


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the grade stage's subcommands to the ``execstate`` parser."""
    p = subparsers.add_parser("grade", help="grade responses against tasks (SPEC 9): one grade per planned cell")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--run", type=Path, help="run directory: grade exactly the cells its run_manifest.json "
                                                 "planned (a --limit run included)")
    source.add_argument("--responses", type=Path, help="responses.jsonl (Response records); needs --tasks, --out")
    p.add_argument("--tasks", type=Path, help="tasks.jsonl (Task records); with --run default: the manifest's "
                                              "tasks_file")
    p.add_argument("--out", type=Path, help="grades.jsonl to write (with --run default: RUN/grades.jsonl)")
    p.add_argument("--settings", help="comma-separated planned settings (default: those in the responses)")
    p.add_argument("--samples", type=int, help="planned samples per cell (default: 1 + highest sample seen)")
    p.set_defaults(func=_grade)

    p = subparsers.add_parser("tables", help="accuracy tables (SPEC 10 items 1-2) as CSV, JSON and Markdown")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--run", type=Path, help="graded run directory: its tasks (from the manifest, the planned "
                                                 "ones) and RUN/grades.jsonl")
    source.add_argument("--grades", type=Path, help="grades.jsonl from `execstate grade`; needs --tasks, --out")
    p.add_argument("--tasks", type=Path, help="tasks.jsonl the grades refer to (with --run default: the "
                                              "manifest's tasks_file)")
    p.add_argument("--out", type=Path, help="directory to write the tables into (with --run default: RUN/tables)")
    p.set_defaults(func=_tables)

    p = subparsers.add_parser("cruxeval-score", help="re-score a CRUXEval generations file: pass@1 and pass@5")
    p.add_argument("generations", type=Path, help="JSON object {sample_id: [generation, ...]}")
    p.add_argument("--data", type=Path, help="cruxeval.jsonl (default: the copy bundled with execstate)")
    p.add_argument("--out", type=Path, help="also write a scored file in CRUXEval's format")
    p.set_defaults(func=_cruxeval_score)

    p = subparsers.add_parser("cruxeval-tasks", help="write the CRUXEval items as execstate tasks")
    p.add_argument("--data", type=Path, help="cruxeval.jsonl (default: the bundled copy)")
    p.add_argument("--out", type=Path, required=True, help="tasks.jsonl to write")
    p.set_defaults(func=_cruxeval_tasks)


def _fail(message: str) -> int:
    print(f"execstate: error: {message}", file=sys.stderr)
    return 2


def _missing(args: argparse.Namespace, form: str, *names: str) -> str | None:
    absent = [f"--{n}" for n in names if getattr(args, n) is None]
    return f"{form} needs {' and '.join(absent)}" if absent else None


def _grade(args: argparse.Namespace) -> int:
    if args.run is not None:
        return _grade_run(args)
    problem = _missing(args, "--responses", "tasks", "out")
    if problem:
        return _fail(problem)
    settings = [s.strip() for s in args.settings.split(",") if s.strip()] if args.settings else None
    try:
        tasks = list(read_jsonl(args.tasks, Task))
        responses = list(read_jsonl(args.responses, Response))
        grades = grade_all(tasks, responses, settings=settings, samples=args.samples)
    except GradePlanError as exc:
        return _fail(str(exc) + (_partial_hint(args.responses) if exc.missing else ""))
    except (OSError, ValueError) as exc:
        return _fail(str(exc))
    return _written(grades, args.out)


def _partial_hint(responses: Path) -> str:
    hint = "; to grade only the cells a run planned (e.g. a --limit run), pass --run RUN_DIR instead of --responses"
    run_dir = responses.parent
    return hint + (f" (here: --run {run_dir})" if (run_dir / RUN_MANIFEST_NAME).is_file() else "")


def _grade_run(args: argparse.Namespace) -> int:
    if args.settings is not None or args.samples is not None:
        return _fail("--settings and --samples apply to --responses; with --run the plan comes from "
                     f"{args.run / RUN_MANIFEST_NAME}")
    try:
        result = grade_run(args.run, args.tasks)
    except (OSError, ValueError) as exc:  # GradePlanError is a ValueError naming the cells
        return _fail(str(exc))
    return _written(result.grades, args.out or args.run / GRADES_NAME)


def _written(grades: list[Grade], out: Path) -> int:
    write_jsonl(out, grades)
    counts = Counter(g.status for g in grades)
    summary = ", ".join(f"{s} {n}" for s, n in sorted(counts.items()))
    print(f"graded {len(grades)} cells -> {out} ({summary})", file=sys.stderr)
    return 0


def _table_inputs(args: argparse.Namespace) -> tuple[list[Task], Path, Path]:
    """Tasks, grades file and output directory of ``tables``, from --run or from --tasks/--grades."""
    if args.run is None:
        return list(read_jsonl(args.tasks, Task)), args.grades, args.out
    plan = load_run_plan(args.run, args.tasks)
    return plan.tasks, plan.existing_grades(), args.out or args.run / "tables"


def _tables(args: argparse.Namespace) -> int:
    problem = _missing(args, "--grades", "tasks", "out") if args.run is None else None
    if problem:
        return _fail(problem)
    try:
        tasks, grades, out = _table_inputs(args)
        tables = accuracy_tables(tasks, read_jsonl(grades, Grade))
    except (OSError, ValueError) as exc:
        return _fail(str(exc))
    print_tables(tables)
    written = write_tables(tables, out)
    print(f"wrote {len(written)} files to {out}", file=sys.stderr)
    return 0


def _cruxeval_score(args: argparse.Namespace) -> int:
    from execstate.studies.cruxeval import score_file

    try:
        score, provenance = score_file(args.generations, args.data)
    except (OSError, ValueError) as exc:
        return _fail(str(exc))
    if args.out is not None:
        generations = json.loads(args.generations.read_text(encoding="utf-8"))
        scored = {"raw_generations": generations, "raw_scored_generations": score.scored,
                  **{f"pass_at_{k}": v for k, v in score.pass_at.items()}}
        args.out.write_text(json.dumps(scored, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps({**score.report(), **provenance}, indent=1))
    return 0


def _cruxeval_tasks(args: argparse.Namespace) -> int:
    from execstate.studies.cruxeval import cruxeval_tasks

    try:
        n = write_jsonl(args.out, cruxeval_tasks(args.data))
    except (OSError, ValueError) as exc:
        return _fail(str(exc))
    print(f"wrote {n} CRUXEval tasks -> {args.out}", file=sys.stderr)
    return 0
