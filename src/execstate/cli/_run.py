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
    p.set_defaults(func=_handle)


def _handle(args: argparse.Namespace) -> int:
    from execstate.errors import require_file
    from execstate.run import run_tasks

    require_file(args.tasks, "--tasks", "build tasks first with `execstate build` and pass its tasks.jsonl")
    require_file(args.settings, "--settings", "pass a settings TOML with [[setting]] tables (see README)")
    summary = run_tasks(
        args.tasks, args.settings, args.out, setting=args.setting, samples=args.samples, limit=args.limit
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
        lines.append(
            f"{name}: {counts['completed']} completed, {counts['no-response']} no-response, {counts['retry']} retries"
        )
    for name, reason in summary.aborted.items():
        lines.append(f"{name}: STOPPED: {reason}")
    lines.append(
        f"{summary.planned} cells planned, {summary.already_recorded} already recorded, "
        f"{summary.new_records} recorded now, {summary.missing} missing -> {summary.out_dir / 'responses.jsonl'}"
    )
    if summary.interrupted or summary.missing:
        lines.append("re-run the same command to resume")
    return "\n".join(lines)
