"""The viewer's answers, as JSON-ready dicts: what the server's API routes and the static export return."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from execstate.errors import UsageError
from execstate.records import Task
from execstate.view._cell import cell_view, original_case
from execstate.view._folders import run_folder
from execstate.view._store import FACETS, PAGE_SIZE, SORTS, ViewStore
from execstate.view._trace import true_trace

QUERY_KEYS = (*FACETS, "case")
"""The filter keys a list request may carry (``FACETS`` plus ``case``, a substring of the case id)."""


class Viewer:
    """One or more run folders, opened for viewing: their caches made current (``open_cache``) and queried.

    ``close()`` when done (the server does at shutdown)."""

    def __init__(self, paths: Sequence[Path | str], *, log: Any = None) -> None:
        self.folders = [run_folder(p) for p in paths]
        self.store = ViewStore(self.folders, log=log)
        self._prices = [self._settings(f.manifest) for f in self.folders]

    @staticmethod
    def _settings(manifest: Path | None) -> dict[str, dict[str, Any]]:
        if manifest is None:
            return {}
        data = json.loads(manifest.read_text(encoding="utf-8"))
        return {str(k): dict(v) for k, v in (data.get("settings") or {}).items()}

    def close(self) -> None:
        """Close the query engine (the caches are checkpointed and detached)."""
        self.store.close()

    def meta(self) -> dict[str, Any]:
        """The filter menus' values, the sorts, the page size and the runs."""
        return {"facets": self.store.facets(), "sorts": list(SORTS), "page_size": PAGE_SIZE,
                "runs": [{"name": f.name, "root": str(f.root)} for f in self.folders]}  # fmt: skip

    @staticmethod
    def filters(query: Mapping[str, str]) -> dict[str, str]:
        """The filters of a request's query (unknown keys are ignored; ``run`` must be a number)."""
        out = {k: str(query[k]) for k in QUERY_KEYS if query.get(k) not in (None, "")}
        if "run" in out and not out["run"].isdigit():
            raise UsageError(f"run must be a number, not {out['run']!r}. Fix: use the run's index in the menu")
        return out

    def list(self, query: Mapping[str, str]) -> dict[str, Any]:
        """One page of the filtered list and the counts of every filter's values."""
        filters = self.filters(query)
        sort = query.get("sort") or "task"
        counts = self.store.counts(filters)
        offset, size = _int(query.get("offset"), 0), _int(query.get("size"), PAGE_SIZE)
        page = self.store.page(filters, sort, offset, size, total=counts.pop("_total")[""])
        return {**page, "counts": counts, "filters": filters, "sort": sort}

    def _task(self, run: int, task_id: str) -> Task | None:
        line = self.store.task_line(run, task_id)
        return Task.model_validate_json(line) if line else None

    def cell(self, run: int, cell: int) -> dict[str, Any]:
        """The whole cell (``execstate.view.cell_view``); ``UsageError`` when there is no such cell."""
        row = self.store.cell_lines(run, cell)
        if row is None:
            raise UsageError(f"run {run} has no cell {cell}. Fix: open a cell from the list")
        task = Task.model_validate_json(row["task_line"])
        others = self.store.task_cells(run, [task.case_id])
        original = None
        relation = original_case(task)
        if relation is not None:
            kind, case_id = relation
            cells = self.store.task_cells(run, [case_id])
            same_arm = [c for c in cells if c["arm"] == task.arm]
            twin = self._task(run, same_arm[0]["task_id"]) if same_arm else None
            original = {"relation": kind, "case_id": case_id, "cells": cells,
                        "task_id": twin.task_id if twin else None, "source": twin.source if twin else None,
                        "input": twin.input if twin else None, "oracle": twin.oracle if twin else None}  # fmt: skip
        prices = self._prices[run].get(str(row["setting"]), {})
        return cell_view(row, prices, others, original)

    def trace(self, run: int, cell: int) -> dict[str, Any]:
        """The cell's true trace: from the cache, else recorded now (in the sandbox) and kept in the cache."""
        row = self.store.cell_lines(run, cell)
        if row is None:
            raise UsageError(f"run {run} has no cell {cell}. Fix: open a cell from the list")
        known = self.store.trace(run, row["task_id"])
        if known is not None:
            return known
        trace = true_trace(Task.model_validate_json(row["task_line"]))
        if trace.get("available") or trace.get("reason", "").startswith("true traces are recorded for"):
            self.store.store_trace(run, row["task_id"], trace)
        return trace


def _int(value: str | None, default: int) -> int:
    if value in (None, ""):
        return default
    try:
        return int(str(value))
    except ValueError:
        raise UsageError(f"{value!r} is not a number. Fix: pass a whole number") from None
