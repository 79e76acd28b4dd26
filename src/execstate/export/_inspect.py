"""Inspect (PyPI ``inspect-ai``) export: one task file whose samples are execstate tasks and whose scorer is SPEC 9.

``export_inspect(tasks.jsonl, DIR)`` copies the tasks beside a small task file
``DIR/execstate_inspect.py``; ``inspect eval DIR/execstate_inspect.py --model
PROVIDER/MODEL`` then asks any Inspect provider exactly the SPEC 7 prompt (the
system message with the task's literal source and input, then the fixed user
message) and scores each answer with ``execstate.grade.grade_response``, so an
Inspect score equals the ``execstate grade`` verdict on the same text.

Only the task file's *loading* needs ``inspect_ai`` (imported on use here);
writing the export does not.
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from execstate.errors import RecordError, UsageError, output_dir, require_file
from execstate.grade import grade_response
from execstate.records import Response, Task, read_jsonl
from execstate.run import USER_MESSAGE, render_system

INSPECT_FILE = "execstate_inspect.py"
"""The task file ``export_inspect`` writes; its ``@task`` is named ``execstate_tasks``."""
TASKS_NAME = "tasks.jsonl"

_TEMPLATE = '''"""Inspect task exported by `execstate export inspect` (execstate {version}).

Run: inspect eval {file} --model PROVIDER/MODEL
Samples: the {count} tasks of {tasks} (SHA-256 {sha256}), with execstate's fixed
prompt; scorer: execstate's grader (SPEC 9). Needs execstate and inspect-ai installed.
"""

from pathlib import Path

from inspect_ai import task

from execstate.export import inspect_task

TASKS_SHA256 = "{sha256}"


@task
def execstate_tasks():
    return inspect_task(Path(__file__).with_name("{tasks}"), sha256=TASKS_SHA256)
'''


def export_inspect(tasks_path: Path | str, out_dir: Path | str) -> Path:
    """Write ``out_dir/tasks.jsonl`` (a byte copy) and ``out_dir/execstate_inspect.py``; returns the task file.

    The tasks are read (and so validated) first; an unreadable file raises the
    record error naming it, and nothing is written.
    """
    from execstate import __version__

    source = require_file(tasks_path, "--tasks", "pass the tasks.jsonl that `execstate build` wrote")
    tasks = list(read_jsonl(source, Task))
    if not tasks:
        raise RecordError(f"{source}: no tasks. Fix: pass a tasks.jsonl from a build that admitted cases")
    out = output_dir(Path(out_dir))
    copied = out / TASKS_NAME
    if copied.resolve() != source.resolve():
        shutil.copyfile(source, copied)
    sha256 = hashlib.sha256(copied.read_bytes()).hexdigest()
    text = _TEMPLATE.format(version=__version__, file=INSPECT_FILE, count=len(tasks), tasks=TASKS_NAME, sha256=sha256)
    target = out / INSPECT_FILE
    target.write_text(text, encoding="utf-8")
    return target


def _inspect_ai() -> None:
    try:
        import inspect_ai  # noqa: F401
    except ImportError:
        raise UsageError(
            "the Inspect export needs inspect-ai, which is not installed. Fix: pip install 'execstate[inspect]'"
        ) from None


def inspect_samples(tasks: Sequence[Task]) -> list[Any]:
    """One Inspect ``Sample`` per task: id = task id, input = the SPEC 7 messages, target = the oracle,
    metadata ``{"task": <the task record as JSON>}`` (what the scorer grades against)."""
    _inspect_ai()
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ChatMessageSystem, ChatMessageUser

    return [
        Sample(
            id=t.task_id,
            input=[ChatMessageSystem(content=render_system(t.source, t.input)), ChatMessageUser(content=USER_MESSAGE)],
            target=t.oracle,
            metadata={"task": t.model_dump(mode="json")},
        )
        for t in tasks
    ]


def execstate_scorer() -> Any:
    """An Inspect scorer (accuracy, stderr) that grades the completion with ``grade_response``.

    Value ``C`` for ``correct-*``, ``I`` otherwise; ``answer`` is the extracted
    answer and ``metadata`` the whole execstate ``Grade`` record.
    """
    _inspect_ai()
    from inspect_ai.scorer import CORRECT, INCORRECT, Score, Target, accuracy, scorer, stderr
    from inspect_ai.solver import TaskState

    @scorer(metrics=[accuracy(), stderr()], name="execstate")
    def _execstate() -> Any:
        async def score(state: TaskState, target: Target) -> Score:
            task = Task.model_validate(state.metadata["task"])
            response = Response(
                task_id=task.task_id,
                setting=str(state.model),
                sample=max(state.epoch - 1, 0),
                status="completed",
                text=state.output.completion,
            )
            grade = grade_response(task, response)
            value = CORRECT if grade.status.startswith("correct") else INCORRECT
            return Score(value=value, answer=grade.answer, metadata=grade.model_dump(mode="json"))

        return score

    return _execstate()


def inspect_task(tasks_path: Path | str, sha256: str | None = None) -> Any:
    """The Inspect ``Task`` of a tasks file: ``inspect_samples``, ``generate()``, ``execstate_scorer``.

    With ``sha256`` the file must hash to it (an exported copy edited since export is refused).
    """
    _inspect_ai()
    from inspect_ai import Task as InspectTask
    from inspect_ai.dataset import MemoryDataset
    from inspect_ai.solver import generate

    path = require_file(tasks_path, "tasks file", "run `execstate export inspect` again")
    found = hashlib.sha256(path.read_bytes()).hexdigest()
    if sha256 is not None and found != sha256:
        raise RecordError(
            f"{path}: SHA-256 {found} is not the exported {sha256}. Fix: run `execstate export inspect` again"
        )
    samples = inspect_samples(list(read_jsonl(path, Task)))
    return InspectTask(dataset=MemoryDataset(samples, name=path.stem), solver=generate(), scorer=execstate_scorer())
