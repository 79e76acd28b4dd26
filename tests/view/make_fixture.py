"""Regenerate ``tests/view/fixture/tasks.jsonl``, the built tasks the viewer's tests run and grade.

    PYTHONPATH=src python tests/view/make_fixture.py

The tasks are the builder's own output (about a minute on 2 cores, so the tests read them instead of building):
the classic study's ``kadane`` case (its four paper arms, its loop trace and line count) with its ``rename``
variant, a small stdin case with the optional input arm (``short-trace-input``), and CRUXEval items
``sample_0`` and ``sample_1`` (``function-output`` and ``function-input``): one task of every built-in arm.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).with_name("fixture") / "tasks.jsonl"


def main() -> None:
    sys.path.insert(0, str(ROOT))
    from tests.builder.test_input_arm import write_case

    from execstate.builder import BuildOptions, build
    from execstate.records import write_jsonl
    from execstate.studies import STUDIES

    classic = STUDIES["classic"].cases_dir
    assert classic is not None
    with tempfile.TemporaryDirectory() as tmp:
        case = write_case(Path(tmp), "python")
        built = build([classic / "kadane", case], studies=["cruxeval"], jobs=2,
                      options=BuildOptions(variants=("rename",)))  # fmt: skip
    keep = {"cruxeval/sample_0", "cruxeval/sample_1"}
    tasks = [t for t in built.tasks if t.study != "cruxeval" or t.case_id in keep]
    FIXTURE.parent.mkdir(exist_ok=True)
    write_jsonl(FIXTURE, tasks)
    print(f"{len(tasks)} tasks -> {FIXTURE}")


if __name__ == "__main__":
    main()
