"""Read dataset records one at a time from JSON lines, a JSON list or parquet; a bad record never stops the rest."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal, NamedTuple

from execstate.errors import InputFileError, RecordError, UsageError, one_line, require_file

PARQUET_EXTRA = "pip install 'execstate[parquet]'"
"""How to get the optional parquet reader (pyarrow)."""


class RawRecord(NamedTuple):
    """One record of a dataset file: where it is, and its value or why it could not be read."""

    where: str
    """``FILE:LINE`` (JSON lines) or ``FILE[INDEX]`` (JSON list, parquet row; 0-based)."""
    value: dict[str, Any] | None
    problem: str | None
    """Why the record could not be read (then ``value`` is None)."""


def iter_records(path: Path | str, limit: int | None = None) -> Iterator[RawRecord]:
    """The first ``limit`` records (all if None) of a ``.parquet`` file, a JSON list or JSON lines, in file order.

    The file is checked when this is called, not when the records are first
    asked for: a missing file is an ``InputFileError``, a JSON list that does
    not parse a ``RecordError``, a ``.parquet`` file without pyarrow installed
    an ``InputFileError`` naming the extra to install. A line of JSON lines that
    is not a JSON object is a record with a ``problem``.
    """
    path = require_file(path, "records file", "pass a JSON lines, JSON or parquet file of records")
    if path.suffix == ".parquet":
        records = _parquet(path)
    elif _first_byte(path) == b"[":
        records = _json_list(path)
    else:
        records = _json_lines(path)
    return itertools.islice(records, limit)


def _first_byte(path: Path) -> bytes:
    with path.open("rb") as fh:
        while chunk := fh.read(4096):
            stripped = chunk.lstrip()
            if stripped:
                return stripped[:1]
    return b""


def _json_lines(path: Path) -> Iterator[RawRecord]:
    with path.open("rb") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            where = f"{path}:{number}"
            try:
                value = json.loads(line)
            except (UnicodeDecodeError, ValueError, RecursionError) as exc:
                yield RawRecord(where, None, json_problem(exc))
                continue
            yield _record(where, value)


def _json_list(path: Path) -> Iterator[RawRecord]:
    try:
        items = json.loads(path.read_bytes())
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise RecordError(
            f"{path}: {json_problem(exc)}. Fix: repair the file, or write one record per line "
            "(JSON lines) so that a bad record skips only itself"
        ) from None
    if not isinstance(items, list):
        raise RecordError(f"{path}: expected a JSON list of records, got {type(items).__name__}. Fix: wrap it in [...]")
    return (_record(f"{path}[{index}]", value) for index, value in enumerate(items))


def json_problem(exc: BaseException) -> str:
    """Why ``json`` refused a record: not valid JSON, or an integer longer than CPython reads from text (4,300
    digits by default; no field of a record needs one, so the record is skipped rather than read another way)."""
    text = one_line(str(exc))
    if isinstance(exc, ValueError) and "integer string conversion" in text:
        return f"a JSON number too long to read ({text.split(';')[0]})"
    return f"not valid JSON ({text})"


def _record(where: str, value: object) -> RawRecord:
    if not isinstance(value, dict):
        return RawRecord(where, None, f"expected a JSON object, got {type(value).__name__}")
    return RawRecord(where, value, None)


def _parquet(path: Path) -> Iterator[RawRecord]:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InputFileError(
            f"{path} is a parquet file, and reading parquet needs pyarrow, which is not installed. "
            f"Fix: {PARQUET_EXTRA} (or convert the file to JSON lines)"
        ) from None
    try:
        reader = pq.ParquetFile(path)
    except (OSError, ValueError) as exc:  # pyarrow's ArrowInvalid is a ValueError, ArrowIOError an OSError
        problem = f"{path}: not a readable parquet file ({one_line(str(exc))})"
        raise InputFileError(f"{problem}. Fix: check the file, or convert it to JSON lines") from None
    rows = (row for batch in reader.iter_batches(batch_size=32) for row in batch.to_pylist())
    return (_record(f"{path}[{index}]", row) for index, row in enumerate(rows))


class BadRecord(Exception):
    """A record the importer cannot use; ``kind`` is a ``SkipKind`` and ``reason`` says which field and why."""

    def __init__(self, kind: Literal["invalid", "refused", "unsupported"], reason: str) -> None:
        self.kind, self.reason = kind, reason
        super().__init__(reason)


def text_field(record: dict[str, Any], key: str) -> str:
    """``record[key]`` as a non-empty string (an integer id is accepted as its digits); else ``BadRecord``."""
    value = record.get(key)
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str) or not value.strip():
        raise BadRecord("invalid", f"field {key!r}: expected a non-empty string, got {_shown(value)}")
    return value


def str_list(value: object, where: str) -> list[str]:
    """``value`` as a list of strings; else ``BadRecord`` naming ``where``."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadRecord("invalid", f"field {where}: expected a list of strings, got {_shown(value)}")
    return value


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_counts(**counts: int | None) -> None:
    """``UsageError`` for a count option (``jobs=0``, ``limit=-1``) below 1; None means no limit."""
    for name, value in counts.items():
        if value is not None and value < 1:
            raise UsageError(f"{name} must be at least 1, got {value}. Fix: pass --{name.replace('_', '-')} 1 or more")
