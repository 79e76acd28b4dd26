"""``execstate metrics``: the four execution metrics of one Python program on one input, as JSON."""

from __future__ import annotations

import argparse
from pathlib import Path

COMMANDS: dict[str, str] = {
    "metrics": "measure trace length, peak state, state load and cyclomatic complexity",
}
"""This module's commands -> their line in ``execstate --help``, which lists them without building their options."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("metrics", help=COMMANDS["metrics"], description=__doc__)
    parser.add_argument("program", type=Path, help="Python source file (runs as __main__)")
    parser.add_argument("--input", type=Path, required=True, help="file fed to the program's standard input")
    parser.add_argument("--python", default=None, help="interpreter that runs the program (default: this one)")
    parser.add_argument("--timeout", type=float, default=60.0, help="wall-clock limit in seconds (default 60)")
    parser.set_defaults(func=_handle)


def _handle(args: argparse.Namespace) -> int:
    import json

    from execstate.metrics import metrics_report

    print(json.dumps(metrics_report(args.program, args.input, python=args.python, timeout_s=args.timeout)))
    return 0
