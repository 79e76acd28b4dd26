"""``execstate run``: a thin command over ``run_tasks``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "run",
        help="send tasks to model settings; resumable, one record per cell in OUT/responses.jsonl",
        description="Send every pending (task, setting, sample) cell; re-running the same command resumes.",
    )
    p.add_argument("--tasks", required=True, type=Path, help="tasks.jsonl written by `execstate build`")
    p.add_argument("--settings", required=True, type=Path, help="settings TOML with [[setting]] tables")
    p.add_argument("--out", required=True, type=Path, help="run directory (responses.jsonl, run_manifest.json)")
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
    from execstate.errors import require_file
    from execstate.run import run_tasks

    require_file(args.tasks, "--tasks", "build tasks first with `execstate build` and pass its tasks.jsonl")
    require_file(args.settings, "--settings", "pass a settings TOML with [[setting]] tables (see README)")
    common = dict(setting=args.setting, samples=args.samples, limit=args.limit, cache=_cache_dir(args.cache))
    if args.plan:
        from execstate.run import format_plan, plan_tasks

        rows = plan_tasks(args.tasks, args.settings, args.out, batch=bool(getattr(args, "batch", False)), **common)
        print(format_plan(rows))
        return 0
    summary = run_tasks(
        args.tasks, args.settings, args.out, batch=args.batch, batch_fallback=args.batch_fallback, **common
    )
    print(format_summary(summary))
    if summary.interrupted:
        return 130
    return 0 if summary.ok else 1


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
