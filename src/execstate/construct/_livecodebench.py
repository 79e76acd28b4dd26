"""Import LiveCodeBench ``code_generation_lite`` records, with programs from an evaluation-output file.

A record has ``question_id``, ``platform``, ``difficulty``, ``public_test_cases``
(a JSON string of ``[{"input", "output", "testtype"}]``) and
``private_test_cases``: either that JSON, or base64 of zlib of a pickle that
holds the JSON string. The pickle is read by an unpickler that refuses every
global, so a pickle that names one (``os.system``, ...) is a ``refused`` record
and nothing it names is ever called. A problem whose tests are ``functional``
(LeetCode's: a ``func_name`` to call) is made a stdin problem with a visible
driver (``_calls.py``). LiveCodeBench ships no solutions: the program is the
first code whose grade is true in a solutions file of LiveCodeBench's own
evaluation output, a JSON list of ``{"question_id", "code_list", "graded_list"}``.
"""

from __future__ import annotations

import base64
import io
import json
import pickle
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

from execstate.construct._calls import CALL_RULE, lcb_call_problem
from execstate.construct._pool import NewTest, ProvenanceValue, slug
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
from execstate.construct._sources import BadRecord, RawRecord, check_counts, iter_records, json_problem, text_field
from execstate.errors import RecordError, UsageError, one_line, output_dir, require_file
from execstate.languages import DEFAULT_LANGUAGE, language_entry

DIFFICULTIES = ("easy", "medium", "hard")
MAX_PRIVATE_BYTES = 1 << 30
"""Largest decompressed private-test pickle accepted (1 GiB); a larger one is an ``invalid`` record."""


class RefusedGlobal(pickle.UnpicklingError):
    """A pickle named a global (a class or function); it is never looked up, let alone called."""


class _NoGlobals(pickle.Unpickler):
    """An unpickler for plain data: strings, numbers, lists, dicts; any global is refused."""

    def find_class(self, module: str, name: str) -> Any:
        raise RefusedGlobal(f"the pickle names the global {module}.{name}; only plain data is accepted")


def unpickle_plain(data: bytes) -> object:
    """The plain value pickled in ``data``; ``RefusedGlobal`` if it names any global, ``UnpicklingError`` if broken."""
    return _NoGlobals(io.BytesIO(data)).load()


def decode_test_cases(text: object, field: str) -> list[NewTest] | None:
    """The stdin tests of a ``public_test_cases``/``private_test_cases`` value, named ``<public|private>-N``.

    None when a test is not ``stdin`` (a LeetCode-style function test: ``_calls.py`` makes those). A value that
    is neither JSON nor base64-zlib-pickle, or malformed tests: ``BadRecord``
    (``refused`` when the pickle names a global).
    """
    cases = _cases(text, field)
    if not isinstance(cases, list):
        raise BadRecord("invalid", f"field {field!r}: expected a JSON list of tests, got {type(cases).__name__}")
    kind = field.removesuffix("_test_cases")
    tests: list[NewTest] = []
    for n, case in enumerate(cases, 1):
        if not isinstance(case, dict) or not all(isinstance(case.get(k), str) for k in ("input", "output", "testtype")):
            raise BadRecord("invalid", f"field {field!r}: test {n} is not {{input, output, testtype}} strings")
        if case["testtype"] != "stdin":
            return None
        tests.append(NewTest(f"{kind}-{n}", case["input"].encode(), case["output"].encode()))
    return tests


def _cases(text: object, field: str) -> object:
    if isinstance(text, list):  # already decoded (a converted copy of the dataset)
        return text
    if not isinstance(text, str):
        raise BadRecord("invalid", f"field {field!r}: expected a string, got {type(text).__name__}")
    if not text.strip():
        return []
    try:
        return json.loads(text)
    except ValueError as exc:
        if "integer string conversion" in str(exc):  # JSON, with a number of more than 4,300 digits
            raise BadRecord("invalid", f"field {field!r}: {json_problem(exc)}") from None
    try:
        data = _inflate(base64.b64decode(text.strip(), validate=True))
        held = unpickle_plain(data)
    except RefusedGlobal as exc:
        raise BadRecord("refused", f"field {field!r}: {exc}") from None
    except Exception as exc:  # any failure to decode untrusted bytes makes the record invalid, nothing more
        problem = f"neither JSON nor base64 of zlib of a pickle ({type(exc).__name__}: {one_line(str(exc))})"
        raise BadRecord("invalid", f"field {field!r}: {problem}") from None
    if not isinstance(held, str | bytes):
        raise BadRecord("invalid", f"field {field!r}: the pickle holds a {type(held).__name__}, not a JSON string")
    try:
        return json.loads(held)
    except ValueError as exc:
        raise BadRecord("invalid", f"field {field!r}: the pickled text: {json_problem(exc)}") from None


def _inflate(data: bytes) -> bytes:
    inflater = zlib.decompressobj()
    out = inflater.decompress(data, MAX_PRIVATE_BYTES)
    if inflater.unconsumed_tail:
        raise ValueError(f"it inflates to more than {MAX_PRIVATE_BYTES} bytes")
    return out


class Solution(NamedTuple):
    """The program taken for one question: the first code whose grade is true."""

    code: str
    position: int
    """Its index in ``code_list``."""
    where: str
    """The solutions-file entry it came from (``FILE[INDEX]``)."""


def load_solutions(path: Path | str) -> tuple[dict[str, Solution | str], list[Skipped]]:
    """Each question id of an evaluation-output file -> its first passing code, or why there is none.

    Entries that are not ``{question_id, code_list, graded_list}`` are returned as
    ``Skipped``; a second entry for an id is a ``duplicate``. The file must be a
    JSON list (``RecordError`` otherwise).
    """
    path = require_file(path, "solutions file", "pass LiveCodeBench's evaluation output (a JSON list)")
    try:
        entries = json.loads(path.read_bytes())
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise RecordError(f"{path}: {json_problem(exc)}. Fix: pass LiveCodeBench's evaluation output file") from None
    if not isinstance(entries, list):
        raise RecordError(f"{path}: expected a JSON list of {{question_id, code_list, graded_list}}. Fix: see docs")
    found: dict[str, Solution | str] = {}
    skipped: list[Skipped] = []
    for index, entry in enumerate(entries):
        where = f"{path}[{index}]"
        try:
            qid, solution = _solution(entry, where)
        except BadRecord as exc:
            skipped.append(Skipped(record=where, kind=exc.kind, reason=exc.reason))
            continue
        if qid in found:
            reason = f"a second entry for question {qid!r}; the first one is used"
            skipped.append(Skipped(record=where, id=slug(qid), kind="duplicate", reason=reason))
        else:
            found[qid] = solution
    return found, skipped


def _solution(entry: object, where: str) -> tuple[str, Solution | str]:
    if not isinstance(entry, dict):
        raise BadRecord("invalid", f"expected a JSON object, got {type(entry).__name__}")
    qid = text_field(entry, "question_id")
    codes, grades = entry.get("code_list"), entry.get("graded_list")
    if not isinstance(codes, list) or not isinstance(grades, list):
        raise BadRecord("invalid", "fields 'code_list' and 'graded_list': expected two parallel lists")
    for index, (code, grade) in enumerate(zip(codes, grades)):
        if grade is True and isinstance(code, str) and code.strip():
            return qid, Solution(code, index, where)
    return qid, f"no code with grade true among {len(codes)} in {where}"


@dataclass(frozen=True)
class _Writer:
    target: Target
    language: str

    def __call__(self, where: str, problem_id: str, record: dict[str, Any], solution: Solution) -> Outcome:
        raw = {k: _cases(record.get(f"{k}_test_cases", "[]"), f"{k}_test_cases") for k in ("public", "private")}
        public = decode_test_cases(raw["public"], "public_test_cases")
        private = decode_test_cases(raw["private"], "private_test_cases")
        program, rule, call = solution.code, None, None
        if public is None or private is None:  # a function-call problem gets a driver (construct/_calls.py)
            call = lcb_call_problem(record, solution.code, raw, self.language)
            program, rule = call.program, CALL_RULE
            public, private = ([t for t in call.tests if t.name.startswith(k)] for k in ("public-", "private-"))
        if not public + private:
            return Skipped(record=where, id=problem_id, kind="invalid", reason="no tests")
        source: dict[str, ProvenanceValue] = {
            "dataset": "livecodebench",
            "question_id": text_field(record, "question_id"),
        }
        source |= {k: record[k] for k in ("platform", "difficulty", "contest_id", "contest_date") if _scalar(record, k)}
        source |= {"solutions": solution.where, "code_index": solution.position}
        source |= {"call": call.target.call} if call is not None else {}
        written = self.target.write(problem_id, program, self.language, public + private, source, rule=rule)
        detail = f"code {solution.position} of {solution.where}; {len(public)} public and {len(private)} private tests"
        detail += f"; driven as {call.target.call}" if call is not None else ""
        return Imported(id=problem_id, record=where, path=str(written.path), detail=detail + written.note)


def _scalar(record: dict[str, Any], key: str) -> bool:
    return isinstance(record.get(key), str | int | float) and not isinstance(record.get(key), bool)


def import_livecodebench(
    records: Path | str,
    solutions: Path | str,
    pool: Path | str,
    *,
    language: str = DEFAULT_LANGUAGE,
    study: str | None = None,
    difficulty: str | None = None,
    limit: int | None = None,
    jobs: int = 2,
    overwrite: bool = False,
    keep_crlf: bool = False,
    progress: Progress | None = None,
) -> ImportReport:
    """Import the first ``limit`` LiveCodeBench records (all if None) into ``pool``; write ``import.json``.

    ``language`` is the language of the solutions file's code (LiveCodeBench does
    not say); ``study`` defaults to ``lcb_<language>``; ``difficulty`` keeps only
    records of that difficulty (the others are ``filtered``). Programs are not
    run here: a solutions file's grade is LiveCodeBench's own verdict, and the
    constructor checks every program against its tests again. Tests are written as a judge serves them,
    CRLF line ends as LF (``keep_crlf``: as they are).
    """
    language_entry(language, option="language")
    if difficulty is not None and difficulty not in DIFFICULTIES:
        raise UsageError(f"difficulty {difficulty!r} is unknown. Fix: use one of {', '.join(DIFFICULTIES)}")
    check_counts(jobs=jobs, limit=limit)
    found = iter_records(records, limit)
    programs, bad_entries = load_solutions(solutions)
    pool = output_dir(pool)
    study = study or f"lcb_{language}"
    target = Target(pool, study, overwrite, keep_crlf)
    writer = _Writer(target, language)
    options: dict[str, Any] = {"language": language, "study": study, "grading_rule": target.rule}
    options |= {"difficulty": difficulty, "limit": limit}
    options |= {"keep_crlf": True} if keep_crlf else {}
    report = ImportReport(
        importer="livecodebench", sources=[str(records), str(solutions)], pool=str(pool), options=options
    )
    items = _items(found, programs, difficulty, writer, Claims(target))
    return run_import(report, [*bad_entries, *items] if bad_entries else items, jobs, progress)


def _items(
    found: Iterator[RawRecord],
    programs: dict[str, Solution | str],
    difficulty: str | None,
    writer: _Writer,
    claims: Claims,
) -> Iterator[Outcome | Pending]:
    for raw in found:
        if raw.value is None:
            yield Skipped(record=raw.where, kind="invalid", reason=str(raw.problem))
            continue
        try:
            yield _item(raw.where, raw.value, programs, difficulty, writer, claims)
        except BadRecord as exc:
            yield Skipped(record=raw.where, kind=exc.kind, reason=exc.reason)


def _item(
    where: str,
    record: dict[str, Any],
    programs: dict[str, Solution | str],
    difficulty: str | None,
    writer: _Writer,
    claims: Claims,
) -> Outcome | Pending:
    qid = text_field(record, "question_id")
    level = text_field(record, "difficulty")
    text_field(record, "platform")
    problem_id = slug(qid)
    if difficulty is not None and level != difficulty:
        return Skipped(record=where, id=problem_id, kind="filtered", reason=f"difficulty {level!r}, not {difficulty!r}")
    solution = programs.get(qid, "the solutions file has no entry for it")
    if isinstance(solution, str):
        return Skipped(record=where, id=problem_id, kind="no-solution", reason=solution)
    refused = claims.claim(where, problem_id)
    return refused or Pending(where, problem_id, partial(writer, where, problem_id, record, solution))
