"""Command line of the export stage: ``export inspect`` (a task file) and ``export inspect-log`` (a graded run)."""

from __future__ import annotations

import argparse
from pathlib import Path

COMMANDS: dict[str, str] = {
    "export": "write built tasks as another harness's task file, or a graded run as its logs (Inspect)",
}
"""This module's commands -> their line in ``execstate --help``, which lists them without building their options."""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``export`` and its formats to the ``execstate`` parser."""
    p = subparsers.add_parser("export", help=COMMANDS["export"])
    formats = p.add_subparsers(dest="format", required=True, metavar="FORMAT")
    q = formats.add_parser(
        "inspect",
        help="an Inspect task file: run it with `inspect eval DIR/execstate_inspect.py --model PROVIDER/MODEL`",
    )
    q.add_argument("--tasks", type=Path, required=True, help="tasks.jsonl written by `execstate build`")
    q.add_argument("--out", type=Path, required=True, help="directory for execstate_inspect.py and its tasks.jsonl")
    q.set_defaults(func=_export_inspect)
    _register_inspect_log(formats)


def _register_inspect_log(formats: argparse._SubParsersAction) -> None:
    """``export inspect-log OUT [--to DIR]``: a graded run as Inspect logs, one per setting (the defaults are
    ``execstate.export``'s ``LOG_FORMATS[0]`` and ``OUT/inspect_logs``, written here so that ``--help`` imports
    nothing)."""
    q = formats.add_parser(
        "inspect-log",
        help="a graded run as Inspect eval logs, one per setting: open them with `inspect view --log-dir DIR`",
    )
    q.add_argument("out", type=Path, metavar="OUT", help="a graded run: a pipeline's --out, or a run folder graded")
    q.add_argument("--to", type=Path, default=None, help="directory for the logs (default: OUT/inspect_logs)")
    q.add_argument("--tasks", type=Path, default=None, help="the run's tasks.jsonl (default: the one the run used)")
    q.add_argument(
        "--format",
        choices=("json", "eval"),
        default="json",
        help="Inspect's log format (default: %(default)s; eval is smaller but slow to write past a few thousand "
        "cells per setting)",
    )
    q.set_defaults(func=_export_inspect_log)


def _export_inspect(args: argparse.Namespace) -> int:
    from execstate.export import export_inspect

    target = export_inspect(args.tasks, args.out)
    print(f"wrote {target} and the tasks beside it; run: inspect eval {target} --model PROVIDER/MODEL")
    return 0


def _export_inspect_log(args: argparse.Namespace) -> int:
    from execstate.export import export_inspect_log

    written = export_inspect_log(args.out, args.to, tasks=args.tasks, format=args.format)
    for path in written:
        print(f"wrote {path}")
    folder = written[0].parent if written else args.to
    print(f"{len(written)} Inspect log(s); open them with: inspect view --log-dir {folder}")
    return 0
