"""Append-only, crash-safe ``responses.jsonl``: durable appends, resume index, torn-tail repair."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from execstate.errors import StoreError
from execstate.records import Response

CellKey = tuple[str, str, int]
"""(task_id, setting, sample): one planned cell."""


@dataclass(frozen=True)
class Repair:
    """A torn final line that was cut off, and where its bytes were kept."""

    offset: int
    """Byte offset where the torn line began (the file's new length)."""
    saved_to: Path
    nbytes: int


def cell_key(rec: Response) -> CellKey:
    return (rec.task_id, rec.setting, rec.sample)


class ResponseStore:
    """Durable appender for ``responses.jsonl``.

    Every batch of records is handed to the kernel in one ``os.write`` on an
    ``O_APPEND`` descriptor and ``fsync``-ed before ``append`` returns, so a
    record is either wholly on disk or (after a crash mid-write) a torn final
    line that ``open_store`` cuts off on the next run.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)

    def append(self, records: list[Response]) -> None:
        """Write ``records`` (one line each) with a single write, then fsync.

        A record that cannot be encoded is left out (the others are still
        written) and reported by a ``StoreError`` afterwards.
        """
        if not records:
            return
        lines: list[bytes] = []
        unwritable: list[str] = []
        for rec in records:
            try:
                lines.append((rec.to_json_line() + "\n").encode("utf-8"))
            except ValueError as exc:  # UnicodeEncodeError, a serializer error: keep the rest of the batch
                unwritable.append(f"{cell_key(rec)}: {exc}")
        view = memoryview(b"".join(lines))
        try:
            while view:  # a regular-file write is whole in practice; loop in case it is not
                written = os.write(self._fd, view)
                view = view[written:]
            os.fsync(self._fd)
        except OSError as exc:
            raise OSError(exc.errno, f"cannot append to {self.path}: {exc.strerror}; free space and re-run") from exc
        if unwritable:
            raise StoreError(
                f"{self.path}: {len(unwritable)} record(s) could not be encoded and were not written "
                f"(first: {unwritable[0]}); the other records of the batch were; re-running re-sends those cells"
            )

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def open_store(path: Path) -> tuple[ResponseStore, dict[CellKey, Response], Repair | None]:
    """Open ``path`` for appending and index the cells already recorded in it.

    A torn final line (no trailing newline, or not a valid ``Response``) is cut
    off and its bytes are saved beside the file as ``<name>.torn-<UTC time>``;
    a bad line before the last, or a cell recorded twice, raises ``StoreError``
    (that is not a crash artefact, and guessing would lose or duplicate data).
    """
    repair = repair_torn_tail(path, _is_record) if path.exists() else None
    recorded: dict[CellKey, Response] = {}
    if path.exists():
        for lineno, rec in _read_records(path):
            key = cell_key(rec)
            if key in recorded:
                raise StoreError(
                    f"{path}:{lineno}: cell {key} is recorded twice; remove one of the lines "
                    "by hand (a run never writes duplicates)"
                )
            recorded[key] = rec
    return ResponseStore(path), recorded, repair


def read_recorded_keys(path: Path) -> set[CellKey]:
    """The cells recorded in ``path``, read without repairing or checking anything (a torn or bad line is
    skipped): for looking, as ``run --plan`` does; ``open_store`` is the reader that runs trust."""
    keys: set[CellKey] = set()
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            try:
                keys.add(cell_key(Response.model_validate_json(line)))
            except ValueError:
                continue
    return keys


def _read_records(path: Path) -> list[tuple[int, Response]]:
    out: list[tuple[int, Response]] = []
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                out.append((lineno, Response.model_validate_json(line)))
            except ValueError as exc:
                raise StoreError(
                    f"{path}:{lineno}: not a valid Response record ({exc.__class__.__name__}); "
                    "only a torn last line is repaired automatically: move the line out by hand"
                ) from None
    return out


def repair_torn_tail(path: Path, whole: Callable[[bytes], bool]) -> Repair | None:
    """Cut off the last line of an append-only JSONL file when a crash tore it (no newline, or ``whole`` says
    it is not a complete line), keeping its bytes beside the file as ``<name>.torn-<UTC time>``."""
    data = path.read_bytes()
    if not data:
        return None
    body_end = len(data) - 1 if data.endswith(b"\n") else len(data)
    start = data.rfind(b"\n", 0, body_end) + 1
    last = data[start:]
    if not last.strip() or (last.endswith(b"\n") and whole(last)):
        return None
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    saved = path.with_name(f"{path.name}.torn-{stamp}")
    saved.write_bytes(last)
    with open(path, "r+b") as fh:
        fh.truncate(start)
        fh.flush()
        os.fsync(fh.fileno())
    return Repair(offset=start, saved_to=saved, nbytes=len(last))


def _is_record(line: bytes) -> bool:
    try:
        Response.model_validate_json(line)
    except ValueError:
        return False
    return True
