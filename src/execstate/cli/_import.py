"""``execstate import``: published datasets and solution folders -> a problem pool, with ``import.json``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

COMMANDS: dict[str, str] = {
    "import": "import CodeContests, LiveCodeBench or solution folders into a problem pool",
}
"""This module's commands -> their line in ``execstate --help``, which lists them without building their options."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "import",
        help=COMMANDS["import"],
        description=__doc__ + " Format and options: docs/construct.md.",
    )
    kinds = p.add_subparsers(dest="kind", required=True, metavar="KIND")
    _codecontests(kinds)
    _livecodebench(kinds)
    _folders(kinds)
    for kind in kinds.choices.values():  # --debug also after the kind, as after any command
        kind.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)


def _common(p: argparse.ArgumentParser, study_default: str) -> None:
    p.add_argument("--out", type=Path, required=True, help="the pool directory (created if missing)")
    p.add_argument("--study", default=None, help=f"study written to each problem.toml (default: {study_default})")
    p.add_argument("--jobs", type=int, default=2, help="records handled in parallel (default 2)")
    p.add_argument("--overwrite", action="store_true", help="replace problem directories already in the pool")
    p.add_argument(
        "--keep-crlf",
        action="store_true",
        help="write test files with the line ends they have (default: CRLF and lone CR as LF, as judges serve them)",
    )


def _dataset(p: argparse.ArgumentParser, language_help: str) -> None:
    # No choices here: the languages are the builder's registry's, which the parser does not import.
    p.add_argument("--language", default=None, metavar="NAME", help=language_help)
    p.add_argument("--limit", type=int, default=None, help="read only the first N records")


def _codecontests(kinds: argparse._SubParsersAction) -> None:
    p = kinds.add_parser(
        "codecontests",
        help="DeepMind CodeContests records (JSON lines, JSON list or parquet)",
        description="Take, per record, the first solution of --language that passes all its tests in the sandbox.",
    )
    p.add_argument("records", type=Path, help="records file: .jsonl, .json (a list) or .parquet (needs pyarrow)")
    _common(p, "codecontests")
    _dataset(p, "solutions to take, a language of the builder (default python)")
    p.add_argument("--max-solutions", type=int, default=50, help="candidates tried per record (default 50)")
    p.add_argument("--timeout", type=float, default=10.0, help="wall and CPU limit per test run, seconds (default 10)")
    p.add_argument("--memory-mb", type=int, default=2048, help="address-space limit per test run, MiB (default 2048)")
    p.set_defaults(func=_run_codecontests)


def _livecodebench(kinds: argparse._SubParsersAction) -> None:
    p = kinds.add_parser(
        "livecodebench",
        help="LiveCodeBench code_generation_lite records with an evaluation-output solutions file",
        description="Take, per problem, the first code whose grade is true in --solutions; a function-call "
        "(LeetCode) problem gets a driver that reads its arguments from stdin (docs/construct.md).",
    )
    p.add_argument("records", type=Path, help="code_generation_lite records (JSON lines)")
    p.add_argument("--solutions", type=Path, required=True, help="evaluation output: [{question_id, code_list, ...}]")
    _common(p, "lcb_<language>")
    _dataset(p, "language of the solutions' code, a language of the builder (default python)")
    p.add_argument("--difficulty", choices=("easy", "medium", "hard"), default=None, help="keep only this difficulty")
    p.set_defaults(func=_run_livecodebench)


def _folders(kinds: argparse._SubParsersAction) -> None:
    p = kinds.add_parser(
        "folders",
        help="folders with main.py or main.cpp beside NAME.in/NAME.out or in_N.txt/out_N.txt samples, "
        "or with solution.py and tests.json (a function-call problem)",
        description="One problem per folder; a directory without a program is searched one level down.",
    )
    p.add_argument("dirs", type=Path, nargs="+", metavar="DIR", help="solution folders, or directories of them")
    _common(p, "none")
    p.set_defaults(func=_run_folders)


def _run_codecontests(args: argparse.Namespace) -> int:
    from execstate.construct import import_codecontests
    from execstate.errors import UsageError
    from execstate.sandbox import Limits

    if args.timeout <= 0 or args.memory_mb < 1:
        raise UsageError("--timeout and --memory-mb must be positive. Fix: e.g. --timeout 10 --memory-mb 2048")
    limits = Limits(wall_s=args.timeout, cpu_s=args.timeout, memory_mb=args.memory_mb)
    kwargs: dict[str, Any] = {"study": args.study} if args.study else {}
    kwargs |= {"language": args.language} if args.language else {}
    report = import_codecontests(
        args.records, args.out, limit=args.limit, max_solutions=args.max_solutions,
        limits=limits, jobs=args.jobs, overwrite=args.overwrite, keep_crlf=args.keep_crlf, progress=_progress,
        **kwargs,
    )  # fmt: skip
    return _finish(report)


def _run_livecodebench(args: argparse.Namespace) -> int:
    from execstate.construct import import_livecodebench

    kwargs: dict[str, Any] = {"language": args.language} if args.language else {}
    report = import_livecodebench(
        args.records, args.solutions, args.out, study=args.study, **kwargs,
        difficulty=args.difficulty, limit=args.limit, jobs=args.jobs, overwrite=args.overwrite,
        keep_crlf=args.keep_crlf, progress=_progress,
    )  # fmt: skip
    return _finish(report)


def _run_folders(args: argparse.Namespace) -> int:
    from execstate.construct import import_folders

    report = import_folders(
        args.dirs, args.out, study=args.study, jobs=args.jobs, overwrite=args.overwrite, keep_crlf=args.keep_crlf,
        progress=_progress,
    )  # fmt: skip
    return _finish(report)


def _progress(done: int, outcome: Any) -> None:
    from execstate.construct import Imported

    if isinstance(outcome, Imported):
        print(f"[{done}] imported {outcome.id}: {outcome.detail}", file=sys.stderr, flush=True)
    else:
        print(f"[{done}] skipped {outcome.record} ({outcome.kind}): {outcome.reason}", file=sys.stderr, flush=True)


def _finish(report: Any) -> int:
    """Print the summary line; ``Interrupted`` or ``NothingAdmitted`` (exit 1) when the import is not done."""
    from execstate.errors import Interrupted, NothingAdmitted

    print(report.summary())
    if report.interrupted:
        raise Interrupted(f"stopped; {report.summary()}")
    if not report.imported:
        first = f"; first: {report.skipped[0].record}: {report.skipped[0].reason}" if report.skipped else ""
        raise NothingAdmitted(
            f"no record was imported into {report.pool}{first}. Fix: see every record's reason in {report.path}"
        )
    return 0
