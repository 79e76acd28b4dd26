"""Import DeepMind CodeContests records: the first solution of a language that passes all the record's tests.

A record (JSON lines, a JSON list or parquet) has ``name``;
``public_tests``, ``private_tests`` and ``generated_tests`` as ``{"input": [...],
"output": [...]}``; and ``solutions`` as parallel lists ``{"language": [int],
"solution": [str]}`` with the dataset's enum: 2 = CPP, 3 = PYTHON3 (1 is Python
2 and is never taken). Each candidate runs in the sandbox on every test, public
ones first, and its output is compared with the expected one under the study's
grading rule; the first that passes them all is written as the problem.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeGuard

from execstate.builder import BuildOptions
from execstate.construct._pool import NewTest, ProblemLimits, ProvenanceValue, slug
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
from execstate.construct._sources import BadRecord, RawRecord, check_counts, iter_records, str_list, text_field
from execstate.errors import UsageError, one_line, output_dir
from execstate.grade import answer_matches
from execstate.languages import DEFAULT_LANGUAGE, LANGUAGES, Language, language_entry, make_language
from execstate.sandbox import Limits
from execstate.studies import default_grading_rule

ENUM_BY_SUFFIX: dict[str, int] = {".cpp": 2, ".py": 3}
"""CodeContests' ``Language`` enum of the solutions a language's programs are (by the suffix of its program file,
``execstate.languages.LANGUAGES``); 1, Python 2, has no entry: it is never taken."""
ENUM_NAMES = {0: "UNKNOWN_LANGUAGE", 1: "PYTHON", 2: "CPP", 3: "PYTHON3", 4: "JAVA"}
TEST_FIELDS = ("public_tests", "private_tests", "generated_tests")
DEFAULT_STUDY = "codecontests"
DEFAULT_MAX_SOLUTIONS = 50
"""Candidates tried per record before it is skipped as ``no-solution`` (records list up to thousands)."""
DEFAULT_LIMITS = Limits(wall_s=10.0, cpu_s=10.0, memory_mb=2048)
"""Limits of one run of a candidate on one test."""


@dataclass(frozen=True)
class CodeContestsRecord:
    """The fields of one record the importer uses."""

    name: str
    tests: tuple[NewTest, ...]
    """Public, then private, then generated, named ``public-1``, ``private-1``, ``generated-1``, ..."""
    solutions: tuple[tuple[int, str], ...]
    """(language enum, source) in the record's order."""
    source: dict[str, ProvenanceValue]
    """Provenance for ``problem.toml``: name, contest, index, rating, time and memory limits when present."""


def parse_codecontests(record: dict[str, Any]) -> CodeContestsRecord:
    """The usable fields of one record; ``BadRecord`` naming the first field that is missing or malformed."""
    name = text_field(record, "name")
    tests = tuple(t for key in TEST_FIELDS for t in _tests(record, key))
    if not tests:
        raise BadRecord("invalid", f"no tests: {', '.join(TEST_FIELDS)} are all empty or absent")
    solutions = record.get("solutions")
    if not isinstance(solutions, dict):
        raise BadRecord("invalid", "field 'solutions': expected {language: [int], solution: [str]}")
    languages, sources = solutions.get("language"), str_list(solutions.get("solution"), "solutions.solution")
    if not isinstance(languages, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in languages):
        raise BadRecord("invalid", "field 'solutions.language': expected a list of integers")
    if len(languages) != len(sources):
        problem = f"{len(languages)} languages for {len(sources)} solutions (the lists must be parallel)"
        raise BadRecord("invalid", f"field 'solutions': {problem}")
    return CodeContestsRecord(name, tests, tuple(zip(languages, sources)), _provenance(record, name))


def _tests(record: dict[str, Any], key: str) -> list[NewTest]:
    table = record.get(key)
    if table is None:
        return []
    if not isinstance(table, dict):
        raise BadRecord("invalid", f"field {key!r}: expected {{input: [...], output: [...]}}")
    inputs, outputs = str_list(table.get("input"), f"{key}.input"), str_list(table.get("output"), f"{key}.output")
    if len(inputs) != len(outputs):
        raise BadRecord("invalid", f"field {key!r}: {len(inputs)} inputs but {len(outputs)} outputs")
    kind = key.removesuffix("_tests")
    return [NewTest(f"{kind}-{n}", i.encode(), o.encode()) for n, (i, o) in enumerate(zip(inputs, outputs), 1)]


_SANE = 10**15
"""Above this, a ``time_limit`` field of a record is not a time limit (and is left out of the provenance)."""


def _sane(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < _SANE


def _provenance(record: dict[str, Any], name: str) -> dict[str, ProvenanceValue]:
    found: dict[str, ProvenanceValue] = {"dataset": "codecontests", "name": name}
    for key in ("source", "difficulty", "cf_contest_id", "cf_index", "cf_rating", "memory_limit_bytes"):
        value = record.get(key)
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            found[key] = value
    limit = record.get("time_limit")
    if isinstance(limit, dict):
        seconds, nanos = limit.get("seconds"), limit.get("nanos") or 0
        # only a limit a judge could state: a number past float's range would overflow, a string would not add
        if _sane(seconds) and _sane(nanos):
            found["time_limit_s"] = seconds + nanos / 1e9
    return found


def first_failure(lang: Language, source: str, tests: Sequence[NewTest], rule: str, workdir: Path) -> str | None:
    """None if ``source`` passes every test (exit 0, output matching under ``rule``); else the first failure."""
    for test in tests:
        res = lang.run(source, test.input, workdir)
        if not res.ok:
            return f"test {test.name}: {res.describe()}"
        actual = res.stdout.decode("utf-8", "replace")
        if test.output is not None and not answer_matches(rule, actual, test.output.decode("utf-8", "replace")):
            got, want = one_line(actual)[:60], one_line(test.output.decode("utf-8", "replace"))[:60]
            return f"test {test.name}: wrong answer under {rule} (got {got!r}, expected {want!r})"
    return None


@dataclass(frozen=True)
class _Picker:
    """Picks and writes one record's solution; shared by the records of one import."""

    target: Target
    language: str
    max_solutions: int
    limits: Limits

    @property
    def rule(self) -> str:
        return self.target.rule or default_grading_rule("")

    def __call__(self, where: str, problem_id: str, rec: CodeContestsRecord) -> Outcome:
        enum = ENUM_BY_SUFFIX[language_entry(self.language).suffix]
        candidates = [(i, src) for i, (lang, src) in enumerate(rec.solutions) if lang == enum]
        if not candidates:
            counts = Counter(ENUM_NAMES.get(lang, str(lang)) for lang, _ in rec.solutions)
            have = ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "none"
            reason = f"no {ENUM_NAMES[enum]} solution (solutions by language: {have})"
            return Skipped(record=where, id=problem_id, kind="no-solution", reason=reason)
        lang = make_language(self.language, BuildOptions(limits=self.limits))
        failures: list[str] = []
        tests, _ = self.target.served(rec.tests)  # as a judge serves them, which the pool then holds
        with tempfile.TemporaryDirectory(prefix="execstate-import-", ignore_cleanup_errors=True) as work:
            for n, (index, src) in enumerate(candidates[: self.max_solutions], 1):
                failure = first_failure(lang, src, tests, self.rule, Path(work))
                if failure is None:
                    detail = f"{ENUM_NAMES[enum]} solution {n} of {len(candidates)} (solutions[{index}])"
                    return self._write(where, problem_id, rec, index, f"{detail} passes all {len(rec.tests)} tests")
                failures.append(f"solutions[{index}]: {failure}")
        first = "the first " if len(failures) < len(candidates) else ""
        reason = (
            f"none of {first}{len(failures)} of {len(candidates)} {ENUM_NAMES[enum]} solutions passes all "
            f"{len(rec.tests)} tests; first failure: {failures[0]}"
        )
        return Skipped(record=where, id=problem_id, kind="no-solution", reason=reason)

    def _write(self, where: str, problem_id: str, rec: CodeContestsRecord, index: int, detail: str) -> Imported:
        limits = ProblemLimits(self.limits.wall_s, self.limits.memory_mb)
        source = {**rec.source, "solution_index": index}
        written = self.target.write(problem_id, rec.solutions[index][1], self.language, rec.tests, source, limits)
        return Imported(id=problem_id, record=where, path=str(written.path), detail=detail + written.note)


def import_codecontests(
    records: Path | str,
    pool: Path | str,
    *,
    language: str = DEFAULT_LANGUAGE,
    study: str = DEFAULT_STUDY,
    limit: int | None = None,
    max_solutions: int = DEFAULT_MAX_SOLUTIONS,
    limits: Limits = DEFAULT_LIMITS,
    jobs: int = 2,
    overwrite: bool = False,
    keep_crlf: bool = False,
    progress: Progress | None = None,
) -> ImportReport:
    """Import the first ``limit`` records (all if None) of a CodeContests file into ``pool``; write ``import.json``.

    Each record becomes ``pool/<slug of name>`` with the first ``language`` solution
    (of at most ``max_solutions`` tried) that passes all its tests under ``limits``,
    or a ``Skipped`` entry with the reason. ``jobs`` records are checked at a time.
    Tests are run and written as a judge serves them, CRLF line ends as LF (``keep_crlf``: as they are).
    Never raises for one record; raises ``UsageError``/``InputFileError``/``RecordError``
    for bad options or an unreadable file, before anything is written.
    """
    if language_entry(language, option="language").suffix not in ENUM_BY_SUFFIX:
        importable = [name for name in LANGUAGES if language_entry(name).suffix in ENUM_BY_SUFFIX]
        raise UsageError(
            f"language {language!r} is not importable from CodeContests. Fix: use {' or '.join(importable)}"
        )
    check_counts(jobs=jobs, max_solutions=max_solutions, limit=limit)
    found = iter_records(records, limit)
    pool = output_dir(pool)
    target = Target(pool, study, overwrite, keep_crlf)
    picker = _Picker(target, language, max_solutions, limits)
    options: dict[str, Any] = {"language": language, "study": study, "grading_rule": picker.rule, "limit": limit}
    options |= {"max_solutions": max_solutions, "limits": asdict(limits)}
    options |= {"keep_crlf": True} if keep_crlf else {}
    report = ImportReport(importer="codecontests", sources=[str(records)], pool=str(pool), options=options)
    return run_import(report, _items(found, picker, Claims(target)), jobs, progress)


def _items(found: Iterator[RawRecord], picker: _Picker, claims: Claims) -> Iterator[Outcome | Pending]:
    for raw in found:
        if raw.value is None:
            yield Skipped(record=raw.where, kind="invalid", reason=str(raw.problem))
            continue
        try:
            rec = parse_codecontests(raw.value)
        except BadRecord as exc:
            yield Skipped(record=raw.where, kind=exc.kind, reason=exc.reason)
            continue
        problem_id = slug(rec.name)
        refused = claims.claim(raw.where, problem_id)
        yield refused or Pending(raw.where, problem_id, partial(picker, raw.where, problem_id, rec))
