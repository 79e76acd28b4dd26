"""What an import did (``import.json``): every record imported or skipped with its reason; and the batch runner.

Each importer turns records into ``Pending`` work (run in a thread pool: the
programs it runs are sandboxed subprocesses) or into an immediate outcome (a
record that is invalid, filtered out or a duplicate). Outcomes come back in
record order, whatever order the work finishes in, so a report is the same
for any ``jobs``.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NamedTuple

from pydantic import Field, field_validator

from execstate import __version__
from execstate.construct._pool import (
    CRLF_SOURCE_KEY,
    NewTest,
    ProblemLimits,
    ProvenanceValue,
    as_served,
    write_problem,
)
from execstate.construct._sources import BadRecord
from execstate.errors import bounded_reason, one_line
from execstate.records import SCHEMA_VERSION, Record
from execstate.sandbox import kill_all
from execstate.studies import default_grading_rule

REPORT_NAME = "import.json"
"""The report an import writes into its pool."""

SkipKind = Literal["invalid", "refused", "unsupported", "filtered", "no-solution", "exists", "duplicate", "error"]
"""Why a record was not imported: ``invalid`` (a field is missing or malformed), ``refused`` (a private-test
pickle that names a global), ``unsupported`` (not a standard-input problem), ``filtered`` (``--difficulty``),
``no-solution`` (no program of the language passes, or none is given), ``exists`` (the problem directory is
already in the pool), ``duplicate`` (an id seen earlier in the batch), ``error`` (the importer itself failed)."""

Importer = Literal["codecontests", "livecodebench", "folders"]


class Imported(Record):
    """A record written into the pool as one problem directory."""

    id: str
    record: str
    """Where the record came from: ``FILE:LINE``, ``FILE[INDEX]`` or a folder."""
    path: str
    """The problem directory written."""
    detail: str = ""
    """Which program was taken (e.g. ``python solution 2 of 5 (index 7) passes all 12 tests``)."""


class Skipped(Record):
    """A record that was not imported, and why."""

    record: str
    id: str | None = None
    """The problem id it would have had, when the record got that far."""
    kind: SkipKind
    reason: str
    """One line, as ``bounded_reason`` makes it."""

    @field_validator("reason")
    @classmethod
    def _bounded(cls, value: str) -> str:
        return bounded_reason(one_line(value))


Outcome = Imported | Skipped


class ImportReport(Record):
    """One import run: its inputs and options, and every record's outcome in record order."""

    schema_version: int = SCHEMA_VERSION
    importer: Importer
    sources: list[str]
    """The files or folders imported from, as given."""
    pool: str
    options: dict[str, Any] = Field(default_factory=dict)
    """The importer's options (language, study, limits, ...), as JSON values."""
    execstate_version: str = __version__
    interrupted: bool = False
    """The import was stopped (Ctrl-C) before every record was done; records not reached are in neither list."""
    imported: list[Imported] = Field(default_factory=list)
    skipped: list[Skipped] = Field(default_factory=list)

    @property
    def path(self) -> Path:
        """Where ``write_report`` puts this report."""
        return Path(self.pool) / REPORT_NAME

    def summary(self) -> str:
        """One line: ``imported N, skipped M (kind n, ...); reasons in POOL/import.json``."""
        kinds = Counter(s.kind for s in self.skipped)
        by_kind = f" ({', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))})" if kinds else ""
        stopped = "; interrupted" if self.interrupted else ""
        return f"imported {len(self.imported)}, skipped {len(self.skipped)}{by_kind}{stopped}; reasons in {self.path}"


def write_report(report: ImportReport) -> Path:
    """Write ``report`` as ``POOL/import.json`` (replacing an earlier one in one step) and return its path."""
    target = report.path
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".import.", suffix=".json", dir=target.parent)
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
        json.dump(report.model_dump(mode="json"), fh, indent=1, ensure_ascii=False)
        fh.write("\n")
    os.chmod(tmp, 0o644)
    os.replace(tmp, target)
    return target


@dataclass(frozen=True)
class Pending:
    """Work for one record that runs in the pool: returns its outcome."""

    record: str
    id: str
    work: Callable[[], Outcome]

    def __call__(self) -> Outcome:
        try:
            return self.work()
        except BadRecord as exc:
            return Skipped(record=self.record, id=self.id, kind=exc.kind, reason=exc.reason)
        except Exception as exc:  # one record's failure never stops the batch
            reason = f"the importer failed on this record: {type(exc).__name__}: {exc}"
            return Skipped(record=self.record, id=self.id, kind="error", reason=reason)


Progress = Callable[[int, Outcome], None]
"""Called once per record in record order with the count done so far and the record's outcome."""


def run_batch(items: Iterable[Outcome | Pending], jobs: int, progress: Progress | None) -> tuple[list[Outcome], bool]:
    """Outcomes of ``items`` in their order (``Pending`` ones run ``jobs`` at a time), and whether it was interrupted.

    At most ``2 * jobs`` records are in flight, so a large dataset streams. On
    Ctrl-C the running programs are killed, records not started are dropped, and
    the outcomes finished so far are returned with ``True``.
    """
    done: list[Outcome] = []
    window: deque[Outcome | Future[Outcome]] = deque()
    pool = ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="execstate-import")

    def emit(entry: Outcome | Future[Outcome]) -> None:
        done.append(entry.result() if isinstance(entry, Future) else entry)
        if progress is not None:
            progress(len(done), done[-1])

    try:
        for item in items:
            window.append(pool.submit(item) if isinstance(item, Pending) else item)
            while window and (len(window) > 2 * max(1, jobs) or _finished(window[0])):
                emit(window.popleft())
        while window:
            emit(window.popleft())
    except KeyboardInterrupt:
        _stop([f for f in window if isinstance(f, Future)])
        return done + _kept(window), True
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
    return done, False


def _finished(entry: Outcome | Future[Outcome]) -> bool:
    return not isinstance(entry, Future) or entry.done()


def _kept(window: Iterable[Outcome | Future[Outcome]]) -> list[Outcome]:
    """After a stop: the outcomes decided without running, and every problem that was written.

    A record whose programs were killed by the stop is left out (its failure says nothing about it).
    """
    kept: list[Outcome] = []
    for entry in window:
        if not isinstance(entry, Future):
            kept.append(entry)
        elif entry.done() and not entry.cancelled() and isinstance(entry.result(), Imported):
            kept.append(entry.result())
    return kept


def _stop(futures: list[Future[Outcome]], grace_s: float = 30.0) -> None:
    """Cancel what has not started and kill the sandboxed programs of what has, until those threads end."""
    for fut in futures:
        fut.cancel()
    pending = {f for f in futures if not f.cancelled()}
    deadline = time.monotonic() + grace_s
    while pending and time.monotonic() < deadline:
        kill_all()  # again and again: a record may start its next program before it notices
        pending = wait(pending, timeout=0.05)[1]


_NAMED_FILES = 5
"""Test files an ``Imported.detail`` names when it says their line ends were made LF (the rest are counted)."""


class Written(NamedTuple):
    """A problem an import wrote: its directory, and the test files whose CRLF line ends it wrote as LF."""

    path: Path
    crlf: tuple[str, ...]

    @property
    def note(self) -> str:
        """What ``Imported.detail`` adds: nothing, or which test files were written with LF for CRLF line ends."""
        if not self.crlf:
            return ""
        named = ", ".join(self.crlf[:_NAMED_FILES])
        more = f" and {len(self.crlf) - _NAMED_FILES} more" if len(self.crlf) > _NAMED_FILES else ""
        return f"; CRLF line ends written as LF, as judges serve them, in {named}{more}"


@dataclass(frozen=True)
class Target:
    """Where an import writes its problems, the study they belong to, and whether existing ones are replaced."""

    pool: Path
    study: str | None
    overwrite: bool
    keep_crlf: bool = False
    """Write test files as the dataset has them; else (default) CRLF line ends become LF (``as_served``)."""

    @property
    def rule(self) -> str | None:
        """The grading rule written to each ``problem.toml``: the study's default (none without a study)."""
        return default_grading_rule(self.study) if self.study else None

    def served(self, tests: Sequence[NewTest]) -> tuple[list[NewTest], tuple[str, ...]]:
        """``tests`` as a judge serves them (``as_served``; as they are with ``keep_crlf``), and the names of the
        files that changed (``NAME.in``, ``NAME.out``), in test order."""
        if self.keep_crlf:
            return list(tests), ()
        served: list[NewTest] = []
        changed: list[str] = []
        for test in tests:
            given = as_served(test.input)
            expected = as_served(test.output) if test.output is not None else None
            changed += [f"{test.name}.in"] if given is not test.input else []
            changed += [f"{test.name}.out"] if expected is not test.output else []
            served.append(NewTest(test.name, given, expected))
        return served, tuple(changed)

    def write(
        self,
        problem_id: str,
        program: str,
        language: str,
        tests: Sequence[NewTest],
        source: Mapping[str, ProvenanceValue],
        limits: ProblemLimits | None = None,
        rule: str | None = None,
    ) -> Written:
        """``write_problem`` into the pool with this import's study, rule (unless ``rule`` is given) and overwrite,
        the tests as a judge serves them (``served``); the files so changed are named in ``[source]``."""
        tests, crlf = self.served(tests)
        if crlf:
            source = {**source, CRLF_SOURCE_KEY: " ".join(crlf)}
        path = write_problem(
            self.pool, problem_id, program, language, tests, study=self.study, rule=rule or self.rule, limits=limits,
            source=source, overwrite=self.overwrite,
        )  # fmt: skip
        return Written(path, crlf)


class Claims:
    """The problem ids of one import: each may be used once, and not over an existing directory unless asked."""

    def __init__(self, target: Target) -> None:
        self.pool, self.overwrite = target.pool, target.overwrite
        self.seen: dict[str, str] = {}

    def claim(self, record: str, problem_id: str) -> Skipped | None:
        """None if ``record`` may be written as ``problem_id``; else the ``Skipped`` saying why not."""
        if not problem_id:
            return Skipped(record=record, kind="invalid", reason="its name has no letter or digit to make an id of")
        if problem_id in self.seen:
            reason = f"id {problem_id!r} is already taken by {self.seen[problem_id]} in this import"
            return Skipped(record=record, id=problem_id, kind="duplicate", reason=reason)
        self.seen[problem_id] = record
        if (self.pool / problem_id).exists() and not self.overwrite:
            reason = f"{self.pool / problem_id} already exists. Fix: pass --overwrite (overwrite=True) or another pool"
            return Skipped(record=record, id=problem_id, kind="exists", reason=reason)
        return None


def run_import(
    report: ImportReport, items: Iterable[Outcome | Pending], jobs: int, progress: Progress | None
) -> ImportReport:
    """Run ``items``, write ``report`` with their outcomes as ``POOL/import.json``, and return it."""
    outcomes, interrupted = run_batch(items, jobs, progress)
    done = report.model_copy(
        update={
            "interrupted": interrupted,
            "imported": [o for o in outcomes if isinstance(o, Imported)],
            "skipped": [o for o in outcomes if isinstance(o, Skipped)],
        }
    )
    write_report(done)
    return done
