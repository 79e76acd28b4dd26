"""Benchmark of building Python cases: one traced run per input against one run per arm.

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/build.py [--study classic] [--case codecontests_py/816_d_karen_and_test_5164] [--jobs 2] [--smoke]

Prints, measured side by side in one run:
(a) the study built as execstate builds (one measurement of the long input for its four arms, one run
    per seed for its states) and as the per-arm reference builds (``BuildOptions(measure_arms_apart=True)``: each arm
    measured and each checkpoint's state printed by a run of its own, kept for this benchmark like the
    sandbox's bare runner), against 10 plain runs of every final-arm program on its input: each build's
    time over the plain runs' and the ratio of the two builds. The two builds' tasks must be identical.
(b) one case (default ``codecontests_py/816_d_karen_and_test_5164``, whose long input walks 6.4e9 state
    slots) built both ways against one ``execstate metrics`` measurement of its long input: the ratios.
Measurements the builder remembers within the process are forgotten before each build.
--smoke: one classic case (``insertion_sort``) for (a) and ``classic/bisection`` for (b), one job.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from execstate.builder import BuildOptions, build, load_spec
from execstate.languages.python.language import PythonLanguage
from execstate.metrics import metrics_report
from execstate.studies import STUDIES

PLAIN_REPEATS = 10


def case_dirs(study: str, names: list[str] | None) -> list[Path]:
    root = STUDIES[study].cases_dir
    assert root is not None, f"{study} has no case folders"
    found = sorted(p.parent for p in root.rglob("case.toml"))
    return [d for d in found if d.name in names] if names else found


def timed_build(paths: list[Path], jobs: int, *, per_arm: bool) -> tuple[float, list[str]]:
    started = time.perf_counter()
    result = build(paths, jobs=jobs, options=BuildOptions(measure_arms_apart=per_arm))
    wall = time.perf_counter() - started
    if result.exclusions:
        for e in result.exclusions:
            print(f"excluded {e.case_id}: {e.check}: {e.reason}", file=sys.stderr)
        raise SystemExit(1)
    return wall, [t.to_json_line() for t in result.tasks]


def final_runs(tasks: list[str]) -> list[tuple[str, bytes]]:
    """(clean program, input) of every final-arm task: what a plain run of the case runs."""
    rows = [json.loads(line) for line in tasks]
    return [(r["source"], r["input"].encode("utf-8")) for r in rows if r["arm"].endswith("-trace-final")]


def plain_runs(runs: list[tuple[str, bytes]]) -> float:
    """Seconds of ``PLAIN_REPEATS`` plain runs of each (program, input), one after another."""
    lang = PythonLanguage.from_options(BuildOptions())
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        for _ in range(PLAIN_REPEATS):
            for source, data in runs:
                lang.run(source, data, Path(tmp))
        return time.perf_counter() - started


def part_a(study: str, names: list[str] | None, jobs: int) -> None:
    paths = case_dirs(study, names)
    one, tasks = timed_build(paths, jobs, per_arm=False)
    plain = plain_runs(final_runs(tasks))
    reference, reference_tasks = timed_build(paths, jobs, per_arm=True)
    if tasks != reference_tasks:
        sys.exit("the two builds' tasks differ: one run per input does not give the per-arm numbers")
    print(f"(a) {study}: {len(paths)} cases, {len(tasks)} tasks (identical both ways), jobs={jobs}")
    print(f"    {PLAIN_REPEATS} plain runs of every final-arm program on its input: {plain:.1f} s")
    print(f"    per-arm reference build: {reference:.1f} s = {reference / plain:.2f}x the plain runs")
    print(f"    one-run build:           {one:.1f} s = {one / plain:.2f}x the plain runs")
    print(f"    one-run / per-arm: {one / reference:.2f}x")


def part_b(case: str) -> None:
    study, name = case.split("/", 1)
    (path,) = case_dirs(study, [name])
    spec = load_spec(path / "case.toml")
    one, tasks = timed_build([path], 1, per_arm=False)
    reference, reference_tasks = timed_build([path], 1, per_arm=True)
    if tasks != reference_tasks:
        sys.exit(f"{case}: the two builds' tasks differ")
    long = next(json.loads(t)["input"] for t in tasks if json.loads(t)["arm"] == "long-trace-final")
    with tempfile.TemporaryDirectory() as tmp:
        stdin = Path(tmp) / "long.in"
        stdin.write_text(long, encoding="utf-8")
        started = time.perf_counter()
        report = metrics_report(spec.program, stdin, timeout_s=1800)
        measure_s = time.perf_counter() - started
    print(f"(b) {case}: trace {report['trace_length']}, peak state {report['peak_state']}")
    print(f"    one `execstate metrics` measurement of the long input: {measure_s:.1f} s")
    print(f"    per-arm reference build of the case: {reference:.1f} s = {reference / measure_s:.2f}x that measurement")
    print(f"    one-run build of the case:           {one:.1f} s = {one / measure_s:.2f}x that measurement")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--study", default="classic")
    parser.add_argument("--case", default="codecontests_py/816_d_karen_and_test_5164")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--smoke", action="store_true", help="one classic case for (a), classic/bisection for (b)")
    args = parser.parse_args()
    jobs = args.jobs or (1 if args.smoke else 2)
    part_a(args.study, ["insertion_sort"] if args.smoke else None, jobs)
    part_b("classic/bisection" if args.smoke else args.case)


if __name__ == "__main__":
    main()
