"""Command line of the grade stage: ``grade``, ``tables``, ``cruxeval-score``."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path


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


def _grade(args: argparse.Namespace) -> int:
    from execstate.errors import output_file, require_file
    from execstate.grade import grade_all
    from execstate.records import Response, Task, read_jsonl, write_jsonl

    require_file(args.tasks, "--tasks", "pass the tasks.jsonl that `execstate build` wrote")
    require_file(args.responses, "--responses", "pass the responses.jsonl in the directory `execstate run` wrote")
    settings = [s.strip() for s in args.settings.split(",") if s.strip()] if args.settings else None
    tasks = list(read_jsonl(args.tasks, Task))
    responses = list(read_jsonl(args.responses, Response))
    grades = grade_all(tasks, responses, settings=settings, samples=args.samples)
    write_jsonl(output_file(args.out), grades)
    counts = Counter(g.status for g in grades)
    summary = ", ".join(f"{s} {n}" for s, n in sorted(counts.items()))
    print(f"graded {len(grades)} cells -> {args.out} ({summary})", file=sys.stderr)
    return 0


def _tables(args: argparse.Namespace) -> int:
    from execstate.errors import require_file
    from execstate.grade import accuracy_tables, print_tables, write_tables
    from execstate.records import Grade, Task, read_jsonl

    require_file(args.tasks, "--tasks", "pass the tasks.jsonl that `execstate build` wrote")
    require_file(args.grades, "--grades", "pass the grades.jsonl that `execstate grade` wrote")
    tables = accuracy_tables(read_jsonl(args.tasks, Task), read_jsonl(args.grades, Grade))
    print_tables(tables)
    written = write_tables(tables, args.out)
    print(f"wrote {len(written)} files to {args.out}", file=sys.stderr)
    return 0


def _cruxeval_score(args: argparse.Namespace) -> int:
    from execstate.errors import output_file
    from execstate.grade import score_file

    score, provenance = score_file(args.generations, args.data)
    if args.out is not None:
        generations = json.loads(args.generations.read_text(encoding="utf-8"))
        scored = {"raw_generations": generations, "raw_scored_generations": score.scored,
                  **{f"pass_at_{k}": v for k, v in score.pass_at.items()}}
        output_file(args.out).write_text(json.dumps(scored, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps({**score.report(), **provenance}, indent=1))
    return 0
