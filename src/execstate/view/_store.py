"""The viewer's query engine: every run folder's cache attached to one DuckDB connection, queried with bound
parameters only.

A request's filters become ``WHERE column = ?`` clauses over a fixed set of columns (``FACETS``) and its sort one of
the fixed orders of ``SORTS``; a value from a request is never put into the SQL text, only bound. The list gets one
page of rows per query (``page``), the counts one ``GROUP BY`` per facet with every other filter applied
(``counts``).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from execstate.errors import UsageError
from execstate.view._cache import open_cache
from execstate.view._folders import RunFolder

FACETS: tuple[str, ...] = ("run", "study", "arm", "kind", "language", "setting", "grade", "category", "band")
"""The list's filters, each a column of ``cells`` compared for equality; ``case`` (a substring of the case id)
comes on top."""
SORTS: dict[str, str] = {
    "task": "run, ord",
    "trace": "trace_length NULLS LAST, run, ord",
    "trace-desc": "trace_length DESC NULLS LAST, run, ord",
    "latency": "latency_s DESC NULLS LAST, run, ord",
    "setting": "setting, run, ord",
    "status": "status, run, ord",
}
"""The list's orders by name; the first is the default (``ord``: the tasks file's order, then setting, sample)."""
PAGE_SIZE = 50
"""Rows per page of the list, unless the request asks another size (at most ``MAX_PAGE``)."""
MAX_PAGE = 500
LIST_COLUMNS = (
    "run", "cell", "task_id", "case_id", "study", "arm", "kind", "setting", "sample", "status", "grade", "category",
    "trace_length", "band", "latency_s", "answer",
)  # fmt: skip
"""The columns of a list row."""


class ViewStore:
    """The run folders' caches, attached read-write (for recorded traces) to one in-memory DuckDB connection.

    Safe to share between threads: each call runs on its own cursor. ``close`` detaches every cache."""

    def __init__(self, folders: Sequence[RunFolder], *, log: Any = None) -> None:
        import duckdb

        if not folders:
            raise UsageError("no run folder to view. Fix: pass at least one pipeline output or graded run folder")
        self.folders = list(folders)
        self.built = [open_cache(f, log=log)[1] for f in self.folders]
        self._con = duckdb.connect()
        self._lock = threading.Lock()
        for i, folder in enumerate(self.folders):
            self._con.execute(f"ATTACH ? AS r{i}", [str(folder.cache)])  # i is an int: the alias is ours
        union = " UNION ALL ".join(f"SELECT {i} AS run, * FROM r{i}.cells" for i in range(len(self.folders)))
        self._con.execute(f"CREATE VIEW memory.main.cells AS {union}")

    def close(self) -> None:
        """Detach the caches (checkpointed, so nothing but the cache file stays in a run folder)."""
        with self._lock:
            for i in range(len(self.folders)):
                self._con.execute(f"DETACH r{i}")
            self._con.close()

    def _cursor(self) -> Any:
        with self._lock:
            return self._con.cursor()

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        cur = self._cursor()
        try:
            result = cur.execute(sql, list(params))
            names = [d[0] for d in result.description]
            return [dict(zip(names, row, strict=True)) for row in result.fetchall()]
        finally:
            cur.close()

    def facets(self) -> dict[str, list[str]]:
        """Every value of every facet, sorted (the filter menus), plus ``runs``: the run folders' names."""
        out: dict[str, list[Any]] = {"runs": [f.name for f in self.folders]}
        for facet in FACETS:
            rows = self._rows(f"SELECT DISTINCT {facet} AS v FROM cells ORDER BY v")
            out[facet] = [r["v"] for r in rows]
        return out

    @staticmethod
    def _where(filters: Mapping[str, str], skip: str | None = None) -> tuple[str, list[Any]]:
        clauses, params = [], []
        for facet in FACETS:
            value = filters.get(facet)
            if facet == skip or value in (None, ""):
                continue
            clauses.append(f"{facet} = ?")
            params.append(int(value) if facet == "run" else value)
        case = filters.get("case")
        if case:
            clauses.append("contains(case_id, ?)")
            params.append(case)
        return (" WHERE " + " AND ".join(clauses)) if clauses else "", params

    def page(self, filters: Mapping[str, str], sort: str = "task", offset: int = 0, limit: int = PAGE_SIZE,
             total: int | None = None) -> dict:  # fmt: skip
        """One page of the filtered list: ``{"total", "offset", "rows"}`` (rows of ``LIST_COLUMNS``); ``total``:
        the filtered count when the caller has it (``counts``' ``_total``), else counted here."""
        if sort not in SORTS:
            raise UsageError(f"unknown sort {sort!r}. Fix: use one of {', '.join(SORTS)}")
        limit = max(1, min(int(limit), MAX_PAGE))
        offset = max(0, int(offset))
        where, params = self._where(filters)
        order = SORTS[sort]
        rows = self._rows(  # the page's keys first (narrow: a top-N over two integers), then its rows
            f"SELECT {', '.join(LIST_COLUMNS)} FROM cells JOIN (SELECT run, ord FROM cells{where} ORDER BY {order} "
            f"LIMIT ? OFFSET ?) USING (run, ord) ORDER BY {order}",
            [*params, limit, offset],
        )
        if total is None:
            total = self._rows(f"SELECT count(*) AS n FROM cells{where}", params)[0]["n"]
        return {"total": total, "offset": offset, "rows": rows}

    def counts(self, filters: Mapping[str, str]) -> dict[str, dict[str, int]]:
        """For each facet, how many cells each of its values holds with every other filter applied, and under
        ``"_total"`` (key ``""``) how many pass every filter: one statement, one ``GROUP BY`` per facet."""
        parts, params = [], []
        for facet in FACETS:
            where, bound = self._where(filters, skip=facet)
            parts.append(
                f"SELECT '{facet}' AS f, CAST({facet} AS VARCHAR) AS v, count(*) AS n FROM cells{where} GROUP BY v"
            )
            params += bound
        where, bound = self._where(filters)
        parts.append(f"SELECT '_total' AS f, '' AS v, count(*) AS n FROM cells{where}")
        params += bound
        out: dict[str, dict[str, int]] = {facet: {} for facet in (*FACETS, "_total")}
        for row in self._rows(" UNION ALL ".join(parts), params):
            out[row["f"]][row["v"]] = row["n"]
        return out

    def _check_run(self, run: int) -> str:
        if not 0 <= run < len(self.folders):
            raise UsageError(f"no run {run}. Fix: use a run number below {len(self.folders)}")
        return f"r{run}"

    def cell_lines(self, run: int, cell: int) -> dict[str, Any] | None:
        """A cell's list row with its task, grade and response lines (None: no such cell)."""
        db = self._check_run(run)
        rows = self._rows(
            f"SELECT c.*, d.grade AS grade_line, d.response AS response_line, t.line AS task_line "
            f"FROM {db}.cells c JOIN {db}.details d USING (cell) JOIN {db}.tasks t USING (task_id) WHERE c.cell = ?",
            [int(cell)],
        )
        return {**rows[0], "run": run} if rows else None

    def task_cells(self, run: int, case_ids: Sequence[str]) -> list[dict[str, Any]]:
        """Every cell of these cases in one run (a task's other settings and samples, its case's other arms)."""
        db = self._check_run(run)
        return self._rows(
            f"SELECT cell, task_id, case_id, arm, setting, sample, status, grade FROM {db}.cells "
            "WHERE list_contains(?, case_id) ORDER BY task_ord, setting, sample",
            [list(case_ids)],
        )

    def task_line(self, run: int, task_id: str) -> str | None:
        """A task's JSON line (None: not in that run)."""
        db = self._check_run(run)
        rows = self._rows(f"SELECT line FROM {db}.tasks WHERE task_id = ?", [task_id])
        return rows[0]["line"] if rows else None

    def trace(self, run: int, task_id: str) -> dict[str, Any] | None:
        """The true trace recorded for a task of run ``run``, None when none was recorded yet."""
        db = self._check_run(run)
        rows = self._rows(f"SELECT trace FROM {db}.traces WHERE task_id = ?", [task_id])
        return json.loads(rows[0]["trace"]) if rows else None

    def store_trace(self, run: int, task_id: str, trace: Mapping[str, Any]) -> None:
        """Keep a recorded true trace in the run's cache (a second recording of the same task replaces it)."""
        db = self._check_run(run)
        cur = self._cursor()
        try:
            cur.execute(f"INSERT OR REPLACE INTO {db}.traces VALUES (?, ?)", [task_id, json.dumps(trace)])
        finally:
            cur.close()

    def all_rows(self, run: int, columns: Sequence[str]) -> list[tuple[Any, ...]]:
        """Every cell of a run, ``columns`` of ``LIST_COLUMNS`` only, in the default order (the static export)."""
        bad = [c for c in columns if c not in LIST_COLUMNS]
        if bad:
            raise UsageError(f"unknown list column(s) {bad}. Fix: use columns of {LIST_COLUMNS}")
        cur = self._cursor()
        try:
            return cur.execute(f"SELECT {', '.join(columns)} FROM cells WHERE run = ? ORDER BY {SORTS['task']}",
                               [run]).fetchall()  # fmt: skip
        finally:
            cur.close()
