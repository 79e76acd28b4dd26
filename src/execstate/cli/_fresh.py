"""``execstate verify-fresh``: confirm that a ``--fresh`` build's tasks are what the revealed seed gives."""

from __future__ import annotations

import argparse
from pathlib import Path

COMMANDS: dict[str, str] = {
    "verify-fresh": "check a --fresh build's tasks against the revealed seed (commitment, then a rebuild)",
}
"""This module's commands -> their line in ``execstate --help``, which lists them without building their options."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "verify-fresh",
        help=COMMANDS["verify-fresh"],
        description=__doc__,
    )
    p.add_argument("tasks", type=Path, help="the tasks.jsonl that `execstate build --fresh SEED` wrote")
    p.add_argument("--seed", required=True, help="the revealed seed")
    p.add_argument(
        "--cases",
        action="append",
        default=[],
        type=Path,
        help="a folder or case.toml of the cases (repeatable; built-in studies' cases are found without it)",
    )
    p.add_argument("--jobs", type=int, default=2, help="cases rebuilt in parallel (default 2)")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from execstate.builder import verify_fresh

    found = verify_fresh(args.tasks, args.seed, args.cases, jobs=args.jobs)
    for task_id, why in sorted(found.differing.items()):
        print(f"  {task_id}: {why}")
    if found.ok:
        print(f"verified: all {found.checked} fresh task(s) are what the seed gives")
        return 0
    print(f"NOT verified: {len(found.differing)} of {found.checked} fresh task(s) differ (listed above)")
    return 1
