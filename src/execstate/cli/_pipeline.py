"""``execstate pipeline``: the main job in one command."""

from __future__ import annotations

import argparse
from pathlib import Path

from execstate.cli._build import add_bounds, bounds

COMMANDS: dict[str, str] = {
    "pipeline": "build, run, grade, analyze and report in one go",
}
"""This module's commands -> their line in ``execstate --help``, which lists them without building their options."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("pipeline", help=COMMANDS["pipeline"], description=__doc__)
    p.add_argument("paths", nargs="*", type=Path, help="extra case.toml files or directories")
    p.add_argument("--out", type=Path, required=True, help="output directory")
    p.add_argument(
        "--study",
        action="append",
        default=None,
        help="built-in study (repeatable; default: every built-in study of the registry in "
        "execstate.studies); 'none' for only PATHS",
    )
    p.add_argument(
        "--settings",
        type=Path,
        default=None,
        help="settings TOML of model endpoints (default: the offline oracle pipeline check)",
    )
    p.add_argument("--setting", default=None, help="run only this setting of the settings file")
    p.add_argument("--samples", type=int, default=1, help="responses per task and setting")
    p.add_argument("--limit", type=int, default=None, help="run, grade and report only the first N tasks of the build")
    p.add_argument("--jobs", type=int, default=2, help="cases built in parallel")
    p.add_argument("--no-pilot", action="store_true", help="skip the offline invariant-pilot check (docs/pilot.md)")
    p.add_argument(
        "--fresh",
        metavar="SEED",
        default=None,
        help="also build the classic study on fresh inputs from SEED (offline default: a public demo seed; "
        "'' for none; docs/fresh.md)",
    )
    p.add_argument(
        "--variants",
        metavar="NAMES",
        default=None,
        help="source variants of the classic study built beside it, comma-separated (offline default: rename,mislead; "
        "'' for none; docs/variants.md)",
    )
    p.add_argument(
        "--no-ladder",
        action="store_true",
        help="skip the input ladder of a few classic cases the offline main job builds (docs/ladder.md)",
    )
    p.add_argument("--timeout", type=float, default=20.0, help="wall and CPU limit per program run, seconds")
    p.add_argument("--memory-mb", type=int, default=2048, help="address-space limit per program run, MiB")
    add_bounds(p)
    p.set_defaults(func=main)


def checked_studies(args: argparse.Namespace, default: tuple[str, ...]) -> tuple[str, ...]:
    """``--study`` values (``default`` when none; ``none`` dropped), each a known built-in study, and the
    extra paths checked: an unknown name or a missing path fails before anything runs."""
    from execstate.cli._build import check_spec_paths
    from execstate.studies import builtin_study

    studies = tuple(s for s in (args.study or default) if s != "none")
    for name in studies:
        builtin_study(name)
    check_spec_paths(args.paths)
    return studies


def main(args: argparse.Namespace) -> int:
    from execstate.builder import BuildOptions
    from execstate.pipeline import DEFAULT_STUDIES, MAIN_LADDER, run_pipeline
    from execstate.sandbox import Limits

    studies = checked_studies(args, DEFAULT_STUDIES)
    opts = BuildOptions(
        limits=Limits(wall_s=args.timeout, cpu_s=args.timeout, memory_mb=args.memory_mb), **bounds(args)
    )
    result = run_pipeline(
        args.out,
        studies=studies,
        paths=tuple(args.paths),
        settings_file=args.settings,
        setting=args.setting,
        samples=args.samples,
        limit=args.limit,
        jobs=args.jobs,
        options=opts,
        pilot=not args.no_pilot,
        fresh=args.fresh,
        variants=None if args.variants is None else tuple(n.strip() for n in args.variants.split(",") if n.strip()),
        ladder=None if args.no_ladder or args.settings is not None else MAIN_LADDER,
    )
    if result.pipeline_check:
        print(
            "NOTE: answers came from the offline oracle and synthetic providers; this is a PIPELINE CHECK, "
            "not a model's result."
        )
    print(f"report: {result.report.resolve()}")
    return 0
