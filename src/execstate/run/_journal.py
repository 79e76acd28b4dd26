"""The batch journal ``OUT/batches.jsonl``: what was submitted, closed, failed, cancelled or retried, durably.

The journal ``OUT/batches.jsonl`` makes this safe to kill at any moment. It
gets one JSON line per event, each fsync-ed before the run goes on::

    {"event": "submitted", "setting", "provider", "batch_id", "cells": [[task_id, sample], ...],
     "custom_ids": [...], "at"}
        right after the vendor accepted the batch, before its first poll;
    {"event": "closed", "setting", "batch_id", "at", "counts": {...}, "resend": [[task_id, sample, error], ...],
     "reason"?, "unspent"?: [[task_id, sample], ...]}
        once every result of the batch is durably in ``responses.jsonl`` and the
        cells to send again are noted; or, with a ``reason``, once the batch failed as a whole or its
        results are gone. ``unspent`` cells do not count the batch as one of their ``max_attempts`` rounds;
    {"event": "failed", "setting", "batch_id" (null: refused at creation), "at", "reason", "failure", "delay_s",
     "cells"}
        a whole-batch failure (a batch event, not a cell event), re-submitted after ``delay_s``
        (``batch_delay_s``), or, with ``delay_s`` null, the one that stopped the setting;
    {"event": "cancelled", "setting", "batch_id", "at", "status", "cells"}
        ``execstate run --cancel`` cancelled it at the vendor: closed, its cells pending, unspent;
    {"event": "retried", "setting", "at", "cells": [[task_id, sample], ...]}
        ``--retry no-response`` moved these cells' records out: their earlier rounds no longer count.

On start, a batch submitted but never closed is polled again: it is never
submitted twice, and its cells are not planned anew while it is open. A torn
last line (a crash mid-write) is cut off and kept beside the journal, as the
response store does.

The driver (``run/_batch.py``) appends the events; ``--retry no-response`` (``run/_retry.py``) appends
``retried``; ``open_journal`` reads them back into a ``JournalState``.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from execstate.errors import StoreError
from execstate.run._store import CellKey, Repair, repair_torn_tail

JOURNAL_NAME = "batches.jsonl"
"""The journal's file name in a run directory."""


@dataclass
class OpenBatch:
    """A batch the vendor accepted whose results are not all recorded yet."""

    setting: str
    provider: str
    batch_id: str
    at: str
    """When it was submitted (UTC, ISO 8601)."""
    cells: dict[str, tuple[str, int]]
    """custom_id -> (task_id, sample)."""


@dataclass
class JournalState:
    """What the journal says at start, kept up to date by the drivers."""

    open: dict[tuple[str, str], OpenBatch] = field(default_factory=dict)
    """(setting, batch_id) -> batch, in submission order."""
    rounds: Counter[CellKey] = field(default_factory=Counter)
    """Batches each cell was submitted in."""
    errors: dict[CellKey, list[str]] = field(default_factory=dict)
    """Per cell, the error lines of the batches that sent it back."""
    first_at: dict[CellKey, str] = field(default_factory=dict)
    """When each cell was first submitted."""
    repair: Repair | None = None


class BatchJournal:
    """Append-only ``batches.jsonl``: every event is one ``os.write`` on an ``O_APPEND`` descriptor, fsync-ed."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)

    def append(self, event: dict[str, Any]) -> None:
        view = memoryview((json.dumps(event, separators=(",", ":")) + "\n").encode("utf-8"))
        try:
            while view:
                view = view[os.write(self._fd, view) :]
            os.fsync(self._fd)
        except OSError as exc:
            raise OSError(exc.errno, f"cannot append to {self.path}: {exc.strerror}; free space and re-run") from exc

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def open_journal(path: Path) -> tuple[BatchJournal, JournalState]:
    """Cut a torn last line off ``path``, read its events, and open it for appending.

    Raises ``StoreError`` for a bad line before the last (not a crash artefact).
    """
    state = JournalState()
    if path.exists():
        state.repair = repair_torn_tail(path, _is_event)
        with open(path, encoding="utf-8") as fh:
            for lineno, line in enumerate(fh, 1):
                if line.strip():
                    apply_event(state, _event(path, lineno, line))
    return BatchJournal(path), state


def _event(path: Path, lineno: int, line: str) -> dict[str, Any]:
    try:
        event = json.loads(line)
    except ValueError:
        event = None
    if not isinstance(event, dict) or event.get("event") not in EVENTS:
        raise StoreError(
            f"{path}:{lineno}: not a batch journal event; only a torn last line is repaired automatically: "
            "move the line out by hand"
        )
    return event


EVENTS = ("submitted", "closed", "failed", "cancelled", "retried")
"""The journal's event kinds (see the module doc)."""


def apply_event(state: JournalState, event: dict[str, Any]) -> None:
    """Bring ``state`` up to date with one journal ``event``."""
    setting = str(event.get("setting", ""))
    batch_id = str(event.get("batch_id", ""))
    kind = event["event"]
    if kind == "failed":
        return  # a batch event kept for the record: the batch (if any) is closed by its own line
    if kind == "retried":  # cells whose no-response records `run --retry` moved out: they start afresh
        for task_id, sample in _cells(event.get("cells", [])):
            key = (task_id, setting, sample)
            state.rounds.pop(key, None)
            state.errors.pop(key, None)
            state.first_at.pop(key, None)
        return
    if kind == "submitted":
        cells = [(str(c[0]), int(c[1])) for c in event.get("cells", [])]
        ids = [str(i) for i in event.get("custom_ids", [])]
        if len(ids) != len(cells):
            ids = [custom_id(t, k) for t, k in cells]
        state.open[(setting, batch_id)] = OpenBatch(
            setting, str(event.get("provider", "")), batch_id, str(event.get("at", "")), dict(zip(ids, cells))
        )
        for task_id, sample in cells:
            key = (task_id, setting, sample)
            state.rounds[key] += 1
            state.first_at.setdefault(key, str(event.get("at", "")))
        return
    batch = state.open.pop((setting, batch_id), None)
    unspent = list(batch.cells.values()) if kind == "cancelled" and batch is not None else []
    unspend(state, setting, unspent + _cells(event.get("unspent", [])))
    for item in event.get("resend", []):
        state.errors.setdefault((str(item[0]), setting, int(item[1])), []).append(str(item[2]))


def _cells(items: Any) -> list[tuple[str, int]]:
    return [(str(c[0]), int(c[1])) for c in items] if isinstance(items, list) else []


def unspend(state: JournalState, setting: str, cells: Iterable[tuple[str, int]]) -> None:
    """A batch round that does not count against these cells' ``max_attempts`` (a batch that failed as a
    whole, whose results are gone, that was cancelled, or an account error)."""
    for task_id, sample in cells:
        key = (task_id, setting, sample)
        if state.rounds[key] > 0:
            state.rounds[key] -= 1
        if not state.rounds[key]:
            state.rounds.pop(key, None)
            state.first_at.pop(key, None)


def _is_event(line: bytes) -> bool:
    try:
        event = json.loads(line)
    except ValueError:
        return False
    return isinstance(event, dict) and event.get("event") in EVENTS


def custom_id(task_id: str, sample: int) -> str:
    """The request id of a cell inside a batch: ``c`` + 24 hex digits of SHA-256 (fits Anthropic's pattern)."""
    return "c" + hashlib.sha256(f"{task_id}\x00{sample}".encode("utf-8", "surrogatepass")).hexdigest()[:24]


def now_iso() -> str:
    """Now, UTC, ISO 8601 to the millisecond: the ``at`` of every event."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")
