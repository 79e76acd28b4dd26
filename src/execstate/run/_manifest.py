"""``run_manifest.json``: what a run directory's responses were asked with (never any key)."""

from __future__ import annotations

import hashlib
import json
import os
import platform
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from execstate import __version__
from execstate.build import tasks_bytes
from execstate.records import SCHEMA_VERSION, Task
from execstate.run._settings import Setting, SettingsError

MANIFEST_NAME = "run_manifest.json"


class RunInvocation(BaseModel):
    """One invocation of ``run`` on the directory (a resume appends another)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    started_at: str
    settings: list[str]
    samples: int
    limit: int | None
    execstate_version: str = __version__
    python: str = Field(default_factory=platform.python_version)


class RunManifest(BaseModel):
    """Settings (without keys), the task file's hash and the history of invocations."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    schema_version: int = SCHEMA_VERSION
    tasks_file: str | None
    """Path the tasks were read from, when they came from a file."""
    tasks_sha256: str
    """SHA-256 of the task file bytes (or of the tasks' canonical JSON lines)."""
    tasks: int
    settings: dict[str, dict[str, Any]]
    """Every setting ever run into this directory, by name: all fields except secrets
    (``api_key_env`` is the variable's name, never its value)."""
    invocations: list[RunInvocation] = Field(default_factory=list)


def tasks_sha256(tasks: list[Task]) -> str:
    """SHA-256 of the tasks as ``tasks.jsonl`` bytes: equal to the hash of the file ``build`` writes."""
    return hashlib.sha256(tasks_bytes(tasks)).hexdigest()


def file_sha256(path: Path) -> str:
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def read_manifest(out_dir: Path) -> RunManifest | None:
    path = out_dir / MANIFEST_NAME
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
        changed = [k for k, v in s.request_fingerprint().items() if before.get(k) != _jsonable(v)]
        if changed:
            raise SettingsError(
                f"{out_dir}: setting {s.name!r} changed since its responses were recorded "
                f"(fields {changed}); give the new configuration a new name or use a new --out"
            )


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value))


def updated_manifest(
    old: RunManifest | None, tasks_file: str | None, sha: str, n_tasks: int,
    settings: list[Setting], invocation: RunInvocation,
) -> RunManifest:
    merged = dict(old.settings) if old else {}
    merged.update({s.name: s.model_dump(mode="json") for s in settings})
    return RunManifest(
        tasks_file=tasks_file if tasks_file is not None else (old.tasks_file if old else None),
        tasks_sha256=sha,
        tasks=n_tasks,
        settings=merged,
        invocations=[*(old.invocations if old else []), invocation],
    )


def write_manifest(out_dir: Path, manifest: RunManifest) -> None:
    """Atomically replace ``run_manifest.json`` (write a temp file, fsync, rename)."""
    path = out_dir / MANIFEST_NAME
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(manifest.model_dump_json(indent=2) + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
