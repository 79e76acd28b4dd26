"""Run one untrusted program in a child process with hard limits.

The child gets its own process group, an empty temporary working directory, a
scrubbed environment (nothing of the parent's: no API keys, tokens or paths),
a fixed hash seed, wall-clock and CPU limits, an address-space limit, a file
size limit, and a cap on captured output. On timeout or output overflow the
whole process group is killed; it is also killed after a normal exit, so
nothing the program spawned outlives the run.

Every run ends in one named status:

- ``ok``            exit status 0
- ``timeout``       wall-clock or CPU limit reached
- ``memory``        the address-space limit was hit (MemoryError, bad_alloc)
- ``crash``         non-zero exit code or a signal
- ``output-limit``  stdout or stderr exceeded ``Limits.output_bytes``
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

Status = Literal["ok", "timeout", "memory", "crash", "output-limit"]

_LAUNCHER = Path(__file__).with_name("_launch.py")


@dataclass(frozen=True)
class Limits:
    """Resource limits of one run. Times in seconds, sizes in MiB / bytes."""

    wall_s: float = 20.0
    cpu_s: float = 20.0
    memory_mb: int = 2048
    output_bytes: int = 16 * 1024 * 1024
    file_mb: int = 16


@dataclass(frozen=True)
class SandboxResult:
    """Outcome of one run; ``detail`` explains any status other than ``ok``."""

    status: Status
    exit_code: int | None
    signal: int | None
    stdout: bytes
    stderr: bytes
    wall_s: float
    cpu_s: float
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def describe(self) -> str:
        """One line for an exclusion reason: status, code/signal and stderr tail."""
        parts: list[str] = [self.status]
        if self.signal:
            parts.append(f"signal {signal.Signals(self.signal).name}")
        elif self.exit_code not in (0, None):
            parts.append(f"exit code {self.exit_code}")
        if self.detail:
            parts.append(self.detail)
        tail = self.stderr.decode("utf-8", "replace").strip().splitlines()[-3:]
        if tail:
            parts.append("stderr: " + " | ".join(tail))
        return "; ".join(parts)


def scrubbed_env(hash_seed: int = 0, extra: dict[str, str] | None = None) -> dict[str, str]:
    """A minimal environment: nothing inherited from the parent but a safe PATH."""
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONHASHSEED": str(hash_seed),
        "PYTHONIOENCODING": "utf-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUTF8": "1",
    }
    env.update(extra or {})
    return env


def _limit_child(limits: Limits):
    def apply() -> None:
        mem = limits.memory_mb * 1024 * 1024
        cpu = max(1, int(limits.cpu_s + 0.999))
        resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        size = limits.file_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply


class _Reader(threading.Thread):
    """Drain one pipe into memory, stopping at ``cap`` bytes."""

    def __init__(self, pipe, cap: int, on_overflow) -> None:
        super().__init__(daemon=True)
        self.pipe, self.cap, self.on_overflow = pipe, cap, on_overflow
        self.chunks: list[bytes] = []
        self.size = 0

    def run(self) -> None:
        while True:
            chunk = self.pipe.read1(65536) if hasattr(self.pipe, "read1") else self.pipe.read(65536)
            if not chunk:
                break
            room = self.cap - self.size
            self.chunks.append(chunk[: max(room, 0)])
            self.size += len(chunk)
            if self.size > self.cap:
                self.on_overflow()
                break
        self.pipe.close()

    def data(self) -> bytes:
        return b"".join(self.chunks)


def _feed(pipe, data: bytes) -> None:
    try:
        pipe.write(data)
    except (BrokenPipeError, OSError):
        pass  # the program stopped reading; that is its business
    finally:
        try:
            pipe.close()
        except OSError:
            pass


_LIVE: set[int] = set()
_LIVE_LOCK = threading.Lock()


def kill_all() -> int:
    """Kill every program this process is running in the sandbox now (all threads); returns how many.

    For a batch that is being stopped (Ctrl-C, SIGTERM): each killed run returns
    to its caller as a ``crash`` by signal, which the caller must not record as
    the program's fault.
    """
    with _LIVE_LOCK:
        live = list(_LIVE)
    for pgid in live:
        _kill_group(pgid)
    return len(live)


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run(
    argv: list[str],
    stdin: bytes = b"",
    limits: Limits = Limits(),
    *,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    pass_fds: tuple[int, ...] = (),
) -> SandboxResult:
    """Run ``argv`` under ``limits`` with ``stdin``; never raises for the program's faults.

    ``env`` replaces the environment entirely (default: ``scrubbed_env()``).
    ``cwd`` defaults to a fresh empty temporary directory removed afterwards.
    """
    with tempfile.TemporaryDirectory(prefix="execstate-run-") as tmp:
        return _run_in(argv, stdin, limits, env or scrubbed_env(), cwd or Path(tmp), pass_fds)


def _run_in(argv, stdin, limits, env, cwd, pass_fds) -> SandboxResult:
    started = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=env,
        start_new_session=True,
        preexec_fn=_limit_child(limits),
        pass_fds=pass_fds,
        close_fds=True,
    )
    with _LIVE_LOCK:
        _LIVE.add(proc.pid)
    overflow = threading.Event()

    def on_overflow() -> None:
        overflow.set()
        _kill_group(proc.pid)

    readers = [
        _Reader(proc.stdout, limits.output_bytes, on_overflow),
        _Reader(proc.stderr, limits.output_bytes, on_overflow),
    ]
    feeder = threading.Thread(target=_feed, args=(proc.stdin, stdin), daemon=True)
    for t in (*readers, feeder):
        t.start()
    timed_out = False
    try:
        proc.wait(timeout=limits.wall_s)
    except subprocess.TimeoutExpired:
        timed_out = True
    finally:
        _kill_group(proc.pid)  # also reaps anything the program left behind
        proc.wait()
        with _LIVE_LOCK:
            _LIVE.discard(proc.pid)
    for t in readers:
        t.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return _classify(proc.returncode, timed_out, overflow.is_set(), readers, limits, time.monotonic() - started, cpu)


def _classify(code, timed_out, overflow, readers, limits, wall, cpu) -> SandboxResult:
    out, err = readers[0].data(), readers[1].data()
    sig = -code if code is not None and code < 0 else None
    exit_code = code if code is not None and code >= 0 else None
    status: Status
    detail = ""
    if overflow:
        status, detail = "output-limit", f"output exceeded {limits.output_bytes} bytes"
    elif timed_out:
        status, detail = "timeout", f"wall-clock limit of {limits.wall_s:g} s reached"
    elif sig == signal.SIGXCPU:
        status, detail = "timeout", f"CPU limit of {limits.cpu_s:g} s reached"
    elif code == 0:
        status = "ok"
    elif b"MemoryError" in err[-4096:] or b"bad_alloc" in err[-4096:]:
        status, detail = "memory", f"address-space limit of {limits.memory_mb} MiB reached"
    else:
        status = "crash"
    return SandboxResult(status, exit_code, sig, out, err, wall, cpu, detail)


def run_python(
    program: Path,
    stdin: bytes = b"",
    limits: Limits = Limits(),
    *,
    python: str | None = None,
    hash_seed: int = 0,
    args: tuple[str, ...] = (),
) -> SandboxResult:
    """Run a Python program file as ``__main__`` through the launcher.

    The launcher forbids creating processes (fork, exec, spawn, system) with
    an audit hook the program cannot remove, then runs ``program``.
    """
    argv = [python or sys.executable, "-s", "-B", str(_LAUNCHER), str(program), *args]
    return run(argv, stdin, limits, env=scrubbed_env(hash_seed))
