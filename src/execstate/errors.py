"""The one exception hierarchy of execstate: stages raise these, the command line prints them as one line.

Hierarchy::

    ExecstateError          base: ``str(error)`` is one line naming the thing and the fix
    ├── UsageError          an option or argument value that cannot work (``--replicates 0``)
    ├── InputFileError      a file or directory that is missing, unreadable, or the wrong kind
    ├── RecordError         a record file with a bad line: ``file:line: field: problem. Fix: ...``
    ├── SpecError           a case spec that cannot be used (file, key, problem, fix)
    ├── SettingsError       a settings file, an unknown setting, or a run directory that does not match
    ├── StoreError          a responses store that cannot be appended to safely
    ├── PlanError           responses that do not cover the planned cells exactly once
    ├── ProgramFailed       a program a command was asked to measure crashed, timed out or hit a limit
    └── NothingAdmitted     a build in which no case became tasks (the command exits 1)

Every class but the base is also a ``ValueError``, so callers that caught
``ValueError`` before the hierarchy existed keep working. A program's own
faults (crash, timeout) are never exceptions: they are exclusion records.
"""

from __future__ import annotations

from pathlib import Path


class ExecstateError(Exception):
    """Base of every error execstate raises on purpose; the message is one line."""

    exit_code = 2
    """Process exit status when the command line reports this error."""


class UsageError(ExecstateError, ValueError):
    """An option or argument value that cannot work."""


class InputFileError(ExecstateError, ValueError):
    """A file or directory that is missing, unreadable, or of the wrong kind."""


class RecordError(ExecstateError, ValueError):
    """A record file (JSON lines or JSON) with a line that is not a valid record."""


class SpecError(ExecstateError, ValueError):
    """A case spec that cannot be used; the message names the file, the key and the fix."""

    def __init__(self, path: Path, key: str | None, problem: str, fix: str) -> None:
        self.path, self.key, self.problem, self.fix = path, key, problem, fix
        where = f"{path}" + (f" [{key}]" if key else "")
        super().__init__(f"{where}: {problem}. Fix: {fix}")


class SettingsError(ExecstateError, ValueError):
    """A settings file, a setting name, or a run directory that cannot be used as asked."""


class StoreError(ExecstateError, ValueError):
    """A ``responses.jsonl`` that cannot be appended to safely (not this run's, or locked)."""


class PlanError(ExecstateError, ValueError):
    """Responses that do not cover the planned cells exactly once."""


class ProgramFailed(ExecstateError, RuntimeError):
    """A program given to a command (``execstate metrics``) crashed, timed out or hit a limit.

    In a build the same faults are not errors but exclusion records.
    """


class NothingAdmitted(ExecstateError, ValueError):
    """A build in which every case was excluded; the outputs are still written."""

    exit_code = 1


def one_line(text: str) -> str:
    """``text`` with its line breaks folded, for messages that quote program or parser output."""
    return " | ".join(part.strip() for part in str(text).splitlines() if part.strip())


def require_file(path: Path | str, what: str, fix: str) -> Path:
    """``path`` as a ``Path`` if it is an existing file, else ``InputFileError`` naming ``what`` and ``fix``."""
    path = Path(path)
    if path.is_dir():
        raise InputFileError(f"{what} {path} is a directory, not a file. Fix: {fix}")
    if not path.is_file():
        raise InputFileError(f"{what} {path} does not exist. Fix: {fix}")
    return path


def output_dir(path: Path | str, what: str = "--out") -> Path:
    """Create the output directory ``path`` (and parents); ``UsageError`` if a file stands in the way."""
    path = Path(path)
    blocker = next((p for p in (path, *path.parents) if p.exists() and not p.is_dir()), None)
    if blocker is not None:
        raise UsageError(
            f"{what} {path} must be a directory, but {blocker} is a file. Fix: pass a new or existing directory"
        )
    path.mkdir(parents=True, exist_ok=True)
    return path


def output_file(path: Path | str, what: str = "--out") -> Path:
    """Make room for the output file ``path`` (create parents); ``UsageError`` if it is a directory."""
    path = Path(path)
    if path.is_dir():
        raise UsageError(f"{what} {path} is a directory, but a file is written there. Fix: name a file")
    output_dir(path.parent, f"the directory of {what}")
    return path


__all__ = [
    "ExecstateError",
    "InputFileError",
    "NothingAdmitted",
    "PlanError",
    "ProgramFailed",
    "RecordError",
    "SettingsError",
    "SpecError",
    "StoreError",
    "UsageError",
    "one_line",
    "output_dir",
    "output_file",
    "require_file",
]
