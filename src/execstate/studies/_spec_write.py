"""Write case specs and study files as TOML: the one writer beside the readers (``execstate.builder.load_spec``,
``execstate.studies.find_study``).

Every tool that writes a ``case.toml`` or a ``study.toml`` (``execstate
construct``, ``execstate select``) describes it as a :class:`SpecDraft` and
renders it here, so what they write is one format, in one key order, and reads
back through :func:`execstate.builder.load_spec`. The TOML value rendering
(``toml_value``) is also what the problem pool's ``problem.toml`` writer uses.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TomlValue = str | int | float | bool | list[Any] | tuple[Any, ...] | Mapping[str, Any]


@dataclass(frozen=True)
class SpecDraft:
    """A case spec, or a study's defaults, as its file states them: paths relative to that file's folder.

    ``None`` (or an empty table) leaves a key out, so a ``case.toml`` can state
    only what is its own and let ``study.toml`` give the rest. ``sources`` is a
    ``study.toml`` key only (the reader refuses it in a ``case.toml``).
    """

    comment: str | None = None
    """Written first, one ``# `` line per line of text; says which tool wrote the file and why."""
    id: str | None = None
    study: str | None = None
    language: str | None = None
    program: str | None = None
    short_input: str | Mapping[str, Any] | None = None
    """A file name, or ``{"generator": "gen.py", "args": [...]}`` (an inline table)."""
    long_input: str | Mapping[str, Any] | None = None
    grading_rule: str | None = None
    arms: tuple[str, ...] | None = None
    """The ``arms`` key (written after ``grading_rule``); None leaves it out (the paper's four)."""
    sources: tuple[str, ...] = ()
    """Extra folders the study's specs may name files in (``study.toml`` only)."""
    checkpoint: Mapping[str, Any] | None = None
    """The ``[checkpoint]`` table, keys in the order given."""
    provenance: Mapping[str, Any] | None = None
    """The ``[provenance]`` table: flat keys with strings, numbers, booleans or lists of them."""
    invariant: Mapping[str, Any] | None = None
    environment: str | Mapping[str, Any] | None = None
    """A preset's name (written as the top-level ``environment = "..."``, after ``grading_rule``), or the
    ``[environment]`` table (``preset``, ``packages``, ``include``; written last)."""


_TOP = ("id", "study", "language", "program", "short_input", "long_input", "grading_rule", "arms")
_TABLES = ("checkpoint", "provenance", "invariant")


def spec_toml(draft: SpecDraft) -> str:
    """The TOML text of ``draft``: comment, top-level keys, then the ``[checkpoint]``, ``[provenance]``,
    ``[invariant]`` and ``[environment]`` tables, each after a blank line; always ends in one newline."""
    lines = [f"# {line}".rstrip() for line in draft.comment.split("\n")] if draft.comment else []
    lines += [f"{key} = {toml_value(getattr(draft, key))}" for key in _TOP if getattr(draft, key) is not None]
    environment = draft.environment
    if isinstance(environment, str):
        lines.append(f"environment = {toml_value(environment)}")
    if draft.sources:
        lines.append(f"sources = {toml_value(list(draft.sources))}")
    for name in (*_TABLES, "environment"):
        table: Mapping[str, Any] | None = getattr(draft, name)
        if table and not isinstance(table, str):
            lines += ["", f"[{name}]", *(f"{toml_key(k)} = {toml_value(v)}" for k, v in table.items())]
    return "\n".join(lines) + "\n"


def write_spec(path: Path, draft: SpecDraft) -> Path:
    """Write ``draft`` to ``path`` atomically (a temporary file renamed into place); return ``path``.

    A reader never sees half a file, and a concurrent writer of the same text leaves it whole.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(spec_toml(draft))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def relative_name(target: Path, folder: Path) -> str:
    """How a file in ``folder`` names ``target``: a relative POSIX path between the two resolved paths.

    The reader resolves the stating file's folder before joining the name, so the
    name is taken between resolved paths (a symlinked ``/tmp`` does not skew the ``..``).
    """
    return Path(os.path.relpath(Path(target).resolve(), Path(folder).resolve())).as_posix()


def toml_value(value: TomlValue) -> str:
    """``value`` as a TOML value: a boolean, a number, a basic string, an array, or an inline table."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    text = str(value).encode("utf-8", "backslashreplace").decode("utf-8")  # a lone surrogate cannot be written
    escaped = "".join(ch if ch.isprintable() and ch not in '"\\' else _toml_escape(ch) for ch in text)
    return f'"{escaped}"'


def _toml_escape(ch: str) -> str:
    named = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}.get(ch)
    return named or (f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}")


def toml_key(key: str) -> str:
    """``key`` bare when TOML allows it, else quoted."""
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else toml_value(key)


__all__ = ["SpecDraft", "relative_name", "spec_toml", "toml_key", "toml_value", "write_spec"]
