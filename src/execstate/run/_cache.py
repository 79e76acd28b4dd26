"""A response cache across runs: a completed answer to the same request is read back, not paid for again.

An entry is keyed by what was asked, never by where it was recorded: the
provider, the request URL, the model, the exact JSON request body and the
sample index (sample k of a cell is its own draw). The setting's name, the API
key and the run directory are not part of the key, so a rebuilt task file (a
fresh copy added, one study more) re-pays only for the prompts that changed.

Only completed answers are stored (a ``no-response`` is not an answer), one
JSON file per entry under ``<dir>/<2 hex>/<sha256>.json``, written to a
temporary name and renamed, so a crash leaves either the whole entry or none.
An entry that cannot be read or does not match its key is ignored with a
``CacheWarning`` and the cell is sent as usual. Providers that send no request
(``oracle``, ``replay``, ``synthetic``) are never cached.
"""

from __future__ import annotations

import hashlib
import json
import os
import warnings
from pathlib import Path
from typing import Any

from execstate.errors import SettingsError
from execstate.records import Response, Task, Usage
from execstate.run._prompt import render_messages
from execstate.run._settings import Setting
from execstate.run.providers import Attempt, WireRequest, provider_entry

CACHE_FORMAT = 1
"""The layout of one cache entry; an entry of another format is ignored (a miss)."""


class CacheWarning(UserWarning):
    """A cache entry was unreadable or did not match its key; it was ignored."""


def default_cache_dir() -> Path:
    """``$EXECSTATE_CACHE_DIR``, else ``$XDG_CACHE_HOME/execstate/responses`` (``~/.cache/...``)."""
    explicit = os.environ.get("EXECSTATE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "execstate" / "responses"


def wire_request(setting: Setting, task: Task, sample: int) -> WireRequest | None:
    """The request a cell sends, or ``None`` for a provider that sends none: the prompt is rendered here, and the
    provider's ``request`` function sees only the messages and the sample."""
    make = provider_entry(setting.provider).request
    return None if make is None else make(setting, render_messages(task), sample)


def request_key(setting: Setting, request: WireRequest, sample: int) -> str:
    """The cache key of a request: SHA-256 of its canonical JSON (sorted keys, no spaces)."""
    what = {"provider": setting.provider, "url": request.url, "model": setting.model, "body": request.body}
    blob = json.dumps({**what, "sample": sample}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class ResponseCache:
    """Completed answers by request; ``hits``, ``stored`` and ``ignored`` count this process's use."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SettingsError(f"--cache {self.root}: cannot create the cache folder ({exc}); pass another") from None
        self.hits = 0
        self.stored = 0
        self.ignored = 0

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def lookup(self, setting: Setting, task: Task, sample: int) -> Response | None:
        """The cell's record from the cache (``cached = True``, the original usage), or ``None`` on a miss."""
        request = wire_request(setting, task, sample)
        if request is None:
            return None
        key = request_key(setting, request, sample)
        entry = self._read(key)
        if entry is None:
            return None
        self.hits += 1
        return Response(
            task_id=task.task_id,
            setting=setting.name,
            sample=sample,
            status="completed",
            text=entry["text"],
            reasoning=entry.get("reasoning"),
            finish_reason=entry.get("finish_reason"),
            usage=Usage.model_validate(entry.get("usage") or {}),
            attempts=0,
            provider=setting.provider,
            model=setting.model,
            cached=True,
            batch_id=entry.get("batch_id"),
            served_model=entry.get("served_model"),
            request_id=entry.get("request_id"),
            service_tier=entry.get("service_tier"),
        )

    def store(self, setting: Setting, task: Task, sample: int, attempt: Attempt, batch_id: str | None = None) -> None:
        """Keep a completed answer (anything else is ignored); a write failure only warns."""
        if attempt.kind != "completed" or attempt.text is None:
            return
        self._write(setting, task, sample, _answer(attempt, batch_id))

    def keep(self, setting: Setting, task: Task, rec: Response) -> None:
        """Keep the answer of a completed record, as ``store`` keeps the attempt it was made from (the record
        path of every transport, ``run/_record.py``); anything else is ignored, a write failure only warns."""
        if rec.status != "completed" or rec.text is None:
            return
        self._write(setting, task, rec.sample, _answer(rec, rec.batch_id))

    def _write(self, setting: Setting, task: Task, sample: int, answer: dict[str, Any]) -> None:
        request = wire_request(setting, task, sample)
        if request is None:
            return
        key = request_key(setting, request, sample)
        entry = {"format": CACHE_FORMAT, "key": key, **answer}
        path = self._path(key)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        try:
            path.parent.mkdir(exist_ok=True)
            tmp.write_text(json.dumps(entry, ensure_ascii=False), encoding="utf-8")
            os.replace(tmp, path)
        except OSError as exc:
            warnings.warn(
                f"response cache: cannot write {path} ({exc}); the answer is recorded, not cached",
                CacheWarning,
                stacklevel=3,
            )
            return
        self.stored += 1

    def has(self, key: str) -> bool:
        """Whether a usable entry is stored under ``key`` (counts no hit)."""
        return self._read(key) is not None

    def _read(self, key: str) -> dict[str, Any] | None:
        path = self._path(key)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            return self._ignore(path, f"unreadable ({exc})")
        try:
            entry = json.loads(raw)
        except ValueError:
            return self._ignore(path, "not JSON")
        if not isinstance(entry, dict) or entry.get("format") != CACHE_FORMAT or entry.get("key") != key:
            return self._ignore(path, "not an entry of this key and format")
        if not isinstance(entry.get("text"), str):
            return self._ignore(path, "no answer text")
        try:
            Usage.model_validate(entry.get("usage") or {})
        except ValueError:
            return self._ignore(path, "bad usage")
        return entry

    def _ignore(self, path: Path, why: str) -> dict[str, Any] | None:
        self.ignored += 1
        warnings.warn(f"response cache: ignored {path}: {why}; the cell is sent again", CacheWarning, stacklevel=3)
        return None


def _answer(done: Attempt | Response, batch_id: str | None) -> dict[str, Any]:
    """A cache entry's answer, from a completed attempt or its record (they carry the same fields)."""
    return {
        "text": done.text,
        "reasoning": done.reasoning,
        "finish_reason": done.finish_reason,
        "usage": done.usage.model_dump(mode="json", exclude_none=True),
        "batch_id": batch_id,
        "served_model": done.served_model,
        "request_id": done.request_id,
        "service_tier": done.service_tier,
    }
