"""The one exception hierarchy of execstate: stages raise these, the command line prints them as one line.

Hierarchy::

    ExecstateError          base: ``str(error)`` is one line naming the thing and the fix
    ├── UsageError          an option or argument value that cannot work (``--replicates 0``)
    ├── InputFileError      a file or directory that is missing, unreadable, or the wrong kind
    ├── RecordError         a record file with a bad line: ``file:line: field: problem. Fix: ...``
    ├── SpecProblem         one problem of a case spec: (key, problem, fix), raised where it is found
    │   └── SpecError       the same with the spec file attached, where it is reported (file [key]: problem. Fix)
    ├── SettingsError       a settings file, an unknown setting, or a run directory that does not match
    ├── StoreError          a responses store that cannot be appended to safely
    ├── PlanError           responses that do not cover the planned cells exactly once
    ├── ProgramFailed       a program a command was asked to measure crashed, timed out or hit a limit
    ├── NothingAdmitted     a build in which no case became tasks, an import that imported nothing (exit 1)
    └── Interrupted         a batch stopped by SIGINT or SIGTERM; what finished is written (exits 130)

Every class but the base and ``Interrupted`` is also a ``ValueError``, so callers that caught
``ValueError`` before the hierarchy existed keep working. A program's own
faults (crash, timeout) are never exceptions: they are exclusion records.
"""

from __future__ import annotations

import importlib
import os
import shutil
import stat
from pathlib import Path
from typing import Any

REASON_LIMIT = 2000
"""Most characters of an exclusion reason (``bounded_reason``)."""


class ExecstateError(Exception):
    """Base of every error execstate raises on purpose; the message is one line."""

    exit_code = 2
    """Process exit status when the command line reports this error."""
    label = "error"
    """The word the command line prints before the message."""


class UsageError(ExecstateError, ValueError):
    """An option or argument value that cannot work."""


class InputFileError(ExecstateError, ValueError):
    """A file or directory that is missing, unreadable, or of the wrong kind."""


class RecordError(ExecstateError, ValueError):
    """A record file (JSON lines or JSON) with a line that is not a valid record."""


class SpecProblem(ExecstateError, ValueError):
    """One problem of a case spec or of what it names: the spec key to fix, the problem, and the fix.

    Raised where the problem is found (a language adapter that cannot place the checkpoint, the
    language registry, the spec reader), before anyone knows which spec file it belongs to; the
    code that reports it attaches the file once (``at``). ``str()``: ``problem. Fix: fix``.
    """

    def __init__(self, key: str | None, problem: str, fix: str) -> None:
        self.key, self.problem, self.fix = key, problem, fix
        super().__init__(self._message())

    def _message(self) -> str:
        return f"{self.problem}. Fix: {self.fix}"

    def at(self, path: Path) -> SpecError:
        """This problem as it is reported: with the spec file ``path`` it belongs to."""
        return SpecError(path, self.key, self.problem, self.fix)


class SpecError(SpecProblem):
    """A ``SpecProblem`` with the spec file it belongs to: ``file [key]: problem. Fix: fix``."""

    def __init__(self, path: Path, key: str | None, problem: str, fix: str) -> None:
        self.path = path
        super().__init__(key, problem, fix)

    def _message(self) -> str:
        where = f"{self.path}" + (f" [{self.key}]" if self.key else "")
        return f"{where}: {self.problem}. Fix: {self.fix}"


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


class ScreeningFailed(ExecstateError, RuntimeError):
    """A screening worker failed in its own code (not the program's): its inputs have no trustworthy result."""


class NothingAdmitted(ExecstateError, ValueError):
    """A build in which every case was excluded, or an import that imported no record; the outputs are still written."""

    exit_code = 1


class Interrupted(ExecstateError):
    """A batch stopped by SIGINT or SIGTERM; the records of what finished were written."""

    exit_code = 130
    label = "interrupted"


def one_line(text: str) -> str:
    """``text`` with its line breaks folded, for messages that quote program or parser output."""
    return " | ".join(part.strip() for part in str(text).splitlines() if part.strip())


def bounded_reason(text: str, limit: int = REASON_LIMIT) -> str:
    """``text`` safe to store and print: control characters escaped (``\\x1b``, ``\\n``), at most ``limit`` chars.

    A long text keeps its head and its tail (where a stderr's last words are)
    around a note of how much was left out. Applying it twice changes nothing.
    """
    text = str(text)
    if not text.isprintable():
        text = "".join(_escape_char(ch) for ch in text)
    if len(text) <= limit:
        return text
    note = f" ... [{len(text) - limit} characters left out] ... "
    head = (limit - len(note)) * 2 // 3
    tail = limit - len(note) - head
    return text[:head] + note + text[len(text) - tail :]


def _escape_char(ch: str) -> str:
    if ch.isprintable():
        return ch
    code = ord(ch)
    named = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}.get(ch)
    if named:
        return named
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def clip_text(text: str | bytes, limit: int, note: str = "... ({total} chars)") -> str:
    """The first ``limit`` characters of ``text`` followed by ``note``, or the whole when it is not longer.

    For quoting a program's output or a record's value where a short head says enough: bytes are
    decoded as UTF-8 (bad bytes replaced). In ``note``, ``{total}`` is the text's length and
    ``{left_out}`` the characters cut. Unlike ``bounded_reason`` it escapes nothing and keeps no tail.
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if len(text) <= limit:
        return text
    return text[:limit] + note.format(total=len(text), left_out=len(text) - limit)


def remove_tree(path: Path | str) -> bool:
    """Remove ``path`` and all under it, however deep or write-protected, never following a symlink.

    For directories an untrusted program may have filled (a 1,500-deep tree,
    a directory without permissions). Returns whether ``path`` is gone; never raises.
    """
    path = os.fspath(path)
    try:
        if os.path.islink(path) or not os.path.isdir(path):
            os.unlink(path)
            return True
        shutil.rmtree(path)
    except FileNotFoundError:
        return True
    except (OSError, RecursionError):
        try:
            _remove_deep(path)
        except OSError:
            pass
    return not os.path.lexists(path)


def _remove_deep(path: str) -> None:
    """Depth-first removal with one open directory at a time (no recursion, no long paths)."""
    fd = _open_dir(path, None)
    names: list[str] = []
    try:
        while True:
            child = _clear_files(fd)
            if child is not None:
                sub = _open_dir(child, fd)
                os.close(fd)
                fd, names = sub, [*names, child]
            elif names:
                up = os.open("..", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
                os.close(fd)
                fd = up
                os.rmdir(names.pop(), dir_fd=fd)
            else:
                break
    finally:
        os.close(fd)
    os.rmdir(path)


def _open_dir(name: str, dir_fd: int | None) -> int:
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
    try:
        return os.open(name, flags, dir_fd=dir_fd)
    except PermissionError:
        os.chmod(name, stat.S_IRWXU, dir_fd=dir_fd)
        return os.open(name, flags, dir_fd=dir_fd)


def _clear_files(fd: int) -> str | None:
    """Unlink every non-directory in the directory ``fd``; the name of a sub-directory, if one is left."""
    with os.scandir(fd) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                return entry.name
            try:
                os.unlink(entry.name, dir_fd=fd)
            except PermissionError:
                os.chmod(fd, stat.S_IRWXU)
                os.unlink(entry.name, dir_fd=fd)
    return None


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


def load_attr(target: str) -> Any:
    """The object ``"package.module:attr.attr"`` names, importing the module (registries name their entries'
    implementations this way so a command imports only what it uses). ``UsageError`` naming the target when
    the module or an attribute is missing."""
    module, _, attrs = target.partition(":")
    fix = "Fix: name an existing module:attribute"
    try:
        found: Any = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is None or not module.startswith(exc.name):
            raise  # the module exists but a module it imports does not: that error is the one to see
        raise UsageError(f"{target!r}: no module {exc.name!r}. {fix}") from exc
    for attr in attrs.split(".") if attrs else ():
        if not hasattr(found, attr):
            raise UsageError(f"{target!r}: {found!r} has no attribute {attr!r}. {fix}")
        found = getattr(found, attr)
    return found


__all__ = [
    "REASON_LIMIT",
    "ExecstateError",
    "InputFileError",
    "Interrupted",
    "NothingAdmitted",
    "PlanError",
    "ProgramFailed",
    "RecordError",
    "ScreeningFailed",
    "SettingsError",
    "SpecError",
    "SpecProblem",
    "StoreError",
    "UsageError",
    "bounded_reason",
    "clip_text",
    "load_attr",
    "one_line",
    "output_dir",
    "output_file",
    "remove_tree",
    "require_file",
]
