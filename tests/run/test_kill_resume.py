"""Kill ``execstate run`` (SIGKILL, and Ctrl-C) at several points and resume it.

The server holds every request until the test releases it, so each kill point
is reached by waiting on observable events (requests received, complete lines
in ``responses.jsonl``), never by sleeping. After the final resume there must
be exactly one record per cell, and every line recorded before a kill must be
unchanged in the final file.
"""

from __future__ import annotations

import json
import signal
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from run_helpers import answer, cli_command, complete_lines, make_task, read_records, task_index, wait_until

from execstate.records import write_jsonl
from execstate.testing.loopback import Hold, Reply, Request, ScriptedServer, completion

N_TASKS = 10
CONCURRENCY = 3


def _setup(tmp_path: Path, url: str) -> tuple[list[str], Path]:
    tasks = tmp_path / "tasks.jsonl"
    write_jsonl(tasks, [make_task(i) for i in range(N_TASKS)])
    settings = tmp_path / "settings.toml"
    settings.write_text(
        f'[[setting]]\nname = "held"\nbase_url = "{url}"\nmodel = "m"\nconcurrency = {CONCURRENCY}\n'
        "backoff_initial_s = 0.001\nbackoff_max_s = 0.01\n"
    )
    out = tmp_path / "out"
    return cli_command("run", "--tasks", str(tasks), "--settings", str(settings), "--out", str(out)), out


def _holding_server(serve, mode: dict[str, bool]) -> ScriptedServer:
    def script(req: Request) -> Hold | Reply:
        reply = Reply(body=completion(answer(task_index(req))))
        return Hold(then=reply) if mode["hold"] else reply

    return serve(script)


def _start(cmd: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _kill(proc: subprocess.Popen[bytes], server: ScriptedServer) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)  # reaps it and closes its pipes
    server.release_all()  # the dead run's held requests: let their handlers finish on closed sockets


def _complete_prefix(path: Path) -> bytes:
    data = path.read_bytes() if path.exists() else b""
    return data[: data.rfind(b"\n") + 1]


def test_sigkill_at_several_points_then_resume(serve, tmp_path: Path) -> None:
    mode = {"hold": True}
    server = _holding_server(serve, mode)
    cmd, out = _setup(tmp_path, server.url)
    path = out / "responses.jsonl"
    snapshots: list[bytes] = []

    # 1. Killed with every cell in flight and nothing recorded.
    proc = _start(cmd)
    server.wait_for_requests(CONCURRENCY)
    first_in_flight = {task_index(r) for r in server.requests}
    _kill(proc, server)
    assert complete_lines(path) == 0

    # 2. Killed after exactly two records, with more in flight.
    seen = len(server.requests)
    proc = _start(cmd)
    server.wait_for_requests(seen + CONCURRENCY)
    server.release(2)
    wait_until(lambda: complete_lines(path) == 2, what="2 records")
    server.wait_for_requests(seen + CONCURRENCY + 2)  # the two freed workers asked for their next cells
    _kill(proc, server)
    snapshots.append(_complete_prefix(path))
    assert complete_lines(path) == 2

    # 3. Killed at an arbitrary moment: right after a record lands while two more replies are on their way.
    seen = len(server.requests)
    proc = _start(cmd)
    server.wait_for_requests(seen + CONCURRENCY)
    server.release(3)
    wait_until(lambda: complete_lines(path) >= 3, what="a third record")
    _kill(proc, server)
    snapshots.append(_complete_prefix(path))

    # 4. Resume with an answering server: the run finishes cleanly.
    mode["hold"] = False
    server.release_all()
    done = subprocess.run(cmd, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()

    final = path.read_bytes()
    records = read_records(out)
    cells = Counter((r.task_id, r.setting, r.sample) for r in records)
    assert len(records) == N_TASKS and set(cells.values()) == {1}
    assert {r.task_id for r in records} == {make_task(i).task_id for i in range(N_TASKS)}
    for snap in snapshots:
        assert final.startswith(snap)  # recorded lines are never rewritten
    assert all(r.status == "completed" and r.attempts == 1 for r in records)
    assert all(json.loads(r.text or "")["output"] == r.task_id[1:].split("/")[0] for r in records)
    # Cells in flight at the first kill were sent again by a later run.
    asked = Counter(task_index(r) for r in server.requests)
    assert all(asked[i] >= 2 for i in first_in_flight)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_stops_cleanly_keeping_recorded_cells(serve, tmp_path: Path, sig: signal.Signals) -> None:
    mode = {"hold": True}
    server = _holding_server(serve, mode)
    cmd, out = _setup(tmp_path, server.url)
    path = out / "responses.jsonl"

    proc = _start(cmd)
    server.wait_for_requests(CONCURRENCY)
    server.release(1)
    wait_until(lambda: complete_lines(path) == 1, what="1 record")
    server.wait_for_requests(CONCURRENCY + 1)
    proc.send_signal(sig)
    stdout, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 130, stderr.decode()
    assert b"Traceback" not in stderr
    assert b"re-run the same command to resume" in stdout
    assert complete_lines(path) == 1 and path.read_bytes().endswith(b"\n")  # in-flight cells not recorded

    server.release_all()
    mode["hold"] = False
    done = subprocess.run(cmd, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    records = read_records(out)
    assert len(records) == N_TASKS == len({r.task_id for r in records})
