"""``execstate build``: case specs or a built-in study -> tasks.jsonl, excluded.jsonl, manifest.json."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

COMMANDS: dict[str, str] = {
    "build": "build execution-checked tasks from case specs or a built-in study",
}
"""This module's commands -> their line in ``execstate --help``, which lists them without building their options."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("build", help=COMMANDS["build"], description=__doc__)
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
    add_bounds(p)
    add_executor(p)
    p.add_argument(
        "--fresh",
        metavar="SEED",
        default=None,
        help="build every case on fresh inputs drawn from SEED (a secret: use a long random string); the files "
        "carry only its commitment (docs/fresh.md)",
    )
    p.add_argument(
        "--fresh-only",
        action="store_true",
        help="with --fresh: leave out (as exclusions) the cases that cannot be refreshed",
    )
    p.add_argument(
        "--fresh-candidates",
        type=int,
        default=4,
        help="with --fresh: candidate input pairs per case; kept: the closest in long trace to the published",
    )
    add_arms(p)
    p.add_argument(
        "--variants",
        metavar="NAMES",
        type=_variant_names,
        default=(),
        help="comma-separated source variants every admitted case is also built as: rename (neutral names), "
        "mislead (plausible wrong names), deadcode (statements that never change the state); each kept only when it "
        "passes the checks and behaves as the original, as <case>~<variant> (docs/variants.md)",
    )
    p.add_argument(
        "--variant-seed", type=int, default=0, help="mixed into every variant's seed (default 0; docs/variants.md)"
    )
    add_ladder(p)
    p.set_defaults(func=main)


LADDER_DEFAULTS: dict[str, Any] = {"low": 2**7, "high": 2**21, "ratio": 2.0, "tolerance": 1.25, "seed": 0}
"""``execstate.builder.Ladder``'s defaults, spelled here so ``--help`` need not import the builder."""
LADDER_OBJECTS_PER_EVENT = 2048
"""``execstate.builder._ladder.OBJECTS_PER_EVENT``, spelled here so ``--help`` need not import the builder: a rung's
object budget per event of its target (``Ladder.object_budget``)."""


def add_ladder(p: argparse.ArgumentParser) -> None:
    """``--ladder`` and its options: each case's inputs on a dial of counted trace lengths (docs/ladder.md)."""
    d = LADDER_DEFAULTS
    p.add_argument(
        "--ladder",
        action="store_true",
        help="build each case's input ladder instead of its published inputs: per target trace length, the input "
        "of its sized generator nearest it within the tolerance, as <case>~rung<k>; each rung under an object budget "
        f"of {LADDER_OBJECTS_PER_EVENT} per event of its target, at least --object-budget's default, unless "
        "--object-budget is given (docs/ladder.md)",
    )
    p.add_argument("--ladder-low", type=int, default=d["low"], help=f"lowest target, events (default {d['low']})")
    p.add_argument("--ladder-high", type=int, default=d["high"], help=f"highest target, events (default {d['high']})")
    p.add_argument(
        "--ladder-ratio", type=float, default=d["ratio"], help=f"ratio of successive targets (default {d['ratio']:g})"
    )
    p.add_argument(
        "--ladder-tolerance",
        type=float,
        default=d["tolerance"],
        help=f"a rung's trace is within this factor of its target (default {d['tolerance']:g})",
    )
    p.add_argument("--ladder-seed", type=int, default=d["seed"], help="mixed into every generator seed (default 0)")
    p.add_argument(
        "--ladder-state", action="store_true", help="also pose the two state arms on every rung (default: final only)"
    )
    for action in p._actions:  # --object-budget (add_bounds) says how a ladder's rungs budget their walks
        if "--object-budget" in action.option_strings:
            action.help = f"{action.help}{LADDER_BUDGET_HELP}"


LADDER_BUDGET_HELP = (
    f"; with --ladder and no --object-budget, a rung's is {LADDER_OBJECTS_PER_EVENT} x its target, at least the "
    "default (docs/ladder.md)"
)
"""The ladder's word in ``--object-budget``'s help."""


def ladder_of_args(args: argparse.Namespace) -> Any:
    """The ``Ladder`` the ``--ladder`` options ask for, or None without ``--ladder`` (``UsageError`` when a ladder
    option comes without it, or with ``--fresh`` or ``--variants``). Its rungs' object budgets follow their targets
    (``Ladder.objects_per_event``) unless ``--object-budget`` was given (a value other than its default): then that
    budget holds on every rung."""
    from execstate.builder import Ladder
    from execstate.errors import UsageError

    given = {k for k, v in LADDER_DEFAULTS.items() if getattr(args, f"ladder_{k}") != v}
    if not args.ladder:
        if given or args.ladder_state:
            raise UsageError("the --ladder-* options need --ladder. Fix: add --ladder")
        return None
    if args.fresh is not None or args.variants or args.add_arms:
        raise UsageError(
            "--ladder builds rungs of the published cases only. Fix: leave out --fresh, --variants and --add-arms "
            "(use --ladder-state for the state arms)"
        )
    own_budget = getattr(args, "object_budget", BUDGETS["--object-budget"][0]) != BUDGETS["--object-budget"][0]
    return Ladder(
        objects_per_event=None if own_budget else LADDER_OBJECTS_PER_EVENT,
        low=args.ladder_low,
        high=args.ladder_high,
        ratio=args.ladder_ratio,
        tolerance=args.ladder_tolerance,
        seed=args.ladder_seed,
        state_arms=args.ladder_state,
    )


def _variant_names(text: str) -> tuple[str, ...]:
    """``--variants``: variant names, comma-separated."""
    from execstate.language_entries import VARIANTS  # data: no adapter is imported

    names = tuple(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))
    if not names or any(n not in VARIANTS for n in names):
        raise argparse.ArgumentTypeError(f"{text!r}: give variants among {', '.join(VARIANTS)}")
    return names


def add_arms(p: argparse.ArgumentParser) -> None:
    """``--add-arms``: further arms every case gets (``BuildOptions.add_arms``), listed from the arm registry."""
    from execstate.arms import arm_spec

    listed = "; ".join(f"{name} ({arm_spec(name).description})" for name in _further())
    p.add_argument(
        "--add-arms",
        metavar="ARMS",
        type=_further_arms,
        default=(),
        help=f"comma-separated further arms every case also gets: {listed or 'none is registered'}. A study may "
        "ask for them in its study.toml (docs/spec.md, section 2)",
    )


def _further() -> tuple[str, ...]:
    """The arms ``--add-arms`` offers, in arm order: every arm of the group ``further`` a case may ask for."""
    from execstate.arms import arm_names

    return arm_names(group="further", case_arm=True)


def _further_arms(text: str) -> tuple[str, ...]:
    """``--add-arms``: names of further arms, comma-separated."""
    further = _further()
    names = tuple(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))
    unknown = [n for n in names if n not in further]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give further arms among {', '.join(further)} (the paper's arms are always built)"
        )
    return names


def add_executor(p: argparse.ArgumentParser) -> None:
    """``--executor`` and ``--scheduler``: where per-item work runs (this machine, or a Dask cluster)."""
    p.add_argument(
        "--executor",
        choices=("local", "dask"),
        default="local",
        help="local: --jobs workers on this machine (default); dask: the Dask cluster at --scheduler",
    )
    p.add_argument("--scheduler", default=None, help="Dask scheduler address, e.g. tcp://10.0.0.5:8786")


MEASURE_FACTOR = 10.0
"""``BuildOptions.measure_factor``'s default, spelled here so ``--help`` need not import the languages package
(``tests/test_cli_defaults.py`` checks the two agree, as it does ``BUDGETS``)."""
BUDGETS: dict[str, tuple[int | None, str]] = {
    "--trace-budget": (20_000_000, "instruction events (C++: line executions)"),
    "--state-budget": (5_000_000_000, "state slots walked, summed over the run"),
    "--object-budget": (200_000_000, "containers and instances walked, summed over the run"),
}
"""Each counted budget's option -> ``BuildOptions``' default for it and what it counts."""


def add_bounds(p: argparse.ArgumentParser) -> None:
    """The measurement and size options every command that builds shares (defaults: BuildOptions')."""
    from execstate.language_entries import cli_options  # data: no adapter, not the languages package

    p.add_argument(
        "--measure-factor",
        type=float,
        default=MEASURE_FACTOR,
        help=f"a measurement's CPU limit as a multiple of --timeout (default {MEASURE_FACTOR:g}; its "
        "wall clock is 3x that): a safety net; the counted budgets below decide",
    )
    p.add_argument(
        "--max-input-bytes",
        type=int,
        default=1_000_000,
        help="longest input a case may have, bytes (default 1000000); longer: excluded",
    )
    p.add_argument(
        "--max-checkpoint-bytes",
        type=int,
        default=100_000,
        help="longest checkpoint line of a state arm, bytes (default 100000); longer: excluded",
    )
    for flag, (default, what) in BUDGETS.items():
        p.add_argument(
            flag,
            type=_budget,
            default=default,
            help=f"counted budget of one measurement: {what} (default {default}; 'none': no budget); a measurement "
            "over it stops there and excludes the case (check budget), the same on every machine",
        )
    for option in cli_options():  # each language's own options (the C++ compiler and flags, ...)
        p.add_argument(option.flag, default=option.default, help=option.help)


def _budget(text: str) -> int | None:
    """A budget on the command line: a positive integer (underscores allowed), or ``none``."""
    if text.strip().lower() == "none":
        return None
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a count (give e.g. 20000000, or none)") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: a budget must be positive (or none)")
    return value


def bounds(args: argparse.Namespace) -> dict[str, Any]:
    """The ``BuildOptions`` keywords of ``add_bounds``, the languages' own options included."""
    from execstate.language_entries import cli_options
    from execstate.languages import options_from_cli

    return {
        "measure_factor": args.measure_factor,
        "max_input_bytes": args.max_input_bytes,
        "max_checkpoint_bytes": args.max_checkpoint_bytes,
        "trace_budget": args.trace_budget,
        "state_budget": args.state_budget,
        "object_budget": args.object_budget,
        "language_options": options_from_cli({o.dest: getattr(args, o.dest) for o in cli_options()}),
    }


def main(args: argparse.Namespace) -> int:
    from execstate.builder import PARTIAL_DIR, BuildOptions, Fresh, build, write_build
    from execstate.errors import UsageError, output_dir
    from execstate.sandbox import Limits
    from execstate.studies import builtin_study

    for name in args.study:
        builtin_study(name)  # an unknown name fails before anything runs
    if not args.paths and not args.study:
        raise UsageError("nothing to build. Fix: give case spec paths or --study NAME")
    check_spec_paths(args.paths)
    if args.jobs < 1 or args.timeout <= 0 or args.memory_mb < 1:
        raise UsageError("--jobs, --timeout and --memory-mb must be positive. Fix: e.g. --jobs 2 --timeout 20")
    if (args.fresh_only or args.fresh_candidates != 4) and args.fresh is None:
        raise UsageError("--fresh-only and --fresh-candidates need --fresh SEED. Fix: add --fresh with a secret seed")
    fresh = (
        Fresh(args.fresh, candidates=args.fresh_candidates, only=args.fresh_only) if args.fresh is not None else None
    )
    ladder = ladder_of_args(args)
    out = output_dir(args.out)  # a file in the way fails before any case is built
    opts = BuildOptions(
        limits=Limits(wall_s=args.timeout, cpu_s=args.timeout, memory_mb=args.memory_mb),
        python=args.python,
        add_arms=args.add_arms,
        variants=args.variants,
        variant_seed=args.variant_seed,
        **bounds(args),
    )
    kwargs = {
        "studies": args.study,
        "jobs": args.jobs,
        "options": opts,
        "partial": out / PARTIAL_DIR,
        "executor": args.executor,
        "scheduler": args.scheduler,
        "fresh": fresh,
        "ladder": ladder,
    }
    result = _with_progress(build, args.paths, kwargs)
    write_build(result, out)
    result.raise_if_interrupted(out)
    _summary(result, out)
    return 0


def check_spec_paths(paths: list[Path]) -> None:
    """``InputFileError`` for a path that is neither a case spec file nor a directory holding one."""
    from execstate.builder import find_specs
    from execstate.errors import InputFileError, require_file

    for path in paths:
        if not path.is_dir():
            require_file(path, "case spec", "pass a case.toml file or a directory that holds some")
        elif not find_specs([path]):
            raise InputFileError(
                f"directory {path} holds no case.toml (searched recursively). "
                "Fix: pass a directory with case specs, or a case spec file"
            )


def _with_progress(build: Any, paths: list[Path], kwargs: dict[str, Any]) -> Any:
    if not sys.stderr.isatty():
        return build(paths, **kwargs)
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

        return build(paths, progress=report, **kwargs)


def _summary(result: Any, out: Path) -> None:
    from execstate.builder import corpus, fresh_corpus
    from execstate.errors import NothingAdmitted, one_line
    from execstate.tables import to_markdown

    m = result.manifest
    print(f"admitted {m.cases_admitted} cases ({m.tasks} tasks), excluded {m.cases_excluded}; python {m.python}")
    for e in result.exclusions:
        print(f"  excluded {e.case_id} [{e.check}]: {e.reason}")
    if m.fresh is not None:
        print(f"fresh: {len(m.fresh['refreshed'])} case(s) refreshed; seed commitment {m.fresh['commitment']}")
        for case_id, why in m.fresh["not_refreshable"].items():
            print(f"  not refreshable {case_id}: {why}")
    for n in m.not_posed:
        print(f"  not posed {n['case_id']} {n['arm']}: {n['reason']}")
    if m.variants is not None:
        print(f"variants: {len(m.variants['kept'])} kept ({', '.join(m.variants['names'])})")
        for n in m.variants["not_kept"]:
            print(f"  not kept {n['case_id']}: {n['reason']}")
    if m.ladder is not None:
        _ladder_summary(m.ladder)
    print(f"wrote {out / 'tasks.jsonl'}, {out / 'excluded.jsonl'}, {out / 'manifest.json'}, {out / 'README.md'}")
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
    if m.ladder is not None:
        return
    print(to_markdown(corpus(result.tasks)))
    if m.fresh is not None:
        print(to_markdown(fresh_corpus(result.tasks)))


def _ladder_summary(record: dict[str, Any]) -> None:
    """Per case: its rungs found of the targets, the missing ones (with the check, ``budget`` or ``run``, of a rung a
    budget or a measurement's CPU limit refused), or why it has no ladder."""
    targets = len(record["targets"])
    cases = record["cases"]
    full = sum(len(e.get("rungs", [])) == targets for e in cases.values())
    print(f"ladder: {len(cases)} case(s), {full} with all {targets} rungs (tolerance {record['tolerance']:g}x)")
    for case_id, entry in cases.items():
        if "none" in entry:
            print(f"  no ladder {case_id}: {entry['none']}")
            continue
        missing = ", ".join(str(m["target"]) + (f" ({m['check']})" if m.get("check") else "") for m in entry["missing"])
        print(f"  {case_id}: {len(entry['rungs'])} of {targets} rungs" + (f"; missing {missing}" if missing else ""))
