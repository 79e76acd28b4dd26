"""Every record of a run, whatever answered its cell (a live request, a vendor batch, the live fallback of a
batch), leaves through one ``CellRecorder``: the store, the response cache and the progress bar have one path."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from run_helpers import make_task, read_records
from test_batch import KEY_ENV, N_TASKS, VENDORS, _expire_tasks

from execstate.records import Response
from execstate.run import ResponseCache, Setting, run_tasks
from execstate.run._record import CellRecorder


def test_batched_live_and_fallback_cells_are_recorded_cached_and_counted_on_one_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[str, str, bool]] = []
    record = CellRecorder.record

    def spy(self: CellRecorder, setting: Setting, cells: Any, **kw: Any) -> None:
        seen.extend((setting.name, rec.task_id, bool(kw.get("durable"))) for _, rec in cells)
        record(self, setting, cells, **kw)

    monkeypatch.setattr(CellRecorder, "record", spy)
    vendor = VENDORS[0]
    monkeypatch.setenv(KEY_ENV, vendor.key)
    cache = ResponseCache(tmp_path / "cache")
    with vendor.fake(hold=False) as fake:
        fake.auto_expire = _expire_tasks(0, 3)  # these two come back from the batch and go live
        settings = [vendor.setting(fake), Setting(name="check", provider="oracle")]
        tasks = [make_task(i) for i in range(N_TASKS)]
        summary = run_tasks(
            tasks, settings, tmp_path / "out", batch=True, batch_fallback="live", cache=cache, progress=False
        )
    assert summary.ok, summary
    records: list[Response] = read_records(tmp_path / "out")
    assert sorted((r.setting, r.task_id) for r in records) == sorted((s, t) for s, t, _ in seen)
    by_cell = {(r.setting, r.task_id): r for r in records}
    durable = {(s, t) for s, t, d in seen if d}
    assert durable == {k for k, r in by_cell.items() if r.batch_id is not None} and len(durable) == N_TASKS - 2
    assert cache.stored == N_TASKS  # every paid answer of the network setting, batched or live; the oracle's none
    assert summary.recorded["b"]["completed"] == summary.recorded["check"]["completed"] == N_TASKS
    assert os.listdir(tmp_path / "cache")
