"""Regenerate ``tests/view/fixture/``, the graded run the viewer's tests read (a pipeline output's layout).

    PYTHONPATH=src python tests/view/make_fixture.py

It is the builder's, the runner's and the grader's own output (about two minutes on 2 cores, so the tests read it
instead of making it): ``build/tasks.jsonl``, ``run/responses.jsonl`` (the oracle and synthetic pipeline-check
settings, one sample each), ``run/run_manifest.json`` and ``grades.jsonl``. The tasks are
the classic study's ``kadane`` case (its four paper arms, its loop trace and line count) with its ``rename``
variant, a small stdin case with the optional input arm (``short-trace-input``), and CRUXEval items
``sample_0`` and ``sample_1`` (``function-output`` and ``function-input``): one task of every built-in arm.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).with_name("fixture")


def main() -> None:
    sys.path.insert(0, str(ROOT))
    from tests.builder.test_input_arm import write_case

    from execstate.builder import BuildOptions, build
    from execstate.grade import grade_all
    from execstate.pipeline import PIPELINE_CHECK_SETTINGS
    from execstate.records import Response, read_jsonl, write_jsonl
    from execstate.run import RESPONSES_NAME, run_tasks
    from execstate.studies import STUDIES

    classic = STUDIES["classic"].cases_dir
    assert classic is not None
    with tempfile.TemporaryDirectory() as tmp:
        case = write_case(Path(tmp), "python")
        built = build([classic / "kadane", case], studies=["cruxeval"], jobs=2,
                      options=BuildOptions(variants=("rename",)))  # fmt: skip
    keep = {"cruxeval/sample_0", "cruxeval/sample_1"}
    tasks = [t for t in built.tasks if t.study != "cruxeval" or t.case_id in keep]
    shutil.rmtree(FIXTURE, ignore_errors=True)
    (FIXTURE / "build").mkdir(parents=True)
    write_jsonl(FIXTURE / "build" / "tasks.jsonl", tasks)
    settings = list(PIPELINE_CHECK_SETTINGS)
    os.chdir(FIXTURE)  # the run manifest records the tasks file's path as given: relative, so the copy reads it
    run_tasks(Path("build") / "tasks.jsonl", settings, Path("run"), progress=False)
    responses = list(read_jsonl(Path("run") / RESPONSES_NAME, Response))
    write_jsonl(Path("grades.jsonl"), grade_all(tasks, responses, settings=[s.name for s in settings]))
    Path("run", ".run.lock").unlink(missing_ok=True)  # the runner's lock file, empty: not a record
    print(f"{len(tasks)} tasks, {len(responses)} graded cells -> {FIXTURE}")


if __name__ == "__main__":
    main()
