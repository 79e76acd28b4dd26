"""The view cache: one run folder's records loaded into DuckDB once, in ``RUN/.execstate-view.duckdb``.

The cache holds five tables (``CACHE_VERSION`` names their layout):

- ``cells``: one row per graded cell (task x setting x sample, the lines of ``grades.jsonl``; ``cell`` is the
  line's 0-based index), stored in the list's default order (``ord``: the tasks file's order, then setting, then
  sample), with the columns the list filters and sorts on: study, arm, kind (``records.task_kind``), language,
  case, setting, sample, the grade's status and its group (``right``, ``wrong``, ``no-response``,
  ``seed-dependent``), the error taxonomy's class of a wrong answer (``execstate.analyze.taxonomy``), the trace
  length and its band (``BANDS``), latency and tokens;
- ``tasks``: one row per task with its JSON line; ``details``: each cell's grade and response lines;
- ``traces``: true traces recorded on demand (``execstate.view.true_trace``), by task;
- ``source``: what the cache was built from (each record file's size, mtime and SHA-256) and the cache's version.

``open_cache`` rebuilds the cache when a record file's size or mtime changed and its hash differs (a file only
touched keeps its cache), or when the cache was written by another layout version. A rebuild writes a temporary
file beside the cache and renames it over, so a reader never sees half a cache.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from execstate.errors import InputFileError
from execstate.records import Grade, Task, task_kind
from execstate.view._folders import RunFolder

CACHE_VERSION = 1
"""The layout of the cache's tables; a cache of another version is rebuilt."""
BANDS: tuple[tuple[str, int, int], ...] = (
    ("<100", 0, 100),
    ("100-1k", 100, 1_000),
    ("1k-10k", 1_000, 10_000),
    ("10k-100k", 10_000, 100_000),
    (">=100k", 100_000, 2**63 - 1),
)
"""Trace-length bands of the list's filter: (name, low inclusive, high exclusive) of ``Task.metrics.trace_length``;
a task without a measured trace is in band ``unmeasured``."""
ANSWER_PREVIEW = 160
"""Characters of an answer the list shows (the cell view shows all of it)."""


def trace_band(length: int | None) -> str:
    """The band (``BANDS``) of a trace length; ``unmeasured`` for None."""
    if length is None:
        return "unmeasured"
    return next(name for name, low, high in BANDS if low <= length < high)


def grade_group(status: str, reason: str | None) -> str:
    """The list's grade filter value: ``right``, ``wrong``, ``no-response`` or ``seed-dependent`` (a wrong
    executed answer whose verdict differed across the grading seeds, docs/grade.md)."""
    if status.startswith("correct"):
        return "right"
    if status == "no-response":
        return "no-response"
    return "seed-dependent" if (reason or "").startswith("seed-dependent") else "wrong"


def _signature(folder: RunFolder, known: dict[str, Any] | None) -> dict[str, Any]:
    """Each record file's size, mtime and SHA-256; the hash is reused from ``known`` when size and mtime agree."""
    files = []
    previous = {f["path"]: f for f in (known or {}).get("files", [])}
    for path in folder.sources:
        stat = path.stat()
        old = previous.get(str(path))
        if old and old["size"] == stat.st_size and old["mtime_ns"] == stat.st_mtime_ns:
            sha = old["sha256"]
        else:
            with open(path, "rb") as fh:
                sha = hashlib.file_digest(fh, "sha256").hexdigest()
        files.append({"path": str(path), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "sha256": sha})
    return {"version": CACHE_VERSION, "files": files}


def _same_records(a: dict[str, Any], b: dict[str, Any]) -> bool:
    strip = lambda s: [(f["path"], f["sha256"]) for f in s.get("files", [])]
    return a.get("version") == b.get("version") and strip(a) == strip(b)


def _stored_signature(path: Path) -> dict[str, Any] | None:
    import duckdb

    if not path.is_file():
        return None
    try:
        con = duckdb.connect(str(path), read_only=True)
    except duckdb.Error:
        return None  # not a cache this version can read: rebuilt
    try:
        row = con.execute("SELECT signature FROM source").fetchone()
    except duckdb.Error:
        return None
    finally:
        con.close()
    return json.loads(row[0]) if row else None


def open_cache(folder: RunFolder, *, log: Any = None) -> tuple[Path, bool]:
    """Make ``folder``'s cache current; return (its path, whether it was (re)built).

    The traces recorded in an outdated cache are dropped with it (they belong to the old tasks)."""
    stored = _stored_signature(folder.cache)
    current = _signature(folder, stored)
    if stored is not None and _same_records(stored, current):
        if stored != current:  # touched, not changed: remember the new size and mtime
            _write_signature(folder.cache, current)
        return folder.cache, False
    if log:
        log(f"loading {folder.root} into its view cache {folder.cache.name}")
    _build(folder, current)
    return folder.cache, True


def _write_signature(path: Path, signature: dict[str, Any]) -> None:
    import duckdb

    con = duckdb.connect(str(path))
    try:
        con.execute("UPDATE source SET signature = ?", [json.dumps(signature)])
    finally:
        con.close()


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if line.strip():
                yield number, line.rstrip("\n")


def _read_tasks(folder: RunFolder) -> dict[str, tuple[Task, str, int]]:
    tasks: dict[str, tuple[Task, str, int]] = {}
    for number, line in _lines(folder.tasks):
        try:
            task = Task.model_validate_json(line)
        except ValueError as exc:
            raise InputFileError(f"{folder.tasks}:{number}: not a task line ({str(exc).splitlines()[0]}). "
                                 "Fix: pass the tasks.jsonl `execstate build` wrote") from None  # fmt: skip
        tasks.setdefault(task.task_id, (task, line, len(tasks)))
    return tasks


def _response_lines(folder: RunFolder) -> list[str]:
    """The response lines, each checked to be a JSON object naming its cell (DuckDB reads their fields)."""
    lines = []
    for number, line in _lines(folder.responses):
        head = line[:1]
        if head != "{" or '"task_id"' not in line or '"setting"' not in line:
            raise InputFileError(f"{folder.responses}:{number}: not a response line. "
                                 "Fix: pass the responses.jsonl `execstate run` wrote")  # fmt: skip
        lines.append(line)
    return lines


_RESPONSES_SQL = """
CREATE TEMP TABLE responses AS
SELECT j->>'task_id' AS task_id, j->>'setting' AS setting, coalesce(CAST(j->>'sample' AS BIGINT), 0) AS sample,
       CAST(j->>'latency_s' AS DOUBLE) AS latency_s, CAST(j->'usage'->>'prompt_tokens' AS BIGINT) AS prompt_tokens,
       CAST(j->'usage'->>'completion_tokens' AS BIGINT) AS completion_tokens,
       coalesce(CAST(j->>'cached' AS BOOLEAN), false) AS cached, (j->>'batch_id') IS NOT NULL AS batch, line
FROM (SELECT CAST(line AS JSON) AS j, line, n FROM response_arrow)
QUALIFY row_number() OVER (PARTITION BY task_id, setting, sample ORDER BY n DESC) = 1
"""
"""The responses' list columns, parsed by DuckDB (a cell answered twice: its last line, as ``read_jsonl`` readers
keep it)."""


def _classes(tasks: dict[str, tuple[Task, str, int]], grades: list[Grade]) -> dict[tuple[str, str, int], str]:
    """The error taxonomy's class of every wrong cell, by (task, setting, sample); each distinct wrong answer to a
    task is classified once (``execstate.analyze.taxonomy``: the same answer always gets the same class)."""
    from execstate.analyze import taxonomy

    wrong = ("wrong-valid", "wrong-invalid")
    distinct: dict[tuple[str, str | None], Grade] = {}
    for g in grades:
        if g.status in wrong and g.task_id in tasks:
            distinct.setdefault((g.task_id, g.answer), g)
    verdicts = taxonomy([t for t, _, _ in tasks.values()], list(distinct.values())).cells
    by_answer = {key: verdict["class"] for key, verdict in zip(distinct, verdicts, strict=True)}
    return {(g.task_id, g.setting, g.sample): by_answer[(g.task_id, g.answer)]
            for g in grades if g.status in wrong and g.task_id in tasks}  # fmt: skip


def _build(folder: RunFolder, signature: dict[str, Any]) -> None:
    import duckdb
    import pyarrow as pa

    tasks = _read_tasks(folder)
    response_lines = _response_lines(folder)
    grades: list[Grade] = []
    grade_lines: list[str] = []
    for number, line in _lines(folder.grades):
        try:
            grades.append(Grade.model_validate_json(line))
        except ValueError as exc:
            raise InputFileError(f"{folder.grades}:{number}: not a grade line ({str(exc).splitlines()[0]}). "
                                 "Fix: pass the grades.jsonl `execstate grade` wrote") from None  # fmt: skip
        grade_lines.append(line)
    classes = _classes(tasks, grades)
    kinds = {tid: task_kind(t) for tid, (t, _, _) in tasks.items()}
    types = _arrow_types()
    cols: dict[str, list[Any]] = {k: [] for k in types}
    details: dict[str, list[Any]] = {"cell": [], "grade": []}
    for index, (g, line) in enumerate(zip(grades, grade_lines, strict=True)):
        known = tasks.get(g.task_id)
        if known is None:
            continue  # a grade of a task not in the tasks file (the report leaves these out too)
        task = known[0]
        values = {
            "cell": index,
            "task_id": g.task_id,
            "task_ord": known[2],
            "case_id": task.case_id,
            "study": task.study,
            "arm": task.arm,
            "kind": kinds[g.task_id],
            "language": task.language,
            "setting": g.setting,
            "sample": g.sample,
            "status": g.status,
            "grade": grade_group(g.status, g.reason),
            "category": classes.get((g.task_id, g.setting, g.sample), ""),
            "trace_length": task.metrics.trace_length,
            "band": trace_band(task.metrics.trace_length),
            "answer": (g.answer or "")[:ANSWER_PREVIEW],
        }
        for key, value in values.items():
            cols[key].append(value)
        details["cell"].append(index)
        details["grade"].append(line)
    order = sorted(range(len(cols["cell"])), key=lambda i: (cols["task_ord"][i], cols["setting"][i], cols["sample"][i]))
    cols["ord"] = [0] * len(order)
    for rank, i in enumerate(order):
        cols["ord"][i] = rank
    task_cols: dict[str, list[Any]] = {"task_id": [], "case_id": [], "line": []}
    for tid, (task, line, _) in tasks.items():
        task_cols["task_id"].append(tid)
        task_cols["case_id"].append(task.case_id)
        task_cols["line"].append(line)
    tmp = folder.cache.with_name(folder.cache.name + ".tmp")
    tmp.unlink(missing_ok=True)
    con = duckdb.connect(str(tmp))
    try:
        grades_arrow = pa.table({k: pa.array(v, type=types[k]) for k, v in cols.items()})  # noqa: F841
        details_arrow = pa.table(details)  # noqa: F841
        tasks_arrow = pa.table(task_cols)  # noqa: F841
        response_arrow = pa.table({"line": response_lines, "n": range(len(response_lines))})  # noqa: F841
        try:
            con.execute(_RESPONSES_SQL)
        except duckdb.Error as exc:
            raise InputFileError(f"{folder.responses}: a line is not a JSON response ({str(exc).splitlines()[0]}). "
                                 "Fix: pass the responses.jsonl `execstate run` wrote") from None  # fmt: skip
        key = "USING (task_id, setting, sample)"
        con.execute(
            "CREATE TABLE cells AS SELECT g.*, r.latency_s, r.prompt_tokens, r.completion_tokens, "
            f"coalesce(r.cached, false) AS cached, coalesce(r.batch, false) AS batch FROM grades_arrow g "
            f"LEFT JOIN responses r {key} ORDER BY ord"
        )
        con.execute(
            "CREATE TABLE details AS SELECT d.cell, d.grade, r.line AS response FROM details_arrow d "
            f"JOIN grades_arrow g USING (cell) LEFT JOIN responses r {key} ORDER BY d.cell"
        )
        con.execute("CREATE TABLE tasks AS SELECT * FROM tasks_arrow")
        con.execute("CREATE TABLE traces (task_id VARCHAR PRIMARY KEY, trace VARCHAR)")
        con.execute("CREATE TABLE source (signature VARCHAR)")
        con.execute("INSERT INTO source VALUES (?)", [json.dumps(signature)])
        con.execute("CHECKPOINT")
    finally:
        con.close()
    os.replace(tmp, folder.cache)


def _arrow_types() -> dict[str, Any]:
    import pyarrow as pa

    text, integer = pa.string(), pa.int64()
    return {
        "cell": integer, "task_id": text, "task_ord": integer, "case_id": text, "study": text, "arm": text,
        "kind": text, "language": text, "setting": text, "sample": integer, "status": text, "grade": text,
        "category": text, "trace_length": integer, "band": text, "answer": text, "ord": integer,
    }  # fmt: skip
