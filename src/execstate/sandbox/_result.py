"""The outcome of one run: its named status, exit code or signal, captured output and times."""

from __future__ import annotations

import signal
from dataclasses import dataclass
from typing import Literal

from execstate.sandbox._limits import Limits

Status = Literal["ok", "timeout", "memory", "crash", "output-limit"]


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


def code_and_signal(status: str, stopped: bool) -> tuple[int | None, int | None]:
    """The exit code or signal the init reported in ``status``; SIGKILL for a run ``kill_all`` stopped."""
    kind, _, value = status.partition(" ")
    if kind == "exit":
        return int(value), None
    if kind == "signal":
        return None, int(value)
    return None, int(signal.SIGKILL) if stopped else None


def classify(code, sig, timed_out, overflow, out, err, limits: Limits, wall, cpu) -> SandboxResult:
    """Name the run's status from how it ended; the first limit that applies wins."""
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
    return SandboxResult(status, code, sig, out, err, wall, cpu, detail)
