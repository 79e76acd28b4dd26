"""``execstate pilot``: the invariant-guidance pilot (baseline vs guided prompts, two response contracts)."""

from __future__ import annotations

import argparse
from pathlib import Path

from execstate.cli._build import add_bounds, bounds

COMMANDS: dict[str, str] = {
    "pilot": "invariant-guidance pilot: build, run every condition x contract x sample, grade, Table 9",
}
"""This module's commands -> their line in ``execstate --help``, which lists them without building their options."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "pilot",
        help=COMMANDS["pilot"],
        description=__doc__ + " Re-running the same command resumes the run.",
    )
    p.add_argument(
        "--cases",
        type=Path,
        action="append",
        default=None,
        help="case.toml or a directory of them, each with an [invariant] table (repeatable; "
        "default: the built-in pilot set, study 'pilot')",
    )
    p.add_argument(
        "--settings",
        type=Path,
        default=None,
        help="settings TOML of model endpoints (default: the offline synthetic pipeline check)",
    )
    p.add_argument("--samples", type=int, default=3, help="fresh sessions per case, condition and contract (default 3)")
    p.add_argument("--out", type=Path, required=True, help="output directory (resumable)")
    p.add_argument("--placebo", action="store_true", help="add the placebo condition (off by default)")
    p.add_argument(
        "--contract",
        action="append",
        choices=("output-only", "rationale-then-output"),
        default=None,
        help="response contract (repeatable; default both)",
    )
    p.add_argument("--jobs", type=int, default=2, help="cases built in parallel")
    p.add_argument("--timeout", type=float, default=20.0, help="wall and CPU limit per program run, seconds")
    p.add_argument("--memory-mb", type=int, default=2048, help="address-space limit per program run, MiB")
    add_bounds(p)
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from execstate.builder import BuildOptions
    from execstate.cli._build import check_spec_paths
    from execstate.pilot import DEFAULT_CONDITIONS, run_pilot
    from execstate.records import CONTRACTS
    from execstate.sandbox import Limits

    check_spec_paths(args.cases or [])
    opts = BuildOptions(
        limits=Limits(wall_s=args.timeout, cpu_s=args.timeout, memory_mb=args.memory_mb), **bounds(args)
    )
    result = run_pilot(
        args.out,
        cases=tuple(args.cases or ()),
        settings=args.settings,
        samples=args.samples,
        conditions=(*DEFAULT_CONDITIONS, "placebo") if args.placebo else DEFAULT_CONDITIONS,
        contracts=tuple(args.contract or CONTRACTS),
        jobs=args.jobs,
        options=opts,
    )
    print((args.out / "report.md").read_text(encoding="utf-8"))
    if result.pipeline_check:
        print("NOTE: answers came from the offline synthetic provider; this is a PIPELINE CHECK, not a model's result.")
    print(f"report: {(args.out / 'report.html').resolve()}")
    return 0
