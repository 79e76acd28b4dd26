"""The true trace of a cell: the program's own run on its input, step by step, recorded on demand in the sandbox.

``true_trace(task)`` runs ``_trace_probe.py`` (``sys.settrace``, standard library only) with the task's program and
input through ``execstate.sandbox.run_script``: the same isolation as the builder's runs (namespaces, no network,
seccomp, limits), so the untrusted program never runs in the viewer's process. A step is one ``line`` event of the
program's own code: its number, the line, the function, the projected variables' values (``repr``, cut to 200
characters) before that line runs. The trace keeps ``TRACE_STEP_CAP`` steps: the first half and the last half of
the run (its start, and its end where a checkpoint is), with the count of the steps between; a run is stopped
after ``TRACE_MAX_EVENTS`` steps (``end`` is ``capped``). Marked on top:

- ``checkpoint``: a state arm's program calls its checkpoint (``os._exit`` in the instrumented source): the last
  step is the checkpoint;
- ``iteration``: a step on the checkpoint loop's header line (the top of an iteration) carries how many came
  before it, counted from 0 over the whole run; a loop trace's claimed states are aligned to them, claimed state
  ``i`` beside iteration ``i`` (exact for a loop that runs once; for an inner loop that runs again, the first
  run's iterations).

Only Python programs are traced; a C++ task's trace says why it has none. The viewer keeps a recorded trace in the
run's view cache, so it is recorded once per task.
"""

from __future__ import annotations

import json
import secrets
import sys
from pathlib import Path
from typing import Any

from execstate.records import Task
from execstate.view._cell import highlight

TRACE_STEP_CAP = 2000
"""The most steps a true trace keeps: the run's first 1,000 and its last 1,000."""
TRACE_MAX_EVENTS = 200_000
"""The most steps a traced run may take; it is stopped there (``end`` is ``capped``)."""
TRACE_WALL_S = 30.0
"""Wall-clock and CPU limit of one trace recording, in seconds."""
PROBE = Path(__file__).with_name("_trace_probe.py")


def true_trace(task: Task, cap: int = TRACE_STEP_CAP) -> dict[str, Any]:
    """Record ``task``'s true trace (see the module docstring): ``{"available", "steps", "events", "end",
    "iterations", "checkpoint_step", "loop_line", "variables", "cap", "output", "reason"}`` (``reason``: why
    there is none, when ``available`` is false)."""
    from execstate.sandbox import Limits, SandboxUnavailable, run_script

    marks = highlight(task)
    base: dict[str, Any] = {
        "task_id": task.task_id, "cap": cap, "loop_line": marks["loop_line"], "variables": marks["variables"],
        "steps": [], "iterations": [], "checkpoint_step": None,
    }  # fmt: skip
    if task.language != "python":
        return {**base, "available": False, "reason": f"true traces are recorded for Python programs only; this "
                f"task's program is {task.language}"}  # fmt: skip
    token = secrets.token_hex(16)
    args = ["{cwd}/main.py", token, str(cap), str(TRACE_MAX_EVENTS), str(task.meta.get("instrument_prefix") or "_es_"),
            json.dumps(marks["variables"]), str(marks["loop_line"] or 0)]  # fmt: skip
    limits = Limits(wall_s=TRACE_WALL_S, cpu_s=TRACE_WALL_S, output_bytes=8 * 1024 * 1024)
    try:
        result = run_script(sys.executable, PROBE, args, task.input.encode("utf-8"), limits,
                            files={"main.py": task.source.encode("utf-8")})  # fmt: skip
    except SandboxUnavailable as exc:
        return {**base, "available": False, "reason": f"the sandbox is not available here: {exc}"}
    out = result.stdout.decode("utf-8", "replace")
    marker = "\n" + token + "\n"
    if marker not in out:
        return {**base, "available": False, "reason": f"the traced run ended without a trace: {result.describe()}"}
    payload = json.loads(out.rsplit(marker, 1)[1])
    steps = payload["steps"]
    iterations = [i for i, step in enumerate(steps) if "iteration" in step]
    checkpoint = len(steps) - 1 if payload["end"] == "checkpoint" and steps else None
    return {**base, "available": True, "steps": steps, "events": payload["events"], "end": payload["end"],
            "iterations": iterations, "checkpoint_step": checkpoint, "output": payload["output"],
            "output_chars": payload["output_chars"], "reason": None}  # fmt: skip
