"""``execstate metrics``: the four execution metrics of one Python program on one input, as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from execstate.metrics._cyclomatic import cyclomatic
from execstate.metrics._measure import measure


def register(subparsers) -> None:
    parser = subparsers.add_parser("metrics", help="measure trace length, peak state, state load and cyclomatic complexity")
    parser.add_argument("program", type=Path, help="Python source file (runs as __main__)")
    parser.add_argument("--input", type=Path, required=True, help="file fed to the program's standard input")
    parser.add_argument("--python", default=None, help="interpreter that runs the program (default: this one)")
    parser.add_argument("--timeout", type=float, default=60.0, help="wall-clock limit in seconds (default 60)")
    parser.set_defaults(func=_handle)


def _handle(args: argparse.Namespace) -> int:
    try:
        report = metrics_report(args.program, args.input, python=args.python, timeout_s=args.timeout)
    except (FileNotFoundError, SyntaxError, RuntimeError) as exc:
        print(f"execstate metrics: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(report))
    return 0


def metrics_report(program: Path, input_path: Path, *, python: str | None = None, timeout_s: float = 60.0) -> dict:
    """The JSON object printed by ``execstate metrics``; raises with a clear message on any failure.

    FileNotFoundError: program, input or interpreter missing. SyntaxError: the
    program does not parse. RuntimeError: the run crashed, timed out, hit a limit.
    """
    for path, what in ((program, "program"), (input_path, "input file")):
        if not path.is_file():
            raise FileNotFoundError(f"{what} not found: {path}")
    source = program.read_text(encoding="utf-8")
    try:
        complexity = cyclomatic(source)
    except SyntaxError as exc:
        raise SyntaxError(f"{program} is not valid Python: {exc.msg} (line {exc.lineno})") from None
    result = measure(source, input_path.read_bytes(), filename=program.name, python=python, timeout_s=timeout_s)
    if not result.ok:
        raise RuntimeError(f"{program} on {input_path}: {result.status}: {result.detail}")
    return {"trace_length": result.trace_length, "peak_state": result.peak_state,
            "state_load": result.state_load, "cyclomatic": complexity, "python": result.python}
