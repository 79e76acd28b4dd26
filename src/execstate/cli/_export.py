"""Command line of the export stage: ``export inspect``."""

from __future__ import annotations

import argparse
from pathlib import Path

COMMANDS: dict[str, str] = {
    "export": "write built tasks as another harness's task file (Inspect)",
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


def _export_inspect(args: argparse.Namespace) -> int:
    from execstate.export import export_inspect

    target = export_inspect(args.tasks, args.out)
    print(f"wrote {target} and the tasks beside it; run: inspect eval {target} --model PROVIDER/MODEL")
    return 0
