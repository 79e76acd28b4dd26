"""A case spec's study: its root folder, the folders its files may come from, and the defaults of ``study.toml``.

The study root of a case spec is the nearest folder at or above the spec's
folder (symlinks resolved) that holds a ``study.toml``, else the spec's own
folder. Every file a spec names (program, inputs, generators, the invariant's
audit and inputs) is written relative to the folder of the file that states
it (the ``case.toml``, or the ``study.toml`` for a default) and must lie, once
symlinks are resolved, inside the study root or inside one of the extra
folders that ``study.toml`` lists in ``sources``. So a study stores a program
once and its cases name it (``program = "../../pool/p/main.py"``), and no path
leads anywhere the study did not declare.

``study.toml`` may give a case's ``study``, ``language``, ``program``,
``grading_rule``, ``environment``, ``arms`` and ``[checkpoint]``; a ``case.toml`` that states a key
overrides the default (a case's ``[checkpoint]`` replaces the default table
as a whole: a case choosing ``loop`` must not inherit the study's
``loop_text``). Tables that other tools keep in the same file
(``[generator]`` and ``[bands]``, read by ``execstate select``) are allowed
and ignored here; anything else is a ``SpecError`` naming ``study.toml``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from execstate.errors import SpecError

STUDY_FILE = "study.toml"
"""The file that marks a study root."""
DEFAULT_KEYS = ("study", "language", "program", "grading_rule", "checkpoint", "environment", "arms")
"""Case-spec keys a ``study.toml`` may give for all its cases."""
SOURCES_KEY = "sources"
TOOL_TABLES = {"generator": "execstate select", "bands": "execstate select"}
"""Tables of ``study.toml`` that belong to another tool, by the tool that reads them."""
CASE_OWN_KEYS = ("id", "short_input", "long_input", "provenance", "invariant")
"""Case-spec keys that are each case's own (a default for them would make every case alike)."""


@dataclass(frozen=True)
class StudyRoot:
    """Where a case spec's files may come from, and the defaults its ``study.toml`` gives."""

    root: Path
    """The study root, resolved: the folder of ``file``, else the spec's own folder."""
    file: Path | None = None
    """The ``study.toml`` that marks the root; None when the spec has none above it."""
    sources: tuple[Path, ...] = ()
    """Extra folders (resolved) whose files the study's specs may name: ``study.toml``'s ``sources``."""
    defaults: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    """The default case-spec keys of ``study.toml`` (a subset of ``DEFAULT_KEYS``), unvalidated."""

    @property
    def folders(self) -> tuple[Path, ...]:
        """Every folder a spec's file may lie in: the root, then the sources."""
        return (self.root, *self.sources)


def find_study(spec: Path) -> StudyRoot:
    """The study of the case spec (or ``study.toml``) at ``spec``; ``SpecError`` for a broken ``study.toml``."""
    folder = Path(spec).parent.resolve()
    for candidate in (folder, *folder.parents):
        if (candidate / STUDY_FILE).is_file():
            return read_study(candidate / STUDY_FILE)
    return StudyRoot(root=folder)


def read_study(path: Path) -> StudyRoot:
    """Read and check one ``study.toml``: its keys and its ``sources`` (the defaults are checked where used)."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SpecError(path, None, f"cannot read the study file ({exc.strerror})", "check the file") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise SpecError(path, None, f"not valid TOML ({exc})", "correct the TOML syntax") from None
    for key in raw:
        if key in CASE_OWN_KEYS:
            problem = f"{key!r} is each case's own key; a study cannot give it to all its cases"
            raise SpecError(path, key, problem, f"remove it here and state {key} in each case.toml")
        if key not in DEFAULT_KEYS and key != SOURCES_KEY and key not in TOOL_TABLES:
            known = ", ".join([*DEFAULT_KEYS, SOURCES_KEY, *TOOL_TABLES])
            raise SpecError(path, key, "unknown key in study.toml", f"remove it or use one of: {known}")
    root = path.parent.resolve()
    return StudyRoot(
        root=root,
        file=path.absolute(),
        sources=_sources(path, raw.get(SOURCES_KEY, [])),
        defaults=MappingProxyType({key: raw[key] for key in DEFAULT_KEYS if key in raw}),
    )


def _sources(path: Path, value: Any) -> tuple[Path, ...]:
    """``sources = ["../classic"]``: folders relative to ``study.toml``'s folder, which must exist."""
    example = 'sources = ["../classic"]'
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise SpecError(path, SOURCES_KEY, f"expected a list of folder names, got {value!r}", f"write {example}")
    folders = []
    for name in value:
        if Path(name).is_absolute():
            problem = f"{name!r} is an absolute path"
            raise SpecError(path, SOURCES_KEY, problem, f"name the folder relative to study.toml's folder: {example}")
        try:
            folder = (path.parent / name).resolve()
        except (OSError, RuntimeError) as exc:
            raise SpecError(path, SOURCES_KEY, f"{name!r} cannot be resolved ({exc})", "fix the folder name") from None
        if not folder.is_dir():
            problem = f"{name!r} is not a folder (resolved to {folder})"
            raise SpecError(path, SOURCES_KEY, problem, "name an existing folder, relative to study.toml's folder")
        folders.append(folder)
    return tuple(folders)


def with_defaults(spec: Path, raw: Mapping[str, Any], study: StudyRoot) -> tuple[dict[str, Any], dict[str, Path]]:
    """The spec's keys over the study's defaults, and for each key the file that states it.

    A missing ``id`` becomes ``"<study>/<name of the spec's folder>"`` once a study is known.
    """
    merged = {**study.defaults, **raw}
    stated = {key: spec if key in raw or study.file is None else study.file for key in merged}
    if "id" not in merged and isinstance(merged.get("study"), str):
        merged["id"] = f"{merged['study']}/{Path(spec).resolve().parent.name}"
        stated["id"] = spec
    return merged, stated


def resolve_file(stated_in: Path, key: str, value: str) -> Path:
    """The file ``value`` names, resolved against the folder of ``stated_in`` (the file stating it).

    It must be a relative path to an existing file that lies, after symlinks, in one
    of the study's folders (``StudyRoot.folders``); otherwise ``SpecError`` naming
    ``stated_in``, ``key`` and the fix.
    """
    study = find_study(stated_in)
    base = Path(stated_in).parent.resolve()
    where = f"under the study root {study.root}" + (" or its sources" if study.sources else "")
    if Path(value).is_absolute():
        fix = f"name the file relative to {base}, {where}"
        raise SpecError(stated_in, key, f"{value!r} is an absolute path", fix)
    try:
        target = (base / value).resolve()
    except (OSError, ValueError, RuntimeError) as exc:
        raise SpecError(stated_in, key, f"{value!r} cannot be resolved ({exc})", "fix the path") from None
    if not any(target.is_relative_to(folder) for folder in study.folders):
        how = "is a symlink to" if _lexically_inside(base / value, study) else "leads to"
        outside = f"outside the study root {study.root}" + (" and its sources" if study.sources else "")
        problem = f"{value!r} {how} {target}, {outside}"
        raise SpecError(stated_in, key, problem, _widen_fix(study))
    if not target.is_file():
        raise SpecError(stated_in, key, f"file {base / value} does not exist", f"fix the path (relative to {base})")
    return target


def _lexically_inside(path: Path, study: StudyRoot) -> bool:
    """Whether ``path`` lies in the study's folders before symlinks are followed (``..`` folded)."""
    folded = Path(*_fold(path.absolute().parts))
    return any(folded.is_relative_to(folder) for folder in study.folders)


def _fold(parts: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for part in parts:
        if part == ".." and len(out) > 1:
            out.pop()
        elif part not in (".", ".."):
            out.append(part)
    return out


def _widen_fix(study: StudyRoot) -> str:
    """How to let a spec name a file outside its study's folders."""
    if study.file is None:
        return (
            f"move the file into the spec's folder, or put a {STUDY_FILE} in a folder above that holds both "
            f'(or that lists the file\'s folder in sources = ["../other"]); see docs/spec.md'
        )
    return (
        f"move the file under {study.root}, or list its folder in {study.file}'s sources "
        '(sources = ["../other"], relative to study.toml); see docs/spec.md'
    )


__all__ = [
    "CASE_OWN_KEYS",
    "DEFAULT_KEYS",
    "SOURCES_KEY",
    "STUDY_FILE",
    "TOOL_TABLES",
    "StudyRoot",
    "find_study",
    "read_study",
    "resolve_file",
    "with_defaults",
]
