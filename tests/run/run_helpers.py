"""Helpers for the run-stage tests: tasks built in code, fast settings, reading records back."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from execstate.records import Response, Task
from execstate.run import Setting
from execstate.testing.loopback import Request

_MARK = re.compile(r"print\('T(\d+)'\)")


def make_task(i: int, arm: str = "short-trace-final", oracle: str | None = None) -> Task:
    """Task ``t<i>/<arm>`` whose source carries the marker ``T<i>`` the server scripts look for."""
    source = f"print('T{i}')\n"
    return Task(
        task_id=f"t{i}/{arm}",
        case_id=f"t{i}",
        study="classic",
        language="python",
        arm=arm,  # type: ignore[arg-type]
        source=source,
        input=f"{i}\n",
        oracle=oracle if oracle is not None else str(i),
        answer_kind="text",
        grading_rule="json-or-tokens",
        source_sha256=hashlib.sha256(source.encode()).hexdigest(),
    )


def task_index(req: Request) -> int:
    """Which ``make_task`` task a received request is about."""
    m = _MARK.search(req.system_text)
    assert m, f"no task marker in {req.system_text!r}"
    return int(m.group(1))


def fast_setting(url: str, **over: object) -> Setting:
    """An endpoint setting with millisecond backoff so retry tests are quick."""
    fields: dict[str, object] = dict(
        name="s",
        base_url=url,
        model="m",
        concurrency=4,
        max_attempts=3,
        backoff_initial_s=0.001,
        backoff_max_s=0.01,
    )
    fields.update(over)
    return Setting.model_validate(fields)


def read_records(out: Path) -> list[Response]:
    path = out / "responses.jsonl"
    if not path.exists():
        return []
    return [Response.model_validate_json(line) for line in path.read_text().splitlines() if line.strip()]


def answer(i: int) -> str:
    return json.dumps({"output": str(i)})


def cli_command(*args: str) -> list[str]:
    """``execstate <args>`` through the real command-line entry point, in a subprocess."""
    import sys

    return [sys.executable, "-m", "execstate.cli", *args]


def complete_lines(path: Path) -> int:
    """Lines of ``path`` that end in a newline (a torn last line does not count)."""
    return path.read_bytes().count(b"\n") if path.exists() else 0


def wait_until(predicate, timeout: float = 60.0, what: str = "condition") -> None:
    """Poll an observable condition (file contents, process state) until it holds."""
    import time

    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.01)
