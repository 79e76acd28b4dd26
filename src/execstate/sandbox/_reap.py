"""The runs this process has live, and killing them: one run's process group, or all at once (``kill_all``)."""

from __future__ import annotations

import os
import signal
import threading

_LIVE: set[int] = set()
_STOPPED: set[int] = set()
_LIVE_LOCK = threading.Lock()


def track(pgid: int) -> None:
    """Count the run led by ``pgid`` among the live ones, until ``untrack``."""
    with _LIVE_LOCK:
        _LIVE.add(pgid)


def untrack(pgid: int) -> bool:
    """The run led by ``pgid`` has ended; True if ``kill_all`` stopped it."""
    with _LIVE_LOCK:
        stopped = pgid in _STOPPED
        _LIVE.discard(pgid)
        _STOPPED.discard(pgid)
    return stopped


def kill_all() -> int:
    """Kill every program this process is running in the sandbox now (all threads); returns how many.

    For a batch that is being stopped (Ctrl-C, SIGTERM): each killed run returns
    to its caller as a ``crash`` by signal, which the caller must not record as
    the program's fault.
    """
    with _LIVE_LOCK:
        live = list(_LIVE)
        _STOPPED.update(live)
    for pgid in live:
        kill_group(pgid)
    return len(live)


def kill_group(pgid: int) -> None:
    """SIGKILL the process group ``pgid`` (one run's ``unshare``), if it still exists."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
