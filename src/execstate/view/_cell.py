"""One cell, whole: everything the cell view shows, as one JSON-ready dict made from the cached record lines.

The page inserts every string of it with ``textContent``; nothing here is HTML. The parts:

- ``task``: the ids, the arm (its spec's label, family and description), the program and input as the model saw
  them, what to highlight in the program (``highlight``: the checkpoint loop's line, a line count's marked line,
  the projected variables), the prompt exactly as sent (``execstate.run.render_messages``);
- ``response``: the answer text, the reasoning text, usage, cost (from the run manifest's prices,
  ``execstate.leaderboard.response_cost``), latency, cached / batch, provider, model and served model;
- ``grade``: status, rule, reason, envelope, the extracted answer, the error taxonomy's class;
- ``compare``: the parsed answer against the oracle (``compare``);
- ``others``: the same case's other cells (its other arms, settings and samples), and ``original``: a variant's
  or fresh task's original case, its program and its cells.
"""

from __future__ import annotations

import json
from typing import Any

from execstate.arms import arm_spec
from execstate.leaderboard import response_cost
from execstate.records import Response, Task, fresh_record
from execstate.run import render_messages
from execstate.values import any_int

_NOT_JSON = object()


def _parse(text: str | None) -> Any:
    if text is None:
        return _NOT_JSON
    try:
        return json.loads(text, parse_int=any_int)
    except (ValueError, RecursionError):
        return _NOT_JSON


def _show(value: Any) -> str:
    """A JSON value as compact text; a value too large to write back (a 100,000-digit int) as its type."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    except ValueError:
        return f"<{type(value).__name__} too large to show>"


def _same(a: Any, b: Any) -> bool:
    from execstate.grade import json_equal

    return json_equal(a, b)


def compare(task: Task, answer: str | None, steps: str | None = None, prefix: int | None = None) -> dict[str, Any]:
    """The parsed answer against the oracle, by the arm's family.

    ``state``: one row per field (``key``, ``want``, ``got``, ``same``), the oracle's fields first; ``trace``: one
    row per step of the oracle's list with the grade's step mark and ``first_wrong`` (the step after the longest
    correct prefix, None when all are right); ``count``: the numbers (the oracle's count, the answered one, and the
    marked line's text and its condition's count); ``text``: the oracle's and the answer's lines side by side."""
    family = arm_spec(task.arm).family
    oracle = task.oracle.rstrip("\n")
    if family == "state":
        want, got = _parse(oracle), _parse(answer)
        if not isinstance(want, dict) or not isinstance(got, dict):
            return {"kind": "state", "parsed": got is not _NOT_JSON, "want": oracle, "got": answer, "rows": []}
        keys = list(want) + [k for k in got if k not in want]
        rows = [
            {
                "key": k,
                "want": _show(want[k]) if k in want else None,
                "got": _show(got[k]) if k in got else None,
                "same": k in want and k in got and _same(want[k], got[k]),
            }
            for k in keys
        ]
        return {"kind": "state", "parsed": True, "want": oracle, "got": answer, "rows": rows}
    if family == "trace":
        want, got = _parse(oracle), _parse(answer)
        want_list = want if isinstance(want, list) else []
        got_list = got if isinstance(got, list) else []
        marks = steps or ""
        rows = []
        for i, state in enumerate(want_list):
            mark = marks[i] == "1" if i < len(marks) else (i < len(got_list) and _same(state, got_list[i]))
            rows.append({"step": i, "want": _show(state), "got": _show(got_list[i]) if i < len(got_list) else None,
                         "same": mark})  # fmt: skip
        extra = [{"step": i, "want": None, "got": _show(s), "same": False} for i, s in enumerate(got_list)][len(rows) :]
        first = next((r["step"] for r in rows if not r["same"]), None)
        return {"kind": "trace", "parsed": isinstance(got, list), "rows": rows + extra, "first_wrong": first,
                "prefix": prefix}  # fmt: skip
    if family == "count":
        info = task.meta.get("line_count") or {}
        return {"kind": "count", "want": oracle, "got": answer, "same": (answer or "").strip() == oracle.strip(),
                "line": info.get("line"), "text": info.get("text"), "evaluated": info.get("evaluated"),
                "branch_line": info.get("branch_line")}  # fmt: skip
    want_lines, got_lines = oracle.split("\n"), (answer or "").split("\n")
    rows = [
        {"line": i + 1, "want": want_lines[i] if i < len(want_lines) else None,
         "got": got_lines[i] if i < len(got_lines) else None,
         "same": i < len(want_lines) and i < len(got_lines) and want_lines[i].split() == got_lines[i].split()}
        for i in range(max(len(want_lines), len(got_lines)))
    ]  # fmt: skip
    return {"kind": "text", "want": oracle, "got": answer, "rows": rows}


def _line_of(source: str, text: str | None, fallback: int | None) -> int | None:
    """The 1-based line of ``source`` whose stripped text is ``text`` (the shown source may be instrumented, so
    the clean line number can be off), else ``fallback``."""
    if text:
        for number, line in enumerate(source.split("\n"), 1):
            if line.strip() == text.strip():
                return number
    return fallback


def highlight(task: Task) -> dict[str, Any]:
    """What the cell view marks in the program: ``loop_line`` (the checkpoint loop's header), ``count_line`` (a
    line count's marked line), ``variables`` (the projected names) and ``checkpoint`` (the arm's)."""
    meta = task.meta
    spec = arm_spec(task.arm)
    count = meta.get("line_count") or {}
    return {
        "loop_line": _line_of(task.source, meta.get("loop_header"), meta.get("loop_line"))
        if "loop_header" in meta or "loop_line" in meta
        else None,
        "count_line": _line_of(task.source, count.get("text"), count.get("line")) if count else None,
        "variables": list(meta.get("variables") or []),
        "checkpoint": spec.checkpoint,
        "k": meta.get("k"),
    }


def original_case(task: Task) -> tuple[str, str] | None:
    """(relation, case id) of the task a variant or fresh task stands beside: ``("variant of", original)`` or
    ``("fresh twin of", published)``; None for any other task."""
    if "variant_of" in task.meta:
        return "variant of", str(task.meta["variant_of"])
    fresh = fresh_record(task)
    if fresh and fresh.get("of"):
        return "fresh twin of", str(fresh["of"])
    return None


def cell_view(row: dict[str, Any], prices: dict[str, Any], others: list[dict[str, Any]],
              original: dict[str, Any] | None) -> dict[str, Any]:  # fmt: skip
    """The whole cell (see the module docstring) from ``ViewStore.cell_lines``' row, the setting's prices (``{}``:
    not priced), the case's cells and the original (``{"relation", "task", "cells"}``) or None."""
    task = Task.model_validate_json(row["task_line"])
    grade = json.loads(row["grade_line"])
    response = Response.model_validate_json(row["response_line"]) if row["response_line"] else None
    spec = arm_spec(task.arm)
    meta = dict(task.meta)
    meta.pop("neighbours", None)  # answers a model never sees; large; not needed to read the cell
    out: dict[str, Any] = {
        "run": row["run"],
        "cell": row["cell"],
        "task": {
            "task_id": task.task_id, "case_id": task.case_id, "study": task.study, "language": task.language,
            "arm": task.arm, "arm_label": spec.label or task.arm, "family": spec.family,
            "description": spec.description, "kind": row["kind"], "source": task.source, "input": task.input,
            "oracle": task.oracle, "grading_rule": task.grading_rule, "metrics": task.metrics.model_dump(),
            "band": row["band"], "highlight": highlight(task), "meta": meta,
            "prompt": render_messages(task),
        },
        "grade": {**grade, "group": row["grade"], "category": row["category"] or None},
        "compare": compare(task, grade.get("answer"), grade.get("steps"), grade.get("prefix")),
        "others": others,
        "original": original,
        "response": None,
    }  # fmt: skip
    if response is not None:
        out["response"] = {
            **response.model_dump(mode="json"),
            "cost": response_cost(response, prices) if prices else None,
        }
    return out
