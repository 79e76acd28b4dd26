"""``OUT/adaptive.jsonl``: every choice of an adaptive run with its reason, and why each setting stopped.

Append-only beside ``responses.jsonl``. A round's choices are written in one write and fsync-ed before any of its
cells is sent, so after a crash (``kill -9``) the file holds whole rounds, except perhaps a torn last round that
was never sent: ``AdaptiveJournal`` cuts that off on opening (its bytes kept beside the file as
``adaptive.jsonl.torn-<UTC time>``) and the engine chooses it again, the same way. docs/records.md describes the
record.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from execstate.errors import StoreError
from execstate.records import SCHEMA_VERSION, Record

ADAPTIVE_NAME = "adaptive.jsonl"
ADAPTIVE_SCHEMA_VERSION = SCHEMA_VERSION
"""The layout version of ``AdaptiveRecord`` (the common ``SCHEMA_VERSION``)."""


class AdaptiveRecord(Record):
    """One line of ``adaptive.jsonl``: a ``choice`` (a cell to send and why) or a ``stop`` (why a setting ended)."""

    schema_version: int = ADAPTIVE_SCHEMA_VERSION
    """The layout version (``ADAPTIVE_SCHEMA_VERSION``)."""
    kind: Literal["choice", "stop"]
    setting: str
    """The setting the choice or the stop is for."""
    round: int
    """0-based round of the setting; a stop carries the round it would have started."""
    round_cells: int
    """Cells the round holds (a stop: 0); a round with fewer lines in the file is torn."""
    per_round: int
    """The ``--round`` in force: cells chosen per setting per round (the last round may hold fewer)."""
    seed: int
    """The seed of the program order (``--seed``)."""
    task_id: str | None = Field(default=None, exclude_if=lambda v: v is None)
    """A choice: the chosen task (a ladder rung)."""
    sample: int | None = Field(default=None, exclude_if=lambda v: v is None)
    """A choice: the cell's 0-based sample index."""
    program: str | None = Field(default=None, exclude_if=lambda v: v is None)
    """A choice: the case of the rung."""
    rung: int | None = Field(default=None, exclude_if=lambda v: v is None)
    """A choice: the rung number (``meta.ladder.rung``)."""
    log2_trace: float | None = Field(default=None, exclude_if=lambda v: v is None)
    """A choice: log2 of the rung's counted trace length."""
    reason: dict[str, Any] | None = Field(default=None, exclude_if=lambda v: v is None)
    """A choice: the rule and the numbers behind it (``turn_of``, ``p_right``, ``gain``, the fit's ``h50_log2``
    and ``width``, ``answers`` fitted); docs/adaptive.md."""
    stop: str | None = Field(default=None, exclude_if=lambda v: v is None)
    """A stop: ``width``, ``censored-above``, ``censored-below``, ``budget`` or ``exhausted``."""
    calls: int | None = Field(default=None, exclude_if=lambda v: v is None)
    """A stop: cells chosen for the setting in all."""
    h50_log2: float | None = Field(default=None, exclude_if=lambda v: v is None)
    """A stop: the quick fit's log2 H50."""
    interval: tuple[float, float] | None = Field(default=None, exclude_if=lambda v: v is None)
    """A stop: the quick fit's 95% interval of log2 H50 (omitted when unbounded)."""
    confirmed: tuple[float, float] | None = Field(default=None, exclude_if=lambda v: v is None)
    """A ``width`` stop: the report's 95% interval of log2 H50 (``analyze.fit_horizon``) that decided it."""
    budget: int | None = Field(default=None, exclude_if=lambda v: v is None)
    """A stop: the ``--budget`` in force."""
    target_width: float | None = Field(default=None, exclude_if=lambda v: v is None)
    """A stop: the ``--target-width`` in force."""


class AdaptiveJournal:
    """The records of ``adaptive.jsonl`` (read and repaired on opening) and a durable appender of new ones."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.records: list[AdaptiveRecord] = []
        self.torn: Path | None = None
        if path.exists():
            self._load()

    def _load(self) -> None:
        data = self.path.read_bytes()
        keep = 0  # bytes of whole rounds (and stops)
        pending: list[AdaptiveRecord] = []
        offset = 0
        lines = data.split(b"\n")
        for index, raw in enumerate(lines):
            end = offset + len(raw) + 1
            last = index == len(lines) - 1
            if last:  # after the final newline: b"" when the file ends cleanly, else a torn line
                break
            if raw.strip():
                try:
                    rec = AdaptiveRecord.model_validate_json(raw)
                except ValueError:
                    if index < len(lines) - 2:
                        raise StoreError(
                            f"{self.path}:{index + 1}: not a valid adaptive record; only a torn last round is "
                            "repaired automatically. Fix: move the line out by hand"
                        ) from None
                    break
                if rec.kind == "stop":
                    if pending:
                        break
                    self.records.append(rec)
                    keep = end
                else:
                    pending.append(rec)
                    if len(pending) == rec.round_cells:
                        self.records += pending
                        pending = []
                        keep = end
            elif not pending:
                keep = end
            offset = end
        if keep < len(data):
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
            self.torn = self.path.with_name(f"{self.path.name}.torn-{stamp}")
            self.torn.write_bytes(data[keep:])
            with open(self.path, "r+b") as fh:
                fh.truncate(keep)
                fh.flush()
                os.fsync(fh.fileno())

    def append(self, records: list[AdaptiveRecord]) -> None:
        """Write ``records`` in one write and fsync before returning (a round is on disk before it is sent)."""
        if not records:
            return
        payload = "".join(r.to_json_line() + "\n" for r in records).encode("utf-8")
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            view = memoryview(payload)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        self.records += records

    def of(self, setting: str) -> list[AdaptiveRecord]:
        """The records of one setting, in file order."""
        return [r for r in self.records if r.setting == setting]
