"""The batch side of one ``run_tasks`` invocation: which settings go through their vendor's batches, the journal
opened once for all of them, batches left open by an earlier run (resumed, or closed when every cell is recorded),
and cancelling open batches at the vendor (``execstate run --cancel``).

Each setting's batches are driven by ``run/_batch.py``; the journal is ``run/_journal.py``'s.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from execstate.errors import UsageError
from execstate.records import Task
from execstate.run._attempt import AnyProvider
from execstate.run._backoff import SettingAborted, Sleep
from execstate.run._batch import FALLBACKS, BatchCounts, Fallback, batch_form, run_batched
from execstate.run._journal import (
    JOURNAL_NAME,
    BatchJournal,
    JournalState,
    OpenBatch,
    apply_event,
    now_iso,
    open_journal,
)
from execstate.run._record import CellRecorder
from execstate.run._settings import Setting
from execstate.run._store import CellKey
from execstate.run.providers import BatchApi, BatchHttp

# -- one invocation's batches ----------------------------------------------------------------------


class BatchRun:
    """The batch side of one ``run_tasks`` invocation: the journal, which settings go through batches, their counts.

    Made before the run sends anything (and before the cache answers cells), so it knows each setting's
    pending cells as planned.
    """

    def __init__(
        self,
        journal: BatchJournal,
        state: JournalState,
        forms: dict[str, BatchApi],
        submitting: set[str],
        fallback: Fallback,
        recorded: Container[CellKey],
        planned: dict[str, set[CellKey]],
        tasks: dict[str, Task],
        counts: dict[str, BatchCounts],
    ) -> None:
        self.journal = journal
        self.state = state
        self.forms = forms
        self.submitting = submitting
        self.fallback = fallback
        self._recorded = recorded
        self._planned = planned
        self.tasks = tasks
        self.counts = counts
        self.sleep: Sleep = asyncio.sleep
        """How the drivers wait before re-submitting a failed batch (tests put a recording one here)."""

    @classmethod
    def open(
        cls,
        out: Path,
        plans: Iterable[tuple[Setting, Sequence[tuple[Task, int]]]],
        *,
        batch: bool,
        fallback: Fallback,
        recorded: Container[CellKey],
        tasks: Sequence[Task],
        counts: dict[str, BatchCounts],
        notes: list[str],
    ) -> BatchRun | None:
        """``None`` when no setting goes through batches and there is no journal; else open the journal,
        close batches whose every cell is already recorded, and note settings that cannot batch."""
        if fallback not in FALLBACKS:
            raise UsageError(f"--batch-fallback must be one of {', '.join(FALLBACKS)}, got {fallback!r}")
        plans = list(plans)
        path = out / JOURNAL_NAME
        forms: dict[str, BatchApi] = {}
        submitting: set[str] = set()
        for setting, _ in plans:
            if not (batch or setting.batch):
                continue
            form = batch_form(setting.provider)
            if form is None:
                notes.append(
                    f"{setting.name}: provider {setting.provider!r} has no batch API; its cells were sent live"
                )
            else:
                forms[setting.name] = form
                submitting.add(setting.name)
        if not forms and not path.exists():
            return None
        journal, state = open_journal(path)
        names = {s.name: s for s, _ in plans}
        for batch_open in list(state.open.values()):
            keys = [(t, batch_open.setting, k) for t, k in batch_open.cells.values()]
            if all(key in recorded for key in keys):
                journal.append(
                    {
                        "event": "closed",
                        "setting": batch_open.setting,
                        "batch_id": batch_open.batch_id,
                        "at": now_iso(),
                        "counts": {"already-recorded": len(keys)},
                        "resend": [],
                    }
                )
                del state.open[(batch_open.setting, batch_open.batch_id)]
            elif batch_open.setting in names and batch_open.setting not in forms:
                form = batch_form(names[batch_open.setting].provider)
                if form is not None:  # still open from a batch run: resumed, the setting's other cells go live
                    forms[batch_open.setting] = form
        planned: dict[str, set[CellKey]] = {}
        for setting, cells in plans:
            if setting.name in forms:
                counts[setting.name] = BatchCounts()
                planned[setting.name] = {(t.task_id, setting.name, k) for t, k in cells}
        return cls(
            journal, state, forms, submitting, fallback, recorded, planned, {t.task_id: t for t in tasks}, counts
        )

    def handles(self, name: str) -> bool:
        return name in self.forms

    async def run(
        self,
        setting: Setting,
        cells: Sequence[tuple[Task, int]],
        provider: AnyProvider,
        *,
        secrets: tuple[str, ...],
        recorder: CellRecorder,
        aborted: dict[str, str],
        rng: random.Random,
    ) -> None:
        """One setting's part of the run (its remaining planned ``cells``), recorded through the run's ``recorder``
        as its live cells are; a setting-wide error goes in ``aborted``."""
        name = setting.name
        pending = {(t.task_id, name, k) for t, k in cells}
        # cells planned at start that are no longer pending were answered meanwhile (by the cache)
        skip = _Skip(self._recorded, self._planned.get(name, set()) - pending)
        try:
            await run_batched(
                setting,
                cells,
                provider=provider,
                journal=self.journal,
                state=self.state,
                store=recorder.store,
                form=self.forms[name],
                tasks=self.tasks,
                skip=skip,
                secrets=secrets,
                cache=recorder.cache,
                lookup=False,  # the runner has looked every planned cell up already
                fallback=self.fallback,
                submit=name in self.submitting,
                progress=recorder.progress,
                counts=self.counts[name],
                rng=rng,
                put=recorder.put,
                sleep=self.sleep,
            )
        except SettingAborted as exc:
            aborted[name] = str(exc)

    def close(self) -> None:
        self.journal.close()


class _Skip:
    """Cells recorded at start or answered since by other means."""

    def __init__(self, recorded: Container[CellKey], answered: set[CellKey]) -> None:
        self.recorded = recorded
        self.answered = answered

    def __contains__(self, key: object) -> bool:
        return key in self.answered or key in self.recorded


# -- cancelling open batches (``execstate run --cancel``) -------------------------------------------


@dataclass(frozen=True)
class CancelledBatch:
    """What ``cancel_open_batches`` did with one batch open in the journal."""

    setting: str
    batch_id: str
    cells: int
    status: str | None
    """The vendor's status after the cancel (``cancelling``, ``canceling``), ``None`` when not cancelled."""
    error: str | None = None
    """Why it was not cancelled (no such setting, no cancel in its batch form, the vendor refused)."""


async def cancel_open_batches(
    out: Path, settings: Sequence[Setting], *, setting: str | None = None
) -> list[CancelledBatch]:
    """Cancel at the vendor every batch open in ``out``'s journal (of ``setting`` when given), journal a
    ``cancelled`` event for each one cancelled (its cells stay pending, their round not counted), and say
    what was done. A batch that cannot be cancelled (it ended meanwhile, the vendor refused) stays open: the
    next run collects it. The caller holds the run lock."""
    path = out / JOURNAL_NAME
    if not path.exists():
        return []
    journal, state = open_journal(path)
    by_name = {s.name: s for s in settings}
    done: list[CancelledBatch] = []
    try:
        for batch in list(state.open.values()):
            if setting is not None and batch.setting != setting:
                continue
            done.append(await _cancel_one(journal, state, batch, by_name.get(batch.setting)))
    finally:
        journal.close()
    return done


async def _cancel_one(
    journal: BatchJournal, state: JournalState, batch: OpenBatch, setting: Setting | None
) -> CancelledBatch:
    def refused(error: str) -> CancelledBatch:
        return CancelledBatch(batch.setting, batch.batch_id, len(batch.cells), None, error)

    if setting is None:
        return refused(f"no setting named {batch.setting!r} in the settings given")
    form = batch_form(batch.provider or setting.provider)
    cancel = getattr(form, "cancel", None)
    if cancel is None:
        return refused(f"provider {setting.provider!r} has no way to cancel a batch")
    key = setting.api_key()
    http = BatchHttp(setting, random.Random(), (key,) if key else ())
    try:
        status = await cancel(http, setting, batch.batch_id)
    except SettingAborted as exc:
        return refused(str(exc))
    finally:
        await http.aclose()
    event = {
        "event": "cancelled",
        "setting": batch.setting,
        "batch_id": batch.batch_id,
        "at": now_iso(),
        "status": status,
        "cells": len(batch.cells),
    }
    journal.append(event)
    apply_event(state, event)
    return CancelledBatch(batch.setting, batch.batch_id, len(batch.cells), str(status))
