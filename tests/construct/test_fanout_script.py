"""construct's process pool, called from a user's script: a missing main guard is a clear error, not a crash.

Each worker of the local pool imports the calling script again (multiprocessing's forkserver), so a script
that fans out at its top level runs again in every worker and breaks it. The caller then gets a
``UsageError`` that names the guard and ``jobs=1``; with the guard the same call works.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

UNGUARDED = """
from execstate.construct._fanout import fan_out
print(sorted(fan_out(str.upper, ["a", "b", "c"], 2)))
"""

GUARDED = """
from execstate.construct._fanout import fan_out
if __name__ == "__main__":
    print(sorted(fan_out(str.upper, ["a", "b", "c"], 2)))
"""


def _run(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "user_script.py"
    script.write_text(text, encoding="utf-8")
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path)


def test_a_script_without_a_main_guard_gets_an_error_naming_the_fix(tmp_path) -> None:
    res = _run(tmp_path, UNGUARDED)
    assert res.returncode != 0
    # the workers' own tracebacks share stderr and may come after the caller's: find the caller's error line
    errors = [line for line in res.stderr.splitlines() if line.startswith("execstate.errors.UsageError: ")]
    assert len(errors) == 1, res.stderr
    assert "a worker of the local process pool (2 processes) stopped" in errors[0]
    assert 'if __name__ == "__main__":' in errors[0] and "jobs=1" in errors[0]


def test_the_same_call_under_a_main_guard_works(tmp_path) -> None:
    res = _run(tmp_path, GUARDED)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "['A', 'B', 'C']"
