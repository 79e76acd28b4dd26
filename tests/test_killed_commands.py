"""A command killed with SIGKILL (a caller's timeout) leaves no process of its own behind (issue 57).

Each command runs under a small wrapper that makes itself the child subreaper
(``PR_SET_CHILD_SUBREAPER``): every process the command starts, in whatever session
(the sandbox starts each run in its own), stays below the wrapper, and an orphan comes
to it when its parent dies. The test waits until the command is mid-work (a progress
line, a child process, a first response), SIGKILLs the command alone, and the wrapper
then reports what is still running below it, polling for a few seconds: nothing may be.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import execstate

SRC = Path(execstate.__file__).resolve().parents[1]
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
GRACE_S = 5.0
"""How long the processes a killed command started may take to end."""
STARTUP_S = 240.0
"""How long a command may take to reach the point where the test kills it (a busy machine is slow)."""

WRAPPER = r"""
import ctypes, json, os, signal, subprocess, sys, time
if ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) != 0:  # PR_SET_CHILD_SUBREAPER
    raise SystemExit("cannot become a subreaper")
grace = float(sys.argv[1])
child = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
print(child.pid, flush=True)
sys.stdin.readline()  # the test has killed the command

def below():
    while True:  # reap what ended: the command, and orphans that came here and ended
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                break
        except ChildProcessError:
            break
    found = []
    for name in filter(str.isdecimal, os.listdir("/proc")):
        try:
            stat = open(f"/proc/{name}/stat", "rb").read()
            cmdline = open(f"/proc/{name}/cmdline", "rb").read()
        except (OSError, ValueError):
            continue
        fields = stat[stat.rindex(b")") + 2:].split()
        if int(fields[1]) == os.getpid() and fields[0] != b"Z":
            found.append([int(name), cmdline.replace(b"\0", b" ").decode(errors="replace")[:200]])
    return found

deadline = time.monotonic() + grace
left = below()
while left and time.monotonic() < deadline:
    time.sleep(0.05)  # polls the condition "nothing below" until the deadline
    left = below()
print(json.dumps(left), flush=True)
for _ in range(50):  # clean up after a failure, so that the test itself leaves nothing behind
    rest = below()
    if not rest:
        break
    for pid, _ in rest:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    time.sleep(0.05)
"""


class Wrapped:
    """A command started under the subreaper wrapper; ``pid`` is the command's own process."""

    def __init__(self, argv: list[str], cwd: Path) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")])))
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WRAPPER, str(GRACE_S), *argv],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=env,
            start_new_session=True,
        )
        assert self.proc.stdout is not None and self.proc.stderr is not None
        first = self.proc.stdout.readline()
        if not first.strip():  # the wrapper could not start the command (or become a subreaper)
            pytest.fail(f"the wrapper failed: {self.proc.communicate(timeout=60)[1][-2000:]!r}")
        self.pid = int(first)
        self.err = b""

    def wait_until(self, condition: Callable[[], bool], what: str) -> None:
        """Poll ``condition`` (reading the command's stderr meanwhile) until it holds; fail at the deadline."""
        assert self.proc.stderr is not None
        deadline = time.monotonic() + STARTUP_S
        while not condition():
            if time.monotonic() > deadline:
                self.kill_and_report()
                pytest.fail(f"the command never reached {what}; stderr: {self.err[-2000:]!r}")
            ready, _, _ = select.select([self.proc.stderr], [], [], 0.05)
            if ready:
                chunk = os.read(self.proc.stderr.fileno(), 65536)
                self.err += chunk
                if not chunk and not condition():
                    self.kill_and_report()
                    pytest.fail(f"the command ended before {what}; stderr: {self.err[-2000:]!r}")

    def children(self) -> list[int]:
        """The command's living child processes."""
        return [pid for pid, ppid in _processes() if ppid == self.pid]

    def kill_and_report(self) -> list[list]:
        """SIGKILL the command alone; what is still running below the wrapper ``GRACE_S`` later."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:  # it ended by itself (reaped by the wrapper only later)
            pass
        self.proc.stdin.write(b"killed\n")
        self.proc.stdin.flush()
        left = json.loads(self.proc.stdout.readline() or "null")
        self.proc.communicate(timeout=60)
        return left


def _processes() -> list[tuple[int, int]]:
    """(pid, parent pid) of every living process."""
    found = []
    for name in filter(str.isdecimal, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{name}/stat").read_bytes()
        except (OSError, ValueError):
            continue
        fields = stat[stat.rindex(b")") + 2 :].split()
        if fields[0] != b"Z":
            found.append((int(name), int(fields[1])))
    return found


def _execstate(*args: str) -> list[str]:
    return [sys.executable, "-m", "execstate", *args]


PROGRAM = """import sys
data = sys.stdin.read().split()
n = int(data[0])
total = 0
for i in range(n):
    total += int(data[1 + i]) * (i % 3)
print(total)
"""


def _pool(root: Path, problems: int) -> Path:
    """``problems`` copies of one summing program with four tests each (sizes 3 to 200)."""
    for p in range(problems):
        d = root / f"p{p}"
        (d / "tests").mkdir(parents=True)
        (d / "main.py").write_text(PROGRAM)
        for t, size in enumerate((3, 8, 30, 200), 1):
            values = [(j * 7 + p) % 100 for j in range(size)]
            (d / "tests" / f"{t}.in").write_text(f"{size}\n{' '.join(map(str, values))}\n")
            (d / "tests" / f"{t}.out").write_text(f"{sum(v * (j % 3) for j, v in enumerate(values))}\n")
    return root


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a subreaper and /proc are Linux's")
def test_a_killed_construct_leaves_no_pool_process_behind(tmp_path):
    pool = _pool(tmp_path / "pool", 4)
    argv = _execstate("construct", str(pool), "--out", str(tmp_path / "specs"), "--jobs", "2", "--no-synthesize")
    run = Wrapped(argv, tmp_path)
    run.wait_until(lambda: b"\n[1/4]" in b"\n" + run.err, "its first progress line")
    assert len(run.children()) >= 2  # mid-pool: the forkserver and the resource tracker at least
    assert run.kill_and_report() == []
    assert not (tmp_path / "specs" / "construct.json").exists()  # it was killed before the end


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a subreaper and /proc are Linux's")
def test_a_killed_build_leaves_no_run_behind(tmp_path):
    cases = [str(EXAMPLES / name) for name in ("collatz", "nested_inner", "abc310_e")]
    run = Wrapped(_execstate("build", *cases, "--out", str(tmp_path / "out"), "--jobs", "2"), tmp_path)
    run.wait_until(lambda: bool(run.children()), "its first sandboxed run")
    assert run.kill_and_report() == []
    assert not (tmp_path / "out" / "manifest.json").exists()


@pytest.fixture(scope="module")
def tasks(tmp_path_factory) -> Path:
    """A small build's tasks.jsonl (the oracle provider answers from it)."""
    out = tmp_path_factory.mktemp("killed-tasks")
    result = subprocess.run(
        _execstate("build", str(EXAMPLES / "collatz"), "--out", str(out)),
        capture_output=True,
        timeout=600,
        env=dict(os.environ, PYTHONPATH=str(SRC)),
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return out / "tasks.jsonl"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a subreaper and /proc are Linux's")
def test_a_killed_run_leaves_nothing_behind(tmp_path, tasks):
    settings = tmp_path / "settings.toml"
    settings.write_text('[[setting]]\nname = "synthetic-a"\nprovider = "synthetic"\n')
    out = tmp_path / "run"
    argv = _execstate("run", "--tasks", str(tasks), "--settings", str(settings), "--out", str(out), "--samples", "2000")
    run = Wrapped(argv, tmp_path)
    responses = out / "responses.jsonl"
    run.wait_until(lambda: responses.is_file() and responses.stat().st_size > 0, "its first response")
    assert run.kill_and_report() == []
    cells = 2000 * len(tasks.read_bytes().splitlines())
    assert len(responses.read_bytes().splitlines()) < cells  # killed mid-run


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a subreaper and /proc are Linux's")
def test_a_killed_pipeline_leaves_no_process_behind(tmp_path):
    argv = _execstate(
        "pipeline", "--out", str(tmp_path / "out"), "--study", "none", "--no-pilot", "--fresh", "", "--variants", "",
        "--jobs", "2", str(EXAMPLES / "collatz"), str(EXAMPLES / "nested_inner"),
    )  # fmt: skip
    run = Wrapped(argv, tmp_path)
    run.wait_until(lambda: bool(run.children()), "its first child process")
    assert run.kill_and_report() == []
