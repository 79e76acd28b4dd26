"""``execstate run --retry no-response``: ask again the cells whose ``no-response`` record the vendor, not the
request, was to blame for, keeping every old record in an audit file.

A ``no-response`` record is eligible when it has at least one error line and every one of them is a
transport or vendor-side failure (``transient_error``), read after its ``attempt N:`` (and ``batch ID:``)
prefix:

    connection error: ...            timeout: ...
    HTTP 408/409/425/429/5xx ...     (429 and 529 included; Anthropic's ``HTTP 529 overloaded_error: ...``)
    malformed response body ...      response is not a message / has no choices / has no candidates /
    response candidate is not an object / not a finished Response object / response carries an error /
    response failed: ... code=server_error | rate_limit_exceeded | vector_store_timeout
    unreadable batch result ... / succeeded result without a message / missing from the batch ...
    expired: ... / canceled: ... / batch_expired / batch_cancelled / batch ... failed: ...
    an account error (``_batch.ACCOUNT_ERRORS``: billing, credit balance too low, ``insufficient_quota``), which
    older versions recorded cell by cell

Any other line (a 400 ``invalid_request_error``, a 413, a refusal the vendor gave for the request itself, a
replay file without the cell) makes the record stay.

The move is crash-safe, in this order: the eligible lines are appended, byte for byte, to
``OUT/responses.retried.jsonl`` (one write, fsync, the folder fsync-ed when the file is new; a line already
there is not written twice); the batch journal, if any, gets a ``retried`` event (their earlier batch rounds
no longer count); then ``responses.jsonl`` is rewritten without them (a temporary file, fsync, rename, folder
fsync). A kill before the rename leaves the old record in ``responses.jsonl`` (the cell is not pending; the
same command moves it again, the audit file keeping one copy); after it, the old record is in the audit file
and the cell is pending, so a plain ``execstate run`` answers it.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Container
from pathlib import Path

from execstate.errors import StoreError
from execstate.records import Response
from execstate.run._journal import JOURNAL_NAME, BatchJournal, now_iso
from execstate.run._store import CellKey, cell_key, repair_torn_tail
from execstate.run.providers import account_error

RETRIED_NAME = "responses.retried.jsonl"
"""The audit file of records moved out of ``responses.jsonl`` by ``--retry no-response`` (append-only)."""
RETRY_CHOICES = ("no-response",)

_PREFIX = re.compile(r"^attempt \d+: (?:batch \S+: )?")
_TRANSIENT = re.compile(
    r"^(?:connection error:|timeout:|HTTP (?:408|409|425|429|5\d\d)\b|malformed response body"
    r"|response is not a message|response has no choices|response has no candidates"
    r"|response candidate is not an object|not a finished Response object|response carries an error"
    r"|response failed: .*code=(?:server_error|rate_limit_exceeded|vector_store_timeout)\b"
    r"|unreadable batch result|succeeded result without a message|missing from the batch"
    r"|expired: |canceled: |batch_expired\b|batch_cancelled\b|batch \S+ failed: |batch failed: "
    r"|the ended batch has no results_url|account error: )"
)


def transient_error(line: str) -> bool:
    """Whether one error line of a record names a transport or vendor-side failure (see the module doc)."""
    text = _PREFIX.sub("", line, count=1)
    if _TRANSIENT.match(text):
        return True
    if "overloaded" in text.lower():
        return True
    status = re.match(r"HTTP (\d{3})", text)
    return account_error(int(status.group(1)) if status else 0, text.encode("utf-8"))


def eligible(rec: Response) -> bool:
    """A ``no-response`` record whose every error line is ``transient_error``."""
    return rec.status == "no-response" and bool(rec.errors) and all(transient_error(e) for e in rec.errors)


def move_no_responses(out: Path, cells: Container[CellKey], responses: Path) -> Counter[str]:
    """Move the eligible ``no-response`` records of ``cells`` from ``responses`` to the audit file (see the
    module doc for the order of writes); the number moved per setting. The caller holds the run lock."""
    moved: Counter[str] = Counter()
    if not responses.exists():
        return moved
    repair_torn_tail(responses, _whole)
    keep: list[bytes] = []
    out_lines: list[bytes] = []
    out_cells: list[CellKey] = []
    with open(responses, "rb") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rec = Response.model_validate_json(line)
            except ValueError:
                raise StoreError(
                    f"{responses}:{lineno}: not a valid Response record; nothing was moved: move the line out by hand"
                ) from None
            if cell_key(rec) in cells and eligible(rec):
                out_lines.append(line)
                out_cells.append(cell_key(rec))
                moved[rec.setting] += 1
            else:
                keep.append(line)
    if not out_lines:
        return moved
    _append_audit(out / RETRIED_NAME, out_lines)
    journal_path = out / JOURNAL_NAME
    if journal_path.exists():
        journal = BatchJournal(journal_path)
        try:
            for setting in sorted({k[1] for k in out_cells}):
                journal.append(
                    {
                        "event": "retried",
                        "setting": setting,
                        "at": now_iso(),
                        "cells": [[k[0], k[2]] for k in out_cells if k[1] == setting],
                    }
                )
        finally:
            journal.close()
    _replace(responses, keep)
    return moved


def _whole(line: bytes) -> bool:
    try:
        Response.model_validate_json(line)
    except ValueError:
        return False
    return True


def _append_audit(path: Path, lines: list[bytes]) -> None:
    new = not path.exists()
    if not new:
        repair_torn_tail(path, lambda line: _is_json(line))
        with open(path, "rb") as fh:
            present = {line if line.endswith(b"\n") else line + b"\n" for line in fh}
        lines = [line for line in lines if line not in present]
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        view = memoryview(b"".join(lines))
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)
    if new:
        _fsync_dir(path.parent)


def _replace(path: Path, lines: list[bytes]) -> None:
    tmp = path.with_name(path.name + ".retry-tmp")
    with open(tmp, "wb") as fh:
        fh.write(b"".join(lines))
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _is_json(line: bytes) -> bool:
    try:
        json.loads(line)
    except ValueError:
        return False
    return True
