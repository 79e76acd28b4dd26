"""``execstate build``: case specs or a built-in study -> tasks.jsonl, excluded.jsonl, manifest.json."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "build", help="build execution-checked tasks from case specs or a built-in study", description=__doc__
    )
    p.add_argument("paths", nargs="*", type=Path, help="case.toml files or directories searched for case.toml")
    p.add_argument(
        "--study",
        action="append",
        default=[],
        help="a built-in study of the registry in execstate.studies (repeatable); an unknown name lists them",
    )
    p.add_argument("--out", type=Path, required=True, help="output directory")
    p.add_argument("--jobs", type=int, default=2, help="cases built in parallel (default 2)")
    p.add_argument("--python", default=sys.executable, help="interpreter that runs and measures the programs")
    p.add_argument("--timeout", type=float, default=20.0, help="wall and CPU limit per program run, seconds")
    p.add_argument("--memory-mb", type=int, default=2048, help="address-space limit per program run, MiB")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from execstate.build import BuildOptions, build, write_build
    from execstate.errors import UsageError, require_file
    from execstate.sandbox import Limits
    from execstate.studies import builtin_study

    for name in args.study:
        builtin_study(name)  # an unknown name fails before anything runs
    if not args.paths and not args.study:
        raise UsageError("nothing to build. Fix: give case spec paths or --study NAME")
    for path in args.paths:
        if not path.is_dir():
            require_file(path, "case spec", "pass a case.toml file or a directory that holds some")
    if args.jobs < 1 or args.timeout <= 0 or args.memory_mb < 1:
        raise UsageError("--jobs, --timeout and --memory-mb must be positive. Fix: e.g. --jobs 2 --timeout 20")
    opts = BuildOptions(
        limits=Limits(wall_s=args.timeout, cpu_s=args.timeout, memory_mb=args.memory_mb), python=args.python
    )
    result = _with_progress(build, args.paths, args.study, args.jobs, opts)
    write_build(result, args.out)
    _summary(result, args.out)
    return 0


def _with_progress(build: Any, paths: list[Path], studies: list[str], jobs: int, opts: Any) -> Any:
    if not sys.stderr.isatty():
        return build(paths, studies=studies, jobs=jobs, options=opts)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("building"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
        transient=True,
    ) as bar:
        job = bar.add_task("", total=None)

        def report(done: int, total: int, case_id: str) -> None:
            bar.update(job, completed=done, total=total, description=case_id)

        return build(paths, studies=studies, jobs=jobs, options=opts, progress=report)


def _summary(result: Any, out: Path) -> None:
    from execstate.build import corpus
    from execstate.errors import NothingAdmitted, one_line
    from execstate.tables import to_markdown

    m = result.manifest
    print(f"admitted {m.cases_admitted} cases ({m.tasks} tasks), excluded {m.cases_excluded}; python {m.python}")
    for e in result.exclusions:
        print(f"  excluded {e.case_id} [{e.check}]: {e.reason}")
    print(f"wrote {out / 'tasks.jsonl'}, {out / 'excluded.jsonl'}, {out / 'manifest.json'}")
    if m.cases_admitted == 0:
        checks = ", ".join(
            f"{n} at check {c!r}" for c, n in sorted(Counter(e.check for e in result.exclusions).items())
        )
        first = (
            f"; first: {result.exclusions[0].case_id}: {one_line(result.exclusions[0].reason)}"
            if result.exclusions
            else ""
        )
        raise NothingAdmitted(
            f"no case was admitted ({checks or 'no case specs found'}){first}. "
            f"Fix: correct the cases named in {out / 'excluded.jsonl'}"
        )
    print(to_markdown(corpus(result.tasks)))
