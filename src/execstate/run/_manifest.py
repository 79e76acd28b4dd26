"""``run_manifest.json``: what a run directory's responses were asked with (never any key)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from execstate.records import RUN_MANIFEST_NAME, RunInvocation, RunManifest, Task, tasks_bytes
from execstate.run._settings import Setting, SettingsError, setting_default


def tasks_sha256(tasks: list[Task]) -> str:
    """SHA-256 of the tasks as ``tasks.jsonl`` bytes: equal to the hash of the file ``build`` writes."""
    return hashlib.sha256(tasks_bytes(tasks)).hexdigest()


def file_sha256(path: Path) -> str:
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def read_manifest(out_dir: Path) -> RunManifest | None:
    path = out_dir / RUN_MANIFEST_NAME
    if not path.exists():
        return None
    try:
        return RunManifest.model_validate_json(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise SettingsError(f"{path}: not a valid run manifest ({exc}); move it aside to start afresh") from None


def check_compatible(old: RunManifest | None, sha: str, settings: list[Setting], out_dir: Path) -> None:
    """Refuse to mix responses to different tasks, or to a changed setting under the same name."""
    if old is None:
        return
    if old.tasks_sha256 != sha:
        raise SettingsError(
            f"{out_dir}: responses there answer tasks with sha256 {old.tasks_sha256[:12]}..., "
            f"but these tasks hash to {sha[:12]}...; use a new --out directory for new tasks"
        )
    for s in settings:
        before = old.settings.get(s.name)
        if before is None:
            continue
        defaults = s.option_defaults()
        changed = [
            k
            for k, v in s.request_fingerprint().items()
            if before.get(k, _jsonable(defaults[k]) if k in defaults else _default(k)) != _jsonable(v)
        ]
        if changed:
            raise SettingsError(
                f"{out_dir}: setting {s.name!r} changed since its responses were recorded "
                f"(fields {changed}); give the new configuration a new name or use a new --out"
            )


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value))


_WRITTEN_WHEN_SET = (
    "price_input_per_mtok",
    "price_output_per_mtok",
    "price_reasoning_per_mtok",
    "price_batch_factor",
    "price_batch_input_per_mtok",
    "price_batch_output_per_mtok",
    "batch",
    "batch_poll_s",
    "batch_max_requests",
    "effort",
    "max_output_limit",
    "sampling",
    "stream",
    "batch_open",
    "batch_max_failures",
    "batch_retry_s",
)
"""Setting fields added after manifests were first written: left out at their default, so a run that does
not use them writes the manifest it wrote before, and a manifest without them reads as the default. A
provider's own keys (``synthetic_skill``, ...) are likewise written only when they differ from their default."""


def _default(key: str) -> Any:
    return _jsonable(setting_default(key)) if key in _WRITTEN_WHEN_SET else None


def _recorded(s: Setting) -> dict[str, Any]:
    """The setting as the manifest records it (see ``_WRITTEN_WHEN_SET``)."""
    defaults = s.option_defaults()
    at_default = {k for k in _WRITTEN_WHEN_SET if getattr(s, k) == _default(k)}
    at_default |= {k for k, v in (s.model_extra or {}).items() if k in defaults and v == defaults[k]}
    return {k: v for k, v in s.model_dump(mode="json").items() if k not in at_default}


def updated_manifest(
    old: RunManifest | None,
    tasks_file: str | None,
    sha: str,
    n_tasks: int,
    settings: list[Setting],
    invocation: RunInvocation,
) -> RunManifest:
    merged = dict(old.settings) if old else {}
    merged.update({s.name: _recorded(s) for s in settings})
    return RunManifest(
        tasks_file=tasks_file if tasks_file is not None else (old.tasks_file if old else None),
        tasks_sha256=sha,
        tasks=n_tasks,
        settings=merged,
        invocations=[*(old.invocations if old else []), invocation],
        models=old.models if old else None,
    )


def write_manifest(out_dir: Path, manifest: RunManifest) -> None:
    """Atomically replace ``run_manifest.json`` (write a temp file, fsync, rename)."""
    path = out_dir / RUN_MANIFEST_NAME
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(manifest.model_dump_json(indent=2) + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
