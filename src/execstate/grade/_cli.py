"""Command line of the grade stage: ``grade``, ``tables``, ``cruxeval-score``, ``cruxeval-tasks``."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from execstate.grade._grader import grade_all
from execstate.grade._tables import accuracy_tables, print_tables, write_tables
from execstate.records import Grade, Response, Task, read_jsonl, write_jsonl


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the grade stage's subcommands to the ``execstate`` parser."""
    p = subparsers.add_parser("grade", help="grade responses against tasks (SPEC 9): one grade per planned cell")
    p.add_argument("--tasks", type=Path, required=True, help="tasks.jsonl (Task records)")
    p.add_argument("--responses", type=Path, required=True, help="responses.jsonl (Response records)")
    p.add_argument("--out", type=Path, required=True, help="grades.jsonl to write")
    p.add_argument("--settings", help="comma-separated planned settings (default: those in the responses)")
    p.add_argument("--samples", type=int, help="planned samples per cell (default: 1 + highest sample seen)")
    p.set_defaults(func=_grade)

    p = subparsers.add_parser("tables", help="accuracy tables (SPEC 10 items 1-2) as CSV, JSON and Markdown")
    p.add_argument("--tasks", type=Path, required=True, help="tasks.jsonl the grades refer to")
    p.add_argument("--grades", type=Path, required=True, help="grades.jsonl from `execstate grade`")
    p.add_argument("--out", type=Path, required=True, help="directory to write the tables into")
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


def _grade(args: argparse.Namespace) -> int:
    settings = [s.strip() for s in args.settings.split(",") if s.strip()] if args.settings else None
    try:
        tasks = list(read_jsonl(args.tasks, Task))
        responses = list(read_jsonl(args.responses, Response))
        grades = grade_all(tasks, responses, settings=settings, samples=args.samples)
    except (OSError, ValueError) as exc:  # GradePlanError is a ValueError naming the cells
        return _fail(str(exc))
    write_jsonl(args.out, grades)
    counts = Counter(g.status for g in grades)
    summary = ", ".join(f"{s} {n}" for s, n in sorted(counts.items()))
    print(f"graded {len(grades)} cells -> {args.out} ({summary})", file=sys.stderr)
    return 0


def _tables(args: argparse.Namespace) -> int:
    try:
        tables = accuracy_tables(read_jsonl(args.tasks, Task), read_jsonl(args.grades, Grade))
    except (OSError, ValueError) as exc:
        return _fail(str(exc))
    print_tables(tables)
    written = write_tables(tables, args.out)
    print(f"wrote {len(written)} files to {args.out}", file=sys.stderr)
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
