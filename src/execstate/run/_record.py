"""Where a cell's one record goes, whatever answered it (a live request, a vendor batch, the response cache):
the response store, the response cache and the progress bar, on one path for every transport."""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence

from execstate.records import Response, Task
from execstate.run._cache import ResponseCache
from execstate.run._progress import RunProgress
from execstate.run._settings import Setting
from execstate.run._store import CellKey, ResponseStore


class CellRecorder:
    """Records cells for one run: ``store`` (through ``put``, the writer thread's queue, when given), ``cache``
    (completed answers that were paid for), ``progress`` (each record advances its setting's bar)."""

    def __init__(
        self,
        store: ResponseStore,
        progress: RunProgress,
        *,
        cache: ResponseCache | None = None,
        put: Callable[[Response], None] | None = None,
    ) -> None:
        self.store = store
        self.progress = progress
        self.cache = cache
        self.put = put

    def record(
        self,
        setting: Setting,
        cells: Sequence[tuple[Task | None, Response]],
        *,
        durable: bool = False,
        counted: Container[CellKey] | None = None,
    ) -> None:
        """Record each cell's ``Response``: written (``durable``: appended and fsync-ed before this returns, as a
        batch needs before it is journaled closed; else queued to the writer when there is one), kept in the
        cache when it is a completed answer that did not itself come from the cache (and its task is known),
        and counted on the progress bar when its cell is in ``counted`` (default: every cell)."""
        records = [rec for _, rec in cells]
        if durable or self.put is None:
            self.store.append(records)
        else:
            for rec in records:
                self.put(rec)  # no await between an answer and its queueing: nothing to lose on cancel
        if self.cache is not None:
            for task, rec in cells:
                if task is not None and rec.status == "completed" and not rec.cached:
                    self.cache.keep(setting, task, rec)
        for rec in records:
            if counted is None or (rec.task_id, rec.setting, rec.sample) in counted:
                self.progress.note(setting.name, rec.status, advance=True)
