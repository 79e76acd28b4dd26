"""``execstate construct``: problem pools -> case specs (SPEC section 5), one directory per problem."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from execstate.cli._build import add_arms, add_bounds, add_executor, bounds

COMMANDS: dict[str, str] = {
    "construct": "propose case specs from programs and their tests (then: execstate build)",
    "select": "redo a screened study's selection: screen generated candidates, pick per trace-length band",
}
"""This module's commands -> their line in ``execstate --help``, which lists them without building their options."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "construct",
        help=COMMANDS["construct"],
        description=__doc__,
    )
    p.add_argument("pools", nargs="+", type=Path, help="problem pools (a directory of problems) or problem directories")
    p.add_argument("--out", type=Path, required=True, help="directory of the specs: one folder per problem")
    p.add_argument("--language", default=None, metavar="NAME", help="only problems in this language (of the builder's)")
    p.add_argument("--study", default=None, help="study of the specs (default: problem.toml's, else 'constructed')")
    p.add_argument("--jobs", type=int, default=2, help="problems constructed in parallel (default 2)")
    p.add_argument("--max-trace", type=int, default=2_000_000, help="cap on the long input's trace (default 2000000)")
    p.add_argument("--min-ratio", type=float, default=4.0, help="long/short trace ratio to require (default 4)")
    p.add_argument(
        "--prefer-branch-preserving",
        action="store_true",
        help="pick a long input that takes the short input's branch outcomes, when one exists",
    )
    p.add_argument(
        "--no-synthesize",
        action="store_true",
        help="never infer an input shape from the samples to write a gen.py for a long input (docs/construct.md)",
    )
    p.add_argument(
        "--vendor",
        action="store_true",
        help="copy each spec's program and inputs into its folder (a self-contained export) instead of naming "
        "the pool's files",
    )
    p.add_argument(
        "--keep-crlf",
        action="store_true",
        help="use test files with the line ends they have (default: CRLF and lone CR as LF, as judges serve them)",
    )
    p.add_argument("--python", default=sys.executable, help="interpreter that runs and measures the programs")
    p.add_argument("--timeout", type=float, default=20.0, help="wall and CPU limit per program run, seconds")
    p.add_argument("--memory-mb", type=int, default=2048, help="address-space limit per program run, MiB")
    add_environment(p)
    add_bounds(p)
    add_arms(p)  # construct writes them into each spec's `arms`, and the chosen line into its provenance
    add_executor(p)
    p.set_defaults(func=main)
    register_select(sub)


def main(args: argparse.Namespace) -> int:
    from execstate.builder import BuildOptions
    from execstate.construct import ConstructOptions, construct, environment_suggestion, read_pool
    from execstate.errors import NothingAdmitted, UsageError, output_dir
    from execstate.languages import language_entry
    from execstate.sandbox import Limits

    if args.jobs < 1 or args.timeout <= 0 or args.memory_mb < 1 or args.max_trace < 1 or args.min_ratio <= 1:
        raise UsageError(
            "--jobs, --timeout, --memory-mb and --max-trace must be positive and --min-ratio above 1. "
            "Fix: e.g. --jobs 2 --timeout 20 --min-ratio 4"
        )
    language = language_entry(args.language, option="--language").name if args.language else None
    problems = [p for pool in args.pools for p in read_pool(pool) if language in (None, p.language)]
    if not problems:
        raise UsageError(f"no {args.language or ''} problem in {', '.join(map(str, args.pools))}. Fix: check the pools")
    out = output_dir(args.out)
    build_opts = BuildOptions(
        limits=Limits(wall_s=args.timeout, cpu_s=args.timeout, memory_mb=args.memory_mb),
        python=args.python,
        add_arms=args.add_arms,
        **bounds(args),
    )
    opts = ConstructOptions(
        build=build_opts,
        max_trace=args.max_trace,
        min_ratio=args.min_ratio,
        prefer_branch_preserving=args.prefer_branch_preserving,
        synthesize=not args.no_synthesize,
        study=args.study,
        vendor=args.vendor,
        keep_crlf=args.keep_crlf,
        environment=environment(args),
    )
    kwargs = {"jobs": args.jobs, "executor": args.executor, "scheduler": args.scheduler}
    result = _with_progress(construct, problems, out, opts, kwargs)
    for o in result.rejected:
        print(f"no spec for {o.problem}: {o.check}: {o.reason}", file=sys.stderr)
    print(f"{len(result.written)} of {len(result.outcomes)} problems have a spec in {out} (why: {out}/construct.json)")
    hint = environment_suggestion(result.outcomes)
    if hint is not None:
        print(hint, file=sys.stderr)
    if not result.written:
        raise NothingAdmitted(f"no problem of {len(result.outcomes)} gave a spec. Fix: see {out}/construct.json")
    return 0


def add_environment(p: argparse.ArgumentParser) -> None:
    """``--environment PRESET`` and ``--package NAME==VERSION``: the pool's declared third-party packages."""
    p.add_argument(
        "--environment",
        default=None,
        metavar="PRESET",
        help="packages of a judge for problems whose problem.toml declares none (atcoder; docs/construct.md)",
    )
    p.add_argument(
        "--package",
        action="append",
        default=[],
        metavar="NAME==VERSION",
        help="a pinned PyPI package those problems import (repeatable)",
    )


def environment(args: argparse.Namespace) -> Any:
    """The ``EnvironmentSpec`` of ``--environment``/``--package``, or None when neither is given."""
    from execstate.environments import EnvironmentProblem, parse_environment
    from execstate.errors import UsageError

    if args.environment is None and not args.package:
        return None
    table = {"packages": list(args.package), **({"preset": args.environment} if args.environment else {})}
    try:
        return parse_environment(table)
    except EnvironmentProblem as exc:
        raise UsageError(f"--environment/--package: {exc}") from None


def _with_progress(construct: Any, problems: list, out: Path, opts: Any, kwargs: dict[str, Any]) -> Any:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with Progress(
        TextColumn("constructing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[specs]} specs"),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.description}"),
        transient=not sys.stderr.isatty(),
        disable=not sys.stderr.isatty(),
    ) as bar:
        job = bar.add_task("", total=len(problems), specs=0, rate="")
        specs = 0

        def report(outcome: Any, done: int, total: int) -> None:
            nonlocal specs
            specs += outcome.spec_dir is not None
            elapsed = bar.tasks[0].elapsed or 1e-9
            rate = f"{done / elapsed * 60:.1f}/min"
            bar.update(job, completed=done, specs=specs, rate=rate, description=outcome.problem)
            if not sys.stderr.isatty():
                print(f"[{done}/{total}] {outcome.problem}: {outcome.check or 'spec'}", file=sys.stderr)

        return construct(problems, out, opts, progress=report, **kwargs)


def register_select(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "select",
        help=COMMANDS["select"],
        description="Screen a screened study's generated candidates (trace length of each), pick per_band "
        "candidates per band of its study.toml, admit each by the nine checks (a failing pick is replaced by "
        "the next of its band) and write the cases and select.json.",
    )
    p.add_argument("study", help="a screened built-in study (networkx)")
    p.add_argument("--out", type=Path, required=True, help="directory of the selected cases")
    p.add_argument("--candidates", type=int, default=None, help="candidates screened (default: study.toml's)")
    p.add_argument("--per-band", type=int, default=10, help="cases picked per band (default 10)")
    p.add_argument("--jobs", type=int, default=2, help="screening workers and cases checked at a time (default 2)")
    p.add_argument("--timeout", type=float, default=20.0, help="wall and CPU limit per program run, seconds")
    p.add_argument(
        "--vendor",
        action="store_true",
        help="write self-contained cases (every key, a copy of main.py each) instead of naming the study's program",
    )
    add_executor(p)
    p.set_defaults(func=select_main)


def select_main(args: argparse.Namespace) -> int:
    from execstate.builder import BuildOptions
    from execstate.construct import select_cases
    from execstate.errors import UsageError, output_dir
    from execstate.sandbox import Limits
    from execstate.studies import get_study

    study = get_study(args.study)
    if study.screened is None:
        raise UsageError(f"study {args.study!r} is not selected by screening. Fix: use networkx")
    if (args.candidates is not None and args.candidates < 1) or args.per_band < 1 or args.jobs < 1:
        raise UsageError("--candidates, --per-band and --jobs must be positive. Fix: e.g. --candidates 90000")
    out = output_dir(args.out)
    opts = BuildOptions(limits=Limits(wall_s=args.timeout, cpu_s=args.timeout))

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeRemainingColumn

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn(),
        disable=not sys.stderr.isatty(),
    ) as bar:
        jobs: dict[str, TaskID] = {}
        started = time.monotonic()

        def report(phase: str, done: int, total: int) -> None:
            if phase not in jobs:
                jobs[phase] = bar.add_task(phase, total=total, rate="")
            rate = f"{done / max(time.monotonic() - started, 1e-9):.0f}/s" if phase == "screening" else ""
            bar.update(jobs[phase], completed=done, total=total, rate=rate)
            if not sys.stderr.isatty():
                print(f"{phase}: {done}/{total} {rate}", file=sys.stderr, flush=True)

        result = select_cases(
            study.screened,
            out,
            candidates=args.candidates,
            per_band=args.per_band,
            options=opts,
            jobs=args.jobs,
            study=study.name,
            progress=report,
            executor=args.executor,
            scheduler=args.scheduler,
            vendor=args.vendor,
        )
    pops = ", ".join(str(b["population"]) for b in result.record["bands"])
    print(f"{len(result.cases)} cases in {out} (band populations {pops}; select.json says how)")
    return 0
