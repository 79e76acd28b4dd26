"""Live progress of a run: one bar per setting with rate, ETA and counts by status (TTY only)."""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text


class _RateColumn(ProgressColumn):
    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("-- cells/s" if speed is None else f"{speed:.1f} cells/s")


class RunProgress:
    """Counts by status per setting; draws bars on stderr only when it is a terminal.

    ``counts`` is kept either way, so the summary does not depend on the display.
    """

    def __init__(self, enabled: bool | None = None) -> None:
        self.counts: dict[str, Counter[str]] = {}
        self.labels: dict[str, str] = {}
        """The last label ``describe`` gave each setting (kept with or without bars)."""
        if enabled is None:
            enabled = sys.stderr.isatty()
        self._progress: Progress | None = None
        self._ids: dict[str, Any] = {}
        if enabled:
            self._progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                _RateColumn(),
                TimeRemainingColumn(),
                TextColumn("{task.fields[status]}"),
                console=Console(stderr=True),
                transient=False,
            )

    def add(self, setting: str, total: int) -> None:
        self.counts[setting] = Counter()
        if self._progress is not None:
            self._ids[setting] = self._progress.add_task(setting, total=total, status="")

    def note(self, setting: str, status: str, advance: bool) -> None:
        """Count ``status`` (``completed``, ``no-response`` or ``retry``); advance the bar for cells."""
        self.counts[setting][status] += 1
        if self._progress is not None:
            c = self.counts[setting]
            text = f"ok {c['completed']}  no-response {c['no-response']}  retries {c['retry']}"
            self._progress.update(self._ids[setting], advance=1 if advance else 0, status=text)

    def describe(self, setting: str, label: str) -> None:
        """Replace the setting's bar label (batch runs show submitted, in-progress and done counts there)."""
        self.labels[setting] = label
        if self._progress is not None and setting in self._ids:
            self._progress.update(self._ids[setting], description=label)

    def __enter__(self) -> RunProgress:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()
