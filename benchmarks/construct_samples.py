"""Benchmark of real archives: admitted specs from sample-only, full and judge-library pools, against their targets.

Run from the repository root (takes a while: every problem is constructed and built)::

    python benchmarks/construct_samples.py [--jobs 2] [--keep 2] [--part samples|full|atcoder|all] [--smoke]

--smoke: one quick problem of each pool (targets are not judged): does it still run?

Prints, for (a) the shared CodeContests pool (``src/execstate/studies/codecontests_py/pool``,
the 40 problems of ``../shared/data/codecontests-py``) with every problem cut to its ``--keep``
smallest tests (``execstate.testing.samples_only_pool``, in a temporary directory) and (b) the
full pool: how many problems ``execstate build`` admits a constructed spec for, against the
targets (30 of 40 and 36 of 40); and for (c) ``benchmarks/pools/atcoder_py`` (24
contest-template programs that import the ``atcoder`` preset's packages, two or three samples
each) the same against its target of 70%. Each line says how many admitted specs have a
synthesized long input, why the others have none (construct's check, or the builder's), and the
wall time. The ``atcoder`` environment is installed once into the cache (needs PyPI the first time).
"""

from __future__ import annotations

import argparse
import json
import math
import tempfile
import time
from collections import Counter
from pathlib import Path

from execstate.builder import build
from execstate.construct import ConstructOptions, construct, read_pool
from execstate.studies import STUDIES
from execstate.testing import samples_only_pool

ATCODER_POOL = Path(__file__).parent / "pools" / "atcoder_py"
TARGETS = {
    "samples": 30,
    "full": 36,
    "atcoder": math.ceil(0.7 * len([d for d in ATCODER_POOL.iterdir() if d.is_dir()])),
}


SMOKE = ("103_b_cthulhu_4280", "acl_dsu_components")
"""The problems of a ``--smoke`` run: one quick problem of each pool."""


def measure(pool: Path, out: Path, jobs: int, study: str, smoke: bool = False) -> dict[str, object]:
    """Construct ``pool`` into ``out/specs`` and build it: admitted problems, synthesized ones, reasons, seconds."""
    problems = [p for p in read_pool(pool) if not smoke or p.id in SMOKE]
    started = time.perf_counter()
    result = construct(problems, out / "specs", ConstructOptions(study=study), jobs=jobs)
    built = build([out / "specs"], jobs=jobs)
    seconds = time.perf_counter() - started
    admitted = {t.case_id for t in built.tasks}
    synthesized = {t.case_id for t in built.tasks if t.meta.get("provenance", {}).get("long_origin") == "synthesized"}
    why = Counter(o.check for o in result.outcomes if o.check is not None)
    why.update(f"build: {e.check}" for e in built.exclusions)
    return {
        "problems": len(problems),
        "admitted": len(admitted),
        "synthesized": len(synthesized),
        "why not": dict(sorted(why.items())),
        "seconds": round(seconds),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", type=int, default=2, help="tests kept per problem in the samples-only pool")
    ap.add_argument("--part", choices=("samples", "full", "atcoder", "all"), default="all")
    ap.add_argument("--out", type=Path, default=None, help="keep the pools, specs and construct.json files here")
    ap.add_argument("--smoke", action="store_true", help="one problem per pool: does it still run?")
    args = ap.parse_args()
    pool = STUDIES["codecontests_py"].pool
    assert pool is not None
    with tempfile.TemporaryDirectory(prefix="bench-samples-") as scratch:
        tmp = args.out or Path(scratch)
        parts = ("samples", "full", "atcoder") if args.part == "all" else (args.part,)
        for part in parts:
            source, study = pool, "codecontests_py"
            label = f"CodeContests, {args.keep} smallest tests each" if part == "samples" else "CodeContests, all tests"
            if part == "samples":
                source = samples_only_pool(pool, Path(tmp) / "samples-pool", keep=args.keep)
            if part == "atcoder":
                source, study, label = ATCODER_POOL, "atcoder_py", "atcoder_py (atcoder preset, samples only)"
            found = measure(source, Path(tmp) / part, args.jobs, study, args.smoke)
            verdict = "met" if int(str(found["admitted"])) >= TARGETS[part] else "NOT MET"
            verdict = "smoke run, not judged" if args.smoke else verdict
            print(
                f"({part}) {label}: {found['admitted']} of {found['problems']} admitted "
                f"(target {TARGETS[part]}: {verdict}), {found['synthesized']} with a synthesized long input, "
                f"{found['seconds']} s",
                flush=True,
            )
            print(f"    why not: {json.dumps(found['why not'])}")


if __name__ == "__main__":
    main()
