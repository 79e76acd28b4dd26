"""``execstate run --retry no-response``: eligible ``no-response`` records move to ``responses.retried.jsonl`` and
their cells are asked again; a kill at any point of the move loses no record."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from run_helpers import make_task, read_records

from execstate.records import Grade, Response, read_jsonl, write_jsonl
from execstate.run import RETRIED_NAME, run_tasks
from execstate.run._journal import JOURNAL_NAME, open_journal
from execstate.run._retry import eligible, transient_error

N_TASKS = 6

ERRORS: dict[int, list[str]] = {
    0: ["attempt 1: HTTP 500: boom", "attempt 2: connection error: ClientOSError: [Errno 104] reset by peer"],
    1: ["attempt 1: timeout: no complete response within 5 s"],
    2: [
        "attempt 1: batch msgbatch_1: expired: the batch reached its 24-hour limit before this request was processed",
        'attempt 2: HTTP 529 overloaded_error: {"type": "overloaded_error", "message": "Overloaded"}',
    ],
    3: ["attempt 1: HTTP 429: slow down", "attempt 2: HTTP 400 invalid_request_error: prompt is too long"],
    5: ["attempt 1: HTTP 429: type=insufficient_quota, code=insufficient_quota: You exceeded your current quota"],
}
"""The no-response records a test writes, by task index: all but task 3 (a 400) are eligible; task 4 stays
completed."""
ELIGIBLE = {0, 1, 2, 5}


@pytest.mark.parametrize(
    ("line", "transient"),
    [
        ("attempt 1: connection error: ServerDisconnectedError: Server disconnected", True),
        ("attempt 2: timeout: no complete response within 600 s", True),
        ("attempt 1: HTTP 429: rate limited", True),
        ("attempt 1: HTTP 503: unavailable", True),
        ("attempt 1: HTTP 529 overloaded_error: Overloaded", True),
        ("attempt 3: malformed response body (12 bytes, not JSON): <html>", True),
        ("attempt 1: response has no choices {}", True),
        ("attempt 1: batch batch_abc: batch_expired: This request could not be executed", True),
        ("attempt 1: batch b1: missing from the batch results", True),
        ("attempt 1: response failed: type=server_error, code=server_error: boom", True),
        ("attempt 1: HTTP 402 billing_error: pay", True),
        ("attempt 1: HTTP 400 invalid_request_error: Your credit balance is too low to access the API", True),
        ("attempt 1: HTTP 400 invalid_request_error: max_tokens: too large", False),
        ("attempt 1: HTTP 400: Invalid value for 'temperature'", False),
        ("attempt 1: HTTP 413 request_too_large: too big", False),
        ("attempt 1: response failed: type=invalid_prompt, code=invalid_prompt: flagged", False),
        ("attempt 1: replay file r.jsonl has no entry for task t0 sample 0", False),
    ],
)
def test_error_lines_are_classified(line: str, transient: bool) -> None:
    assert transient_error(line) is transient


def _setup(tmp_path: Path) -> tuple[Path, Path, Path]:
    tasks = tmp_path / "tasks.jsonl"
    write_jsonl(tasks, [make_task(i) for i in range(N_TASKS)])
    settings = tmp_path / "settings.toml"
    settings.write_text('[[setting]]\nname = "o"\nprovider = "oracle"\n')
    out = tmp_path / "out"
    assert run_tasks(tasks, settings, out, progress=False).ok
    path = out / "responses.jsonl"
    lines = []
    for rec in read_jsonl(path, Response):
        i = int(rec.task_id[1:].split("/")[0])
        if i in ERRORS:
            rec = rec.model_copy(
                update={
                    "status": "no-response",
                    "text": None,
                    "finish_reason": None,
                    "errors": ERRORS[i],
                    "attempts": len(ERRORS[i]),
                }
            )
        lines.append(rec.to_json_line() + "\n")
    path.write_text("".join(lines))
    return tasks, settings, out


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "execstate", *args], capture_output=True, text=True, timeout=120)


def _index(task_id: str) -> int:
    return int(task_id[1:].split("/")[0])


def _old_lines(out: Path) -> dict[int, str]:
    return {
        _index(json.loads(line)["task_id"]): line
        for line in (out / "responses.jsonl").read_text().splitlines(keepends=True)
    }


def test_retry_re_asks_only_eligible_cells_and_grading_sees_only_the_current_records(tmp_path: Path) -> None:
    tasks, settings, out = _setup(tmp_path)
    old = _old_lines(out)
    assert {i for i in range(N_TASKS) if eligible(Response.model_validate_json(old[i]))} == ELIGIBLE

    done = _cli("run", "--retry", "no-response", str(out))  # tasks and settings from the run manifest
    assert done.returncode == 0, done.stderr  # every cell has its one record again
    assert f"o: {len(ELIGIBLE)} no-response records moved to responses.retried.jsonl" in done.stdout

    audit = (out / RETRIED_NAME).read_text().splitlines(keepends=True)
    assert sorted(audit) == sorted(old[i] for i in ELIGIBLE)  # byte for byte
    records = {_index(r.task_id): r for r in read_records(out)}
    assert len(records) == N_TASKS
    for i in ELIGIBLE | {4}:
        assert records[i].status == "completed" and records[i].errors == []
    assert records[3].model_dump_json() == Response.model_validate_json(old[3]).model_dump_json()

    graded = _cli("grade", "--run", str(out))
    assert graded.returncode == 0, graded.stderr
    grades = list(read_jsonl(out / "grades.jsonl", Grade))
    assert len(grades) == N_TASKS  # one per cell: the moved records are not graded
    assert {_index(g.task_id): g.status for g in grades if g.status == "no-response"} == {3: "no-response"}

    again = run_tasks(tasks, settings, out, progress=False, retry="no-response")
    assert again.retried == {} and again.new_records == 0  # task 3 is not eligible: nothing moves twice
    assert (out / RETRIED_NAME).read_text().splitlines(keepends=True) == audit


def test_retry_resets_the_batch_rounds_of_the_moved_cells(tmp_path: Path) -> None:
    tasks, settings, out = _setup(tmp_path)
    cid_cells = [[make_task(i).task_id, 0] for i in range(N_TASKS)]
    (out / JOURNAL_NAME).write_text(
        json.dumps({"event": "submitted", "setting": "o", "provider": "oracle", "batch_id": "b1", "cells": cid_cells})
        + "\n"
        + json.dumps({"event": "closed", "setting": "o", "batch_id": "b1", "resend": []})
        + "\n"
    )
    run_tasks(tasks, settings, out, progress=False, retry="no-response")
    journal, state = open_journal(out / JOURNAL_NAME)
    journal.close()
    for i in range(N_TASKS):
        assert state.rounds[(make_task(i).task_id, "o", 0)] == (0 if i in ELIGIBLE else 1)


KILL_SCRIPT = """
import os, signal, sys
import execstate.run._retry as retry
original = retry._replace
where = sys.argv[1]

def replace(path, lines):
    if where == "before-replace":
        os.kill(os.getpid(), signal.SIGKILL)
    original(path, lines)
    if where == "after-replace":
        os.kill(os.getpid(), signal.SIGKILL)

retry._replace = replace
from execstate.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("where", ["before-replace", "after-replace"])
def test_a_kill_during_the_move_loses_no_record(tmp_path: Path, where: str) -> None:
    tasks, settings, out = _setup(tmp_path)
    old = _old_lines(out)
    cmd = [sys.executable, "-c", KILL_SCRIPT, where, "run", "--retry", "no-response", str(out)]
    killed = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env={**os.environ})
    assert killed.returncode == -9, killed.stderr  # SIGKILL, at the chosen point
    audit = (out / RETRIED_NAME).read_text().splitlines(keepends=True)
    assert sorted(audit) == sorted(old[i] for i in ELIGIBLE)  # the audit copy is durable before anything else
    now = _old_lines(out)
    if where == "before-replace":
        assert now == old  # every old record still in responses.jsonl: nothing pending, nothing lost
        resumed = run_tasks(tasks, settings, out, progress=False, retry="no-response")
        assert resumed.retried == {"o": len(ELIGIBLE)}
    else:
        assert set(now) == set(range(N_TASKS)) - ELIGIBLE  # moved out, their cells pending
        resumed = run_tasks(tasks, settings, out, progress=False)  # a plain run answers them
        assert resumed.retried == {}
    assert resumed.new_records == len(ELIGIBLE)
    assert (out / RETRIED_NAME).read_text().splitlines(keepends=True) == audit  # no line written twice
    records = {_index(r.task_id): r for r in read_records(out)}
    assert len(records) == N_TASKS and all(records[i].status == "completed" for i in ELIGIBLE)
