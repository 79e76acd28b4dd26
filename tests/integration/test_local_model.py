"""A real model end to end: llama.cpp's server (SmolLM2-135M-Instruct) on 127.0.0.1, the pipeline against it,
and a run that survives the server being killed and restarted, then resumes after being stopped.

Skipped only when the ``[local]`` extra is not installed; ``.ci/run`` installs it.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from execstate.run import local_extra_installed

pytestmark = pytest.mark.skipif(
    not local_extra_installed(), reason="the [local] extra is not installed (pip install -e '.[local]')"
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = (ROOT / "examples" / "collatz", ROOT / "examples" / "nested_inner")  # short prompts: 160-700 tokens
STATUSES = {"correct-valid", "correct-invalid", "wrong-valid", "wrong-invalid"}


def wait_for(what: str, ready: Callable[[], bool], timeout_s: float = 300.0) -> None:
    """Poll ``ready`` every 50 ms until it holds; fail naming ``what`` after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not ready():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout_s:.0f} s waiting for {what}")
        time.sleep(0.05)


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def records(path: Path) -> list[dict]:
    return [json.loads(x) for x in lines(path)]


def assert_real_answer(rec: dict) -> None:
    """A response the model really produced: text, token usage, finish reason and latency recorded."""
    assert rec["status"] == "completed", rec
    assert rec["text"].strip(), rec
    assert rec["usage"]["prompt_tokens"] > 0 and rec["usage"]["completion_tokens"] > 0, rec
    assert rec["finish_reason"] in {"stop", "length"}, rec
    assert rec["latency_s"] > 0, rec
    assert rec["model"] == "smollm2-135m-instruct" and rec["pipeline_check"] is False, rec


@pytest.fixture(scope="module")
def local_pipeline(tmp_path_factory):
    """``execstate local-model`` as a library call: two example cases built, the first 4 tasks answered."""
    from execstate.pipeline import run_local_model
    from execstate.run import free_port

    out, port = tmp_path_factory.mktemp("local") / "out", free_port()
    t0 = time.monotonic()
    result = run_local_model(out, studies=(), paths=EXAMPLES, limit=4, max_tokens=24, port=port, log=lambda _: None)
    return result, port, time.monotonic() - t0


def test_local_model_pipeline_end_to_end(local_pipeline):
    result, port, elapsed = local_pipeline
    responses = records(result.responses)
    assert len(responses) == 4
    for rec in responses:
        assert_real_answer(rec)
        assert rec["usage"]["completion_tokens"] <= 24
    grades = records(result.grades)
    # every response graded once: responses.jsonl is in arrival order (two requests are in flight), grades in
    # plan order, so the cells are compared as sets
    assert sorted((g["task_id"], g["setting"]) for g in grades) == sorted(
        (r["task_id"], r["setting"]) for r in responses
    )
    assert {g["status"] for g in grades} <= STATUSES  # every answer completed and graded
    assert all(g["pipeline_check"] is False for g in grades)
    report = result.report.read_text(encoding="utf-8")
    assert "smollm2-135m-local" in report and "PIPELINE CHECK" not in report
    with pytest.raises(OSError):  # the server was stopped with the pipeline
        import urllib.request

        urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2)
    latencies = ", ".join(f"{r['latency_s']:.2f}" for r in responses)
    print(f"local-model pipeline: {elapsed:.1f} s for 4 tasks; latencies {latencies} s")


def _settings_toml(path: Path, base_url: str) -> Path:
    # Retries every 0.05-0.2 s for as long as the test needs: the outage is ridden through, not recorded.
    path.write_text(
        "[[setting]]\n"
        'name = "smollm2-local"\n'
        f'base_url = "{base_url}"\n'
        'model = "smollm2-135m-instruct"\n'
        'max_tokens_field = "max_tokens"\n'
        "max_output_tokens = 16\n"
        "temperature = 0.0\n"
        "concurrency = 1\n"
        "max_attempts = 3000\n"
        "backoff_initial_s = 0.05\n"
        "backoff_max_s = 0.2\n",
        encoding="utf-8",
    )
    return path


def _run_command(tasks: Path, settings: Path, out: Path) -> list[str]:
    """``execstate run`` on the tasks and settings into ``out``, as a user would type it."""
    return [
        sys.executable,
        "-m",
        "execstate",
        "run",
        *("--tasks", str(tasks)),
        *("--settings", str(settings)),
        *("--out", str(out)),
    ]


def test_run_survives_server_kill_and_restart_then_resumes(local_pipeline, tmp_path):
    from execstate.grade import grade_run
    from execstate.records import Task, read_jsonl
    from execstate.run import LlamaServer

    tasks = local_pipeline[0].tasks  # the pipeline's build: 8 tasks, none of them asked in this run yet
    planned = [t.task_id for t in read_jsonl(tasks, Task)]
    assert len(planned) == 8
    server = LlamaServer(log=tmp_path / "server.log").start()
    settings = _settings_toml(tmp_path / "settings.toml", server.base_url)
    out = tmp_path / "run"
    responses = out / "responses.jsonl"
    first = subprocess.Popen(
        _run_command(tasks, settings, out), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        # 1. The server is killed mid-run and restarted: the run retries and rides through the outage.
        wait_for("two recorded responses", lambda: len(lines(responses)) >= 2)
        server.kill()
        before_kill = lines(responses)
        server.start()
        wait_for(
            "a response that needed a retry after the outage",
            lambda: any(r["attempts"] >= 2 for r in records(responses)[len(before_kill) :]),
        )
        assert lines(responses)[: len(before_kill)] == before_kill  # nothing recorded before was lost or rewritten
        retried = [r for r in records(responses) if r["attempts"] >= 2]
        assert all(r["errors"] and r["status"] == "completed" for r in retried), retried
        assert any("connect" in e.lower() or "disconnect" in e.lower() for r in retried for e in r["errors"])
        # 2. The server dies again and the run is stopped while cells are still unanswered.
        server.kill()
        recorded_at_stop = len(lines(responses))
        assert recorded_at_stop < 8, "the model answered every task before the second kill; use more tasks"
        first.send_signal(signal.SIGTERM)
        output = first.communicate(timeout=120)[0]
    finally:
        if first.poll() is None:
            first.kill()
        server.stop()
    assert first.returncode == 130, output
    kept = lines(responses)
    assert len(kept) < 8 and all(r["status"] == "completed" for r in records(responses))
    # 3. Restarted server, same command: the rest is answered, nothing recorded before is asked again.
    server.start()
    try:
        second = subprocess.run(
            _run_command(tasks, settings, out),
            capture_output=True,
            text=True,
            timeout=900,
        )
    finally:
        server.stop()
    assert second.returncode == 0, second.stdout + second.stderr
    final = records(responses)
    assert lines(responses)[: len(kept)] == kept
    assert sorted(r["task_id"] for r in final) == sorted(planned)  # each cell exactly once
    for rec in final:
        assert_real_answer(rec)
    graded = grade_run(out)
    assert len(graded.grades) == 8 and {g.status for g in graded.grades} <= STATUSES
    print("resume: latencies " + ", ".join(f"{r['latency_s']:.2f}" for r in final) + " s")
