"""Fresh twins made by hand from published tasks, for tests of the fresh-input analyses and providers.

The builder makes real fresh tasks from a case's generator; this copies a published ``Task`` and edits
it into the record contract the builder follows (``docs/records.md``, ``meta.fresh``): the same program,
study, arm and source hash, a case id ``<case>~fresh``, other inputs and oracle, and ``meta["fresh"]``
naming the twin and a commitment.
"""

from __future__ import annotations

import hashlib

from execstate.records import Task, fresh_twin


def fresh_copy(task: Task, input: str | None = None, oracle: str | None = None) -> Task:
    """The fresh twin of the published ``task``; ``input`` and ``oracle`` default to edited copies of its own
    (a different input line; the oracle unchanged for a state arm, whose JSON shape must stay valid)."""
    case_id = fresh_twin(task.case_id)
    new_input = task.input + "0\n" if input is None else input
    new_oracle = task.oracle if oracle is None else oracle
    commitment = hashlib.sha256((new_input + "\x1f" + new_oracle).encode("utf-8")).hexdigest()
    meta = {**task.meta, "fresh": {"of": task.case_id, "commitment": f"sha256:{commitment}"}}
    return task.model_copy(
        update={
            "case_id": case_id,
            "task_id": task.task_id.replace(task.case_id, case_id, 1),
            "input": new_input,
            "oracle": new_oracle,
            "meta": meta,
        }
    )
