"""`execstate run` as a command: a thin layer over run_tasks with clear errors and exit codes."""

from __future__ import annotations

import subprocess
from pathlib import Path

from run_helpers import cli_command, make_task, read_records

from execstate.records import write_jsonl


def _files(tmp_path: Path, settings_text: str) -> tuple[Path, Path]:
    tasks = tmp_path / "tasks.jsonl"
    write_jsonl(tasks, [make_task(i) for i in range(4)])
    settings = tmp_path / "settings.toml"
    settings.write_text(settings_text)
    return tasks, settings


def test_cli_runs_and_resumes(tmp_path: Path) -> None:
    tasks, settings = _files(tmp_path, '[[setting]]\nname = "check"\nprovider = "oracle"\n')
    cmd = cli_command(
        "run",
        "--tasks",
        str(tasks),
        "--settings",
        str(settings),
        "--out",
        str(tmp_path / "o"),
        "--samples",
        "2",
        "--limit",
        "3",
    )
    first = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    assert "check: 6 completed, 0 no-response, 0 retries" in first.stdout
    assert "6 cells planned, 0 already recorded, 6 recorded now, 0 missing" in first.stdout
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert "6 cells planned, 6 already recorded, 0 recorded now" in again.stdout
    assert len(read_records(tmp_path / "o")) == 6


def test_cli_reports_settings_errors_with_exit_code_2(tmp_path: Path) -> None:
    tasks, settings = _files(tmp_path, '[[setting]]\nname = "x"\nprovider = "oracle"\nmodle = "m"\n')
    done = subprocess.run(
        cli_command("run", "--tasks", str(tasks), "--settings", str(settings), "--out", str(tmp_path / "o")),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("execstate run: error: ") and "unknown key 'modle'" in done.stderr
    assert "Traceback" not in done.stderr
