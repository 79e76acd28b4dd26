"""`execstate build`: case specs or a built-in study -> tasks."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from execstate.build._build import build, builtin_studies, format_corpus, write_build
from execstate.build._case import BuildOptions
from execstate.sandbox import Limits


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("build", help="build execution-checked tasks from case specs")
    p.add_argument("paths", nargs="*", type=Path, help="case.toml files or directories searched for case.toml")
    p.add_argument("--study", action="append", default=[], help="a built-in study (repeatable), e.g. classic")
    p.add_argument("--out", type=Path, required=True, help="output directory")
    p.add_argument("--jobs", type=int, default=2, help="cases built in parallel (default 2)")
    p.add_argument("--python", default=sys.executable, help="interpreter that runs and measures the programs")
    p.add_argument("--timeout", type=float, default=20.0, help="wall and CPU limit per program run, seconds")
    p.add_argument("--memory-mb", type=int, default=2048, help="address-space limit per program run, MiB")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    unknown = [name for name in args.study if name not in builtin_studies()]
    if unknown:
        print(f"execstate build: unknown study {', '.join(unknown)}; available: {', '.join(builtin_studies())}",
              file=sys.stderr)
        return 2
    paths = list(args.paths)
    if not paths and not args.study:
        print("execstate build: give case spec paths or --study NAME", file=sys.stderr)
        return 2
    missing = [p for p in paths if not p.exists()]
    if missing:
        print(f"execstate build: no such file or directory: {', '.join(map(str, missing))}", file=sys.stderr)
        return 2
    opts = BuildOptions(limits=Limits(wall_s=args.timeout, cpu_s=args.timeout, memory_mb=args.memory_mb),
                        python=args.python)
    result = _build_with_progress(paths, args.study, args.jobs, opts)
    write_build(result, args.out)
    _summary(result, args.out)
    return 0


def _build_with_progress(paths, studies, jobs, opts):
    if not sys.stderr.isatty():
        return build(paths, studies=studies, jobs=jobs, options=opts)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("building"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("{task.description}"), transient=True) as bar:
        job = bar.add_task("", total=None)

        def report(done: int, total: int, case_id: str) -> None:
            bar.update(job, completed=done, total=total, description=case_id)

        return build(paths, studies=studies, jobs=jobs, options=opts, progress=report)


def _summary(result, out: Path) -> None:
    m = result.manifest
    print(f"admitted {m.cases_admitted} cases ({m.tasks} tasks), excluded {m.cases_excluded}; python {m.python}")
    for e in result.exclusions:
        print(f"  excluded {e.case_id} [{e.check}]: {e.reason}")
    print(f"wrote {out / 'tasks.jsonl'}, {out / 'excluded.jsonl'}, {out / 'manifest.json'}")
    print(format_corpus(result.tasks))

