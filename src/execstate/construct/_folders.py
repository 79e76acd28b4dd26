"""Import folders of solutions: ``main.py`` or ``main.cpp`` beside sample files, one folder per problem.

A folder holding ``solution.py`` and ``tests.json`` instead is a function-call
problem, made a stdin one with a driver (``_calls.py``).

Samples are ``NAME.in`` with ``NAME.out``, or ``in_N.txt`` with ``out_N.txt``;
an input without output is kept (a test with no expected output), an output
without input makes the folder ``invalid``. A directory given that holds no
program is searched one level down for folders that do. Programs are copied,
not run: the constructor checks every program against its tests.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from execstate.construct._calls import import_call_folder, is_call_folder
from execstate.construct._pool import NewTest, is_problem_dir, natural_key, program_files_problem, slug
from execstate.construct._report import (
    Claims,
    Imported,
    ImportReport,
    Outcome,
    Pending,
    Progress,
    Skipped,
    Target,
    run_import,
)
from execstate.construct._sources import BadRecord, check_counts
from execstate.errors import InputFileError, output_dir
from execstate.languages import program_languages

SAMPLE_PATTERNS: tuple[tuple[str, str], ...] = ((r"(.+)\.in", r"\1.out"), (r"in_(\d+)\.txt", r"out_\1.txt"))
"""(input file pattern, its output file name): ``NAME.in``/``NAME.out`` and ``in_N.txt``/``out_N.txt``."""
_OUTPUTS = (re.compile(r".+\.out"), re.compile(r"out_\d+\.txt"))


def folder_samples(folder: Path) -> list[NewTest]:
    """The samples beside a folder's program, in natural order of their names; ``BadRecord`` if they do not pair up."""
    files = sorted(p.name for p in folder.iterdir() if p.is_file())
    tests: dict[str, NewTest] = {}
    paired: set[str] = set()
    for name in files:
        for pattern, out_pattern in SAMPLE_PATTERNS:
            match = re.fullmatch(pattern, name)
            if match is None:
                continue
            test_name, out = slug(match.group(1)) or "sample", match.expand(out_pattern)
            if test_name in tests:
                raise BadRecord("invalid", f"two samples are named {test_name!r} ({name} and an earlier one)")
            expected = (folder / out).read_bytes() if out in files else None
            tests[test_name] = NewTest(test_name, (folder / name).read_bytes(), expected)
            paired |= {name, out}
    orphans = [n for n in files if any(p.fullmatch(n) for p in _OUTPUTS) and n not in paired]
    if orphans:
        raise BadRecord("invalid", f"{folder / orphans[0]} is an output with no input file beside it")
    if not tests:
        raise BadRecord("invalid", "no samples: expected NAME.in (with NAME.out) or in_N.txt (with out_N.txt)")
    return [tests[n] for n in sorted(tests, key=natural_key)]


@dataclass(frozen=True)
class _Copier:
    target: Target

    def __call__(self, folder: Path, problem_id: str) -> Outcome:
        if is_call_folder(folder):  # solution.py with tests.json: a function-call problem (construct/_calls.py)
            return import_call_folder(self.target, folder, problem_id)
        programs = program_languages()
        found = [n for n in programs if (folder / n).is_file()]
        if len(found) > 1:
            raise BadRecord("invalid", f"{program_files_problem(found)}; keep one")
        name = found[0]
        try:
            program = (folder / name).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise BadRecord("invalid", f"{folder / name} is not UTF-8 text") from None
        tests = folder_samples(folder)
        source = {"dataset": "folder", "folder": str(folder)}
        written = self.target.write(problem_id, program, programs[name], tests, source)
        expected = sum(t.output is not None for t in tests)
        detail = f"{name} with {len(tests)} samples ({expected} with expected output)"
        return Imported(id=problem_id, record=str(folder), path=str(written.path), detail=detail + written.note)


def import_folders(
    dirs: Sequence[Path | str],
    pool: Path | str,
    *,
    study: str | None = None,
    jobs: int = 2,
    overwrite: bool = False,
    keep_crlf: bool = False,
    progress: Progress | None = None,
) -> ImportReport:
    """Import solution folders into ``pool`` (one problem each, id from the folder name); write ``import.json``.

    Each of ``dirs`` is a solution folder, or a directory of them (one level). Samples are written as a
    judge serves them, CRLF line ends as LF (``keep_crlf``: as they are).
    ``InputFileError`` if one of ``dirs`` is not a directory, before anything is written.
    """
    check_counts(jobs=jobs)
    for d in dirs:
        if not Path(d).is_dir():
            programs = " or ".join(program_languages())
            raise InputFileError(f"{d} is not a directory. Fix: pass folders holding {programs} and samples")
    pool = output_dir(pool)
    target = Target(pool, study, overwrite, keep_crlf)
    options: dict[str, Any] = {"study": study, "grading_rule": target.rule}
    options |= {"keep_crlf": True} if keep_crlf else {}
    report = ImportReport(importer="folders", sources=[str(d) for d in dirs], pool=str(pool), options=options)
    copier, claims = _Copier(target), Claims(target)
    return run_import(report, _items([Path(d) for d in dirs], copier, claims), jobs, progress)


def _items(dirs: list[Path], copier: _Copier, claims: Claims) -> Iterator[Outcome | Pending]:
    for folder in _solution_folders(dirs):
        if isinstance(folder, Skipped):
            yield folder
            continue
        problem_id = slug(folder.name)
        refused = claims.claim(str(folder), problem_id)
        yield refused or Pending(str(folder), problem_id, partial(copier, folder, problem_id))


def _solution_folders(dirs: list[Path]) -> Iterator[Path | Skipped]:
    for d in dirs:
        if is_problem_dir(d) or is_call_folder(d):
            yield d
            continue
        subs = sorted((s for s in d.iterdir() if s.is_dir() and not s.name.startswith(".")), key=lambda s: s.name)
        if not subs:
            reason = f"holds no {' or '.join(program_languages())} and no folders"
            yield Skipped(record=str(d), kind="invalid", reason=reason)
        for sub in subs:
            yield (
                sub
                if is_problem_dir(sub) or is_call_folder(sub)
                else Skipped(record=str(sub), kind="invalid", reason=program_files_problem([]))
            )
