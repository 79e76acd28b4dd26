"""Benchmark: `cruxeval-score --task input` on 800 items x 10 generations, both modes (target < 300 s on 2 cores).

Run:  python benchmarks/cruxeval_score.py [--smoke]

There is no released CRUXEval-I generations file in the tree, so the
generations are made from the bundled items, ten per item, in the mix a model
file has: the item's own call (five times, one with extra spaces), the call
with no arguments (``f()``, which raises), the output literal (not a call),
the call with an extra argument, the call ``or True`` (right upstream, an
invalid call here) and the call with its first literal changed. Each mode
scores all 8,000 in the sandbox (batches of 400 calls per sandboxed worker
process, two at a time); the script prints each mode's wall time, its pass@1
and outcomes, and the ratio of each time to the 300-second target, side by
side in one run. Exit status 1 when a mode misses the target.
--smoke: the first 20 items x 10 generations; the target sets no exit status.
"""

from __future__ import annotations

import argparse
import sys
import time

from execstate.grade import score_generations
from execstate.studies.cruxeval import LITERAL_CALLS, load_items

TARGET_S = 300.0


def _generations(item: dict) -> list[str]:
    own = LITERAL_CALLS.get(item["id"], f"f({item['input']})")
    changed = own.replace("1", "2", 1) if "1" in own else own.replace("'", "'x", 1)
    return [
        *[own] * 4,
        own.replace("(", "( ", 1),
        "f()",
        item["output"],
        own[:-1] + ", 0)",
        f"{own} or True",
        changed,
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="20 items; the target sets no exit status")
    args = parser.parse_args()
    items = load_items()
    if args.smoke:
        items = dict(list(items.items())[:20])
    generations = {key: _generations(item) for key, item in items.items()}
    total = sum(len(g) for g in generations.values())
    print(f"{len(items)} items x 10 = {total} input generations; target {TARGET_S:.0f} s per mode")
    missed = False
    for mode in ("literal", "upstream"):
        start = time.perf_counter()
        score = score_generations(generations, items, mode=mode, task="input")  # type: ignore[arg-type]
        wall = time.perf_counter() - start
        missed |= wall > TARGET_S
        print(
            f"{mode:9} {wall:7.2f} s  ({wall / TARGET_S:.3f} of the target)  pass@1 {score.pass_at[1]:.2f}  "
            f"pass@5 {score.pass_at[5]:.2f}  outcomes {score.outcomes}"
        )
    return 1 if missed and not args.smoke else 0


if __name__ == "__main__":
    sys.exit(main())
