"""``provider = "oracle"``: answers every task with its oracle, a pipeline check, not a model."""

from __future__ import annotations

import json

from execstate.records import Task
from execstate.run._attempt import Attempt
from execstate.run._settings import Opened, ProviderEntry, Setting


class OracleProvider:
    """Answers every task with its oracle in a valid envelope: a pipeline check, not a model.

    The answer is the oracle without its one final newline (SPEC 9: what an exact answer is under
    every rule, byte equality included), so every cell it answers grades correct.
    """

    name = "oracle"
    model: str | None = "oracle"
    pipeline_check = True

    async def attempt_task(self, task: Task, sample: int) -> Attempt:
        text = json.dumps({"output": task.oracle.removesuffix("\n")}, ensure_ascii=False)
        return Attempt("completed", text=text, finish_reason="stop")

    async def aclose(self) -> None:
        return None


async def _open(setting: Setting) -> Opened:
    return OracleProvider(), []


ENTRY = ProviderEntry(
    name="oracle", open=_open, needs_task=True, description="answers each task with its oracle (a pipeline check)"
)
