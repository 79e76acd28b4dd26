"""Carry out one prepared run: start it, feed and drain it, hold its wall clock, kill it, name its outcome."""

from __future__ import annotations

import os
import resource
import select
import subprocess
import threading
import time

from execstate.sandbox._errors import SandboxUnavailable
from execstate.sandbox._limits import Limits
from execstate.sandbox._pipes import Reader, feed
from execstate.sandbox._reap import kill_group, track, untrack
from execstate.sandbox._result import SandboxResult, classify, code_and_signal
from execstate.sandbox._spawn import launch


def run_in(init: list[str], cfg: dict, stdin: bytes, limits: Limits, pass_fds: tuple[int, ...]) -> SandboxResult:
    """Run the program ``cfg`` describes under ``limits`` with ``stdin``, to its end or its first limit."""
    started = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc, status_fd = launch(init, cfg, pass_fds)
    track(proc.pid)
    overflow = threading.Event()
    readers = _start_io(proc, stdin, limits.output_bytes, overflow)
    try:
        timed_out = not _exited_within(proc, limits.wall_s)
    finally:
        kill_group(proc.pid)  # unshare dies, so PID 1 and with it every process of the run
        proc.wait()
        stopped = untrack(proc.pid)
    status = _read_status(status_fd)
    for t in readers:
        t.join()
    cpu = _cpu_since(before)
    wall = time.monotonic() - started
    _check_started(status, timed_out or overflow.is_set() or stopped, readers[1])
    code, sig = code_and_signal(status, stopped)
    out, err = readers[0].data(), readers[1].data()
    return classify(code, sig, timed_out, overflow.is_set(), out, err, limits, wall, cpu)


def _start_io(proc: subprocess.Popen, stdin: bytes, cap: int, overflow: threading.Event) -> list[Reader]:
    """Start feeding ``stdin`` to ``proc`` and draining its stdout and stderr; past ``cap`` bytes of either,
    ``overflow`` is set and the run is killed."""

    def on_overflow() -> None:
        overflow.set()
        kill_group(proc.pid)

    readers = [Reader(proc.stdout, cap, on_overflow), Reader(proc.stderr, cap, on_overflow)]
    feeder = threading.Thread(target=feed, args=(proc.stdin, stdin), daemon=True)
    for t in (*readers, feeder):
        t.start()
    return readers


def _exited_within(proc: subprocess.Popen, seconds: float) -> bool:
    """Block until ``proc`` exits or ``seconds`` pass, whichever is first; True if it exited.

    Waits on a pidfd, so the caller wakes the moment the process ends
    (``Popen.wait(timeout)`` polls with sleeps of up to 50 ms, which would add
    tens of milliseconds to every short run).
    """
    fd = os.pidfd_open(proc.pid)
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        return bool(poller.poll(max(0, int(seconds * 1000))))
    finally:
        os.close(fd)


def _read_status(fd: int) -> str:
    chunks = []
    while chunk := os.read(fd, 4096):
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks).decode("utf-8", "replace").strip()


def _cpu_since(before: resource.struct_rusage) -> float:
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _check_started(status: str, ended_otherwise: bool, stderr: Reader) -> None:
    """``SandboxUnavailable`` if the init reported no status though nothing ended the run, or reported an error."""
    if not (status or ended_otherwise):
        raise SandboxUnavailable(
            f"the sandbox could not start ({_tail(stderr.data())}). Fix: this machine must "
            "allow user namespaces (sysctl kernel.unprivileged_userns_clone=1, "
            "user.max_user_namespaces > 0)"
        )
    if status.startswith("error"):
        raise SandboxUnavailable(f"the sandbox could not be set up: {status[6:]}. Fix: report this with --debug")


def _tail(data: bytes) -> str:
    return " | ".join(data.decode("utf-8", "replace").strip().splitlines()[-3:]) or "no message"
