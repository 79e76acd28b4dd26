"""Every Python example case built by ``execstate build``: the metrics on its tasks equal the reference probe's.

Covers the builder's wiring (clean runs for the final arms; instrumented runs
up to the checkpoint, with inserted lines excluded and inserted names hidden,
for the state arms) on 3.11, 3.12 and 3.13. The probe measures Python only:
the C++ examples' metrics (gcov counts and the observe mode) are checked in
tests/builder (test_cpp_build.py, and the trace ordering in test_build.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _metrics_helpers import REFERENCE, interpreter_params

from execstate.builder import BuildOptions, build, load_spec
from execstate.languages.python import instrument
from execstate.metrics._measure import run_probe

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PYTHON_SPECS = [p for p in sorted(EXAMPLES.glob("*/case.toml")) if load_spec(p).language == "python"]
MODES = {"inside-loop-state": "inside", "post-loop-state": "post"}


def reference_of(task, clean_source: str, python: str):
    if task.arm not in MODES:
        return run_probe(REFERENCE, task.source, task.input.encode(), python=python)
    meta = task.meta
    inst = instrument(clean_source, meta["loop_line"], tuple(meta["variables"]), MODES[task.arm], meta["k"])
    assert inst.source == task.source
    return run_probe(
        REFERENCE,
        task.source,
        task.input.encode(),
        python=python,
        exclude_lines=inst.inserted_lines,
        hidden_prefix=inst.prefix,
    )


@pytest.mark.parametrize("python", interpreter_params())
def test_example_tasks_carry_reference_metrics(python):
    result = build(PYTHON_SPECS, options=BuildOptions(python=python))
    assert len(result.tasks) == 4 * len(PYTHON_SPECS) >= 12 and not result.exclusions, result.exclusions
    clean = {t.case_id: t.source for t in result.tasks if t.arm == "short-trace-final"}
    for task in result.tasks:
        ref = reference_of(task, clean[task.case_id], python)
        assert ref.ok, ref.detail
        got = (task.metrics.trace_length, task.metrics.peak_state, task.metrics.state_load)
        assert got == (ref.trace_length, ref.peak_state, ref.state_load), task.task_id
        assert task.meta["python"] == ref.toolchain and task.metrics.cyclomatic >= 1
