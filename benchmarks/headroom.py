"""Headroom of the clocks over the counted budgets: every built-in study built with every time limit divided by 3.

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/headroom.py [--study NAME ...] [--jobs 2] [--divide 3] [--compare-off] [--smoke]

What decides whether a case is admitted is counted (trace events, state slots and objects walked:
``BuildOptions.trace_budget``, ``state_budget``, ``object_budget``); CPU and wall-clock limits are a safety
net far above them. This prints, measured side by side in one run:
(a) each built study (``--study``, default every built-in study that is built from specs) with the default
    limits and with every time limit divided by ``--divide`` (runs 20 s -> 6.7 s; measurements 200 s of CPU
    -> 67 s): wall time of each build, and whether both give tasks byte-identical to the golden file
    ``tests/studies/golden/study_tasks.sha256.json`` with no exclusion. Byte-identical under a third of
    the clocks means no built-in case comes within 3x of them on this machine: a machine 3x slower
    admits the same cases.
(b) with ``--compare-off``, the same build with the budgets off (``none``), side by side: what the budget
    checks cost (the ratio "budgets on / off").
--smoke: one classic case, one job (does it still run?).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from dataclasses import replace
from pathlib import Path

from execstate.builder import BuildOptions, build
from execstate.sandbox import Limits
from execstate.studies import STUDIES, builtin_studies

GOLDEN = Path(__file__).parent.parent / "tests" / "studies" / "golden" / "study_tasks.sha256.json"


def _digest(line: str) -> str:
    return hashlib.sha256(line.encode("utf-8")).hexdigest()


SMOKE = ["insertion_sort"]
"""The classic case of a ``--smoke`` run (the study's quickest to build: its three builds take ~2 s each)."""


def _built(study: str, opts: BuildOptions, jobs: int, smoke: bool) -> tuple[float, dict[str, str], list[str]]:
    started = time.perf_counter()
    if smoke:
        root = STUDIES[study].cases_dir
        assert root is not None
        result = build([root / name for name in SMOKE], jobs=jobs, options=opts)
    else:
        result = build([], studies=[study], jobs=jobs, options=opts)
    seconds = time.perf_counter() - started
    hashes = {t.task_id: _digest(t.to_json_line()) for t in result.tasks}
    return seconds, hashes, [f"{e.case_id}: {e.check}: {e.reason[:160]}" for e in result.exclusions]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", action="append", help="a built-in study (repeatable; default: every built one)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--divide", type=float, default=3.0, help="divide every time limit by this (default 3)")
    ap.add_argument("--compare-off", action="store_true", help="also build with the budgets off: (b)")
    ap.add_argument("--smoke", action="store_true", help="one classic case, one job")
    args = ap.parse_args()
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    studies = args.study or [s for s in builtin_studies() if STUDIES[s].cases_dir is not None]
    if args.smoke:
        studies, args.jobs = ["classic"], 1
    default = BuildOptions()
    base = default.limits
    tight = replace(
        default, limits=Limits(base.wall_s / args.divide, base.cpu_s / args.divide, base.memory_mb, base.output_bytes)
    )
    unbudgeted = replace(default, trace_budget=None, state_budget=None, object_budget=None)
    print(
        f"runs {base.cpu_s:g} s, measurements {base.cpu_s * default.measure_factor:g} s of CPU; divided by "
        f"{args.divide:g}: {tight.limits.cpu_s:.1f} s and {tight.limits.cpu_s * default.measure_factor:.1f} s"
    )
    totals = {"default": 0.0, "tight": 0.0, "off": 0.0}
    identical = True
    for study in studies:
        line = []
        runs = [("default", default), ("tight", tight)]
        if args.compare_off or args.smoke:
            runs.append(("off", unbudgeted))
        for name, opts in runs:
            seconds, hashes, excluded = _built(study, opts, args.jobs, args.smoke)
            totals[name] += seconds
            pinned = golden.get(study, {})
            expected = {k: pinned.get(k) for k in hashes} if args.smoke else pinned
            same = bool(hashes) and hashes == expected and not excluded
            identical &= same if name != "off" else True
            line.append(f"{name} {seconds:.0f} s {'identical' if same else 'DIFFERENT'}")
            for e in excluded[:5]:
                print(f"    {name}: excluded {e}")
        print(f"(a) {study}: " + ", ".join(line), flush=True)
    print(
        f"(a) all: default {totals['default']:.0f} s, limits / {args.divide:g} {totals['tight']:.0f} s; "
        f"byte-identical to the golden file under both: {identical}"
    )
    if totals["off"]:
        on, off = totals["default"], totals["off"]
        print(f"(b) budgets on / off: {on / off:.2f}x ({on:.0f} s / {off:.0f} s)")


if __name__ == "__main__":
    main()
