"""``execstate run``: a thin command over ``run_tasks``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

COMMANDS: dict[str, str] = {
    "run": "send tasks to model settings; resumable, one record per cell in OUT/responses.jsonl",
}
"""This module's commands -> their line in ``execstate --help``, which lists them without building their options."""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "run",
        help=COMMANDS["run"],
        description="Send every pending (task, setting, sample) cell; re-running the same command resumes.",
    )
    p.add_argument(
        "out_dir",
        nargs="?",
        type=Path,
        default=None,
        metavar="OUT",
        help="the run directory, instead of --out (with --cancel or --retry, where --tasks and --settings default "
        "to the run manifest's)",
    )
    p.add_argument("--tasks", type=Path, help="tasks.jsonl written by `execstate build`")
    p.add_argument("--settings", type=Path, help="settings TOML with [[setting]] tables")
    p.add_argument("--out", type=Path, help="run directory (responses.jsonl, run_manifest.json)")
    p.add_argument("--setting", default=None, help="run only the setting with this name")
    p.add_argument("--samples", type=int, default=1, help="responses per task and setting (default 1)")
    p.add_argument("--limit", type=int, default=None, help="only the first N tasks of the file")
    p.add_argument(
        "--cache",
        nargs="?",
        const=DEFAULT_CACHE,
        default=None,
        metavar="DIR",
        help="answer cells whose exact request was answered before (in any run) from this response cache and "
        "add new answers to it; --cache alone uses $EXECSTATE_CACHE_DIR or ~/.cache/execstate/responses",
    )
    p.add_argument(
        "--plan",
        action="store_true",
        help="send nothing: print per setting the cells and requests to send (after resume and cache), "
        "estimated input tokens and the cost range, live and batch",
    )
    p.add_argument(
        "--batch",
        action="store_true",
        help="send the cells of every setting whose provider has a batch API (openai, anthropic) through the "
        "vendor's batches, at half price, polling until they end; journal in OUT/batches.jsonl, re-run to resume",
    )
    p.add_argument(
        "--batch-fallback",
        choices=("batch", "live"),
        default="batch",
        help="cells a batch sends back expired, canceled or failed: send them in a next batch (default) or live",
    )
    p.add_argument(
        "--cancel",
        action="store_true",
        help="send nothing: cancel at the vendor every batch still open in OUT/batches.jsonl (of --setting when "
        "given), journal each as cancelled and print it; their cells stay pending for a later run",
    )
    p.add_argument(
        "--retry",
        choices=("no-response",),
        default=None,
        help="no-response: first move the no-response records whose every error was a transport or vendor-side "
        "failure to OUT/responses.retried.jsonl, then ask those cells again (docs/run.md, Retry policy)",
    )
    p.add_argument(
        "--adaptive",
        choices=("horizon",),
        default=None,
        help="horizon: send ladder cells in rounds, each round chosen from the answers so far to narrow each "
        "setting's execution horizon, until --target-width or --budget; choices in OUT/adaptive.jsonl "
        "(docs/adaptive.md)",
    )
    p.add_argument("--budget", type=int, default=None, help="--adaptive: most cells to send per setting")
    p.add_argument(
        "--target-width",
        type=float,
        default=None,
        metavar="W",
        help="--adaptive: stop a setting when the 95%% interval of log2 H50 is narrower than W (doublings)",
    )
    p.add_argument(
        "--round",
        type=int,
        default=10,
        metavar="N",
        help="--adaptive: cells chosen per setting per round (default 10; keep it to resume)",
    )
    p.add_argument(
        "--seed", type=int, default=0, help="--adaptive: seed of the order programs take turns in (default 0)"
    )
    p.add_argument(
        "--adaptive-arm", default=None, metavar="ARM", help="--adaptive: the ladder's arm, when it has several"
    )
    p.set_defaults(func=_handle)


DEFAULT_CACHE = "\0default"
"""``--cache`` given without a folder: the user cache folder (``run.default_cache_dir``)."""


def _cache_dir(value: str | None) -> Path | None:
    if value is None:
        return None
    if value == DEFAULT_CACHE:
        from execstate.run import default_cache_dir

        return default_cache_dir()
    return Path(value)


def _handle(args: argparse.Namespace) -> int:
    from execstate.errors import UsageError, require_file
    from execstate.run import run_tasks

    if args.out is not None and args.out_dir is not None and args.out != args.out_dir:
        raise UsageError(f"two run folders given: --out {args.out} and {args.out_dir}. Fix: pass one")
    args.out = args.out or args.out_dir
    if args.out is None:
        raise UsageError("no run folder given. Fix: pass --out OUT (or OUT alone with --cancel or --retry)")
    if args.cancel:
        return _cancel(args)
    recorded = _from_manifest(args) if args.retry is not None else None
    if args.tasks is None or (args.settings is None and recorded is None):
        raise UsageError("--tasks and --settings are required. Fix: pass the tasks.jsonl and the settings TOML")
    require_file(args.tasks, "--tasks", "build tasks first with `execstate build` and pass its tasks.jsonl")
    if recorded is None:
        require_file(args.settings, "--settings", "pass a settings TOML with [[setting]] tables (see README)")
    settings: Any = recorded if recorded is not None else args.settings
    common = dict(setting=args.setting, samples=args.samples, limit=args.limit, cache=_cache_dir(args.cache))
    if args.adaptive is not None:
        return _adaptive(args, common)
    if args.plan:
        from execstate.run import format_plan, plan_tasks

        rows = plan_tasks(args.tasks, settings, args.out, batch=bool(getattr(args, "batch", False)), **common)
        print(format_plan(rows))
        return 0
    summary = run_tasks(
        args.tasks,
        settings,
        args.out,
        batch=args.batch,
        batch_fallback=args.batch_fallback,
        retry=args.retry,
        **common,
    )
    print(format_summary(summary))
    if summary.interrupted:
        return 130
    return 0 if summary.ok else 1


def _adaptive(args: argparse.Namespace, common: dict[str, Any]) -> int:
    """``run --adaptive horizon``: the adaptive engine (``execstate.adaptive``) instead of the whole product."""
    from execstate.errors import UsageError

    clash = [flag for flag, on in (("--plan", args.plan), ("--retry", args.retry), ("--limit", args.limit)) if on]
    if clash:
        raise UsageError(f"--adaptive does not combine with {', '.join(clash)}. Fix: drop {clash[0]}")
    if args.budget is None or args.target_width is None:
        raise UsageError("--adaptive needs --budget N and --target-width W. Fix: pass both (docs/adaptive.md)")
    from execstate.adaptive import AdaptiveOptions, format_adaptive, run_adaptive

    options = AdaptiveOptions(
        budget=args.budget,
        target_width=args.target_width,
        rule=args.adaptive,
        round_size=args.round,
        seed=args.seed,
        samples=args.samples,
        arm=args.adaptive_arm,
        setting=common["setting"],
        batch=args.batch,
        batch_fallback=args.batch_fallback,
        cache=common["cache"],
    )
    summary = run_adaptive(args.tasks, args.settings, args.out, options)
    print(format_adaptive(summary))
    if summary.interrupted:
        return 130
    return 0 if summary.ok else 1


def _from_manifest(args: argparse.Namespace) -> list[Any] | None:
    """``--retry`` without ``--tasks``/``--settings``: the run manifest's tasks file (set on ``args``) and its
    settings (returned when ``--settings`` is not given)."""
    from execstate.errors import SettingsError
    from execstate.run import manifest_inputs

    if args.tasks is not None and args.settings is not None:
        return None
    tasks, settings = manifest_inputs(args.out)
    if args.tasks is None:
        if tasks is None:
            raise SettingsError(f"{args.out}: the manifest names no tasks file. Fix: pass --tasks")
        args.tasks = tasks
    return settings if args.settings is None else None


def _cancel(args: argparse.Namespace) -> int:
    from execstate.run import cancel_batches

    done = cancel_batches(args.out, args.settings, setting=args.setting)
    if not done:
        print(f"no open batch in {args.out}")
    for c in done:
        if c.error is None:
            print(f"{c.setting}: cancelled batch {c.batch_id} ({c.cells} cells, now {c.status}); its cells are pending")
        else:
            print(f"{c.setting}: batch {c.batch_id} ({c.cells} cells) NOT cancelled: {c.error}")
    return 0 if all(c.error is None for c in done) else 1


def format_summary(summary: Any) -> str:
    """Human-readable lines of a ``RunSummary``: new records per setting by status, then what is left to do."""
    lines = []
    if summary.repair is not None:
        r = summary.repair
        lines.append(f"repaired a torn last line ({r.nbytes} bytes, kept in {r.saved_to})")
    for name, counts in summary.recorded.items():
        cached = getattr(summary, "cached", {}).get(name)
        from_cache = f", {cached} from the response cache (not sent)" if cached is not None else ""
        lines.append(
            f"{name}: {counts['completed']} completed, {counts['no-response']} no-response, "
            f"{counts['retry']} retries{from_cache}"
        )
    for name, b in getattr(summary, "batches", {}).items():
        live = f", {b.live} sent live" if b.live else ""
        lines.append(
            f"{name}: batches: {b.submitted} submitted ({b.cells} cells), {b.resumed} resumed, "
            f"{b.resent} cells re-sent{live}"
        )
    for name, n in getattr(summary, "retried", {}).items():
        lines.append(f"{name}: {n} no-response records moved to responses.retried.jsonl and asked again")
    lines.extend(getattr(summary, "notes", []))
    for name, reason in summary.aborted.items():
        lines.append(f"{name}: STOPPED: {reason}")
    lines.append(
        f"{summary.planned} cells planned, {summary.already_recorded} already recorded, "
        f"{summary.new_records} recorded now, {summary.missing} missing -> {summary.out_dir / 'responses.jsonl'}"
    )
    if summary.interrupted or summary.missing:
        lines.append("re-run the same command to resume")
    return "\n".join(lines)
